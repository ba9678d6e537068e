/**
 * A follower's question ranked against the account's articles (docs/answers.md). Bounded whatever
 * the question: at most RANKING_LIMITS.terms of its terms take part, the passage index gives at
 * most RANKING_LIMITS.postings entries in all (each term its heaviest tiers first, rarest terms
 * first), and only the best RANKING_LIMITS.candidates articles by those entries are read and
 * scored exactly (score.ts), their bodies cut and counted again — at most SCORED_PASSAGES
 * passages of each (scored-passages.ts), whatever its size. The store supplies the counts, the
 * postings and the rows (`RankingSource`); everything else is decided here.
 */
import { explainedTerms } from "./explanation.ts";
import { answeringSentence, cardPassage, excerpt, openingSentence } from "./excerpt.ts";
import { once } from "../base/once.ts";
import { asQuestion, CONTEXT, type Question } from "./question.ts";
import { withoutOpening } from "./courtesy.ts";
import { whereabouts } from "./whereabouts.ts";
import { openingHours } from "./opening-hours.ts";
import { complaint, namesComplaint } from "./complaint.ts";
import { choose } from "./choice.ts";
import { keywordsOf } from "./names.ts";
import { askedOf, passageText, scoreArticle, type CorpusStats } from "./score.ts";
import { TIER_WEIGHT, TIERS } from "./tiers.ts";
import type { CandidateRow, RankedArticle, Ranking } from "./types.ts";
import { askedForms } from "./taught-form.ts";
import { splitCompounds } from "./compounds.ts";
import { otherSpellings } from "./spellings-en.ts";

export const RANKING_LIMITS = {
  /** Characters of a question that take part. */
  questionChars: 600,
  /** Terms of a question that take part (the rarest). */
  terms: 32,
  /** Index entries read per question, and per term. */
  postings: 4096,
  postingsPerTerm: 1024,
  /** Articles scored exactly. */
  candidates: 16,
  /** Articles ranked (and the one the question was taught to, when it is not among them). */
  ranked: 5,
  /**
   * UTF-8 bytes of the cut-down passage each ranked article carries for a list: a sentence or two
   * (80 Chinese characters, some 40 English words) — at 560 a list of three short articles was
   * 1.1–1.7 KB of whole bodies on a phone (a walkthrough's SaaS account); the entry picked ("第二个")
   * is sent as its card, with the passage whole.
   */
  excerptBytes: 240,
} as const;

/** What ranking reads of the store: counts, the index's entries and the candidates' rows. */
export interface RankingSource {
  stats(): CorpusStats;
  /** Articles holding `term`. */
  df(term: string): number;
  /** At most `limit` row numbers of the articles filed under `term` at `tier`. */
  postings(term: string, tier: number, limit: number): readonly number[];
  /** The live articles among `seqs`. */
  rows(seqs: readonly number[]): CandidateRow[];
  /** The row number of the live article a question in taught form (taught-form.ts) was taught to, if any. */
  taught?(form: string): number | undefined;
}

/** `question`: the follower's text, or a follow-up read with its earlier question and the articles already offered left out (question.ts). */
export function rank(question: string | Question, source: RankingSource): Ranking {
  const given = asQuestion(question);
  const bare = withoutOpening(given.text);
  // Complaining of someone's manner (complaint.ts): a long telling of who and when holds a small
  // share of itself in any article; when nothing is sure for it, what it asks for is the complaints
  // article, ranked on that word alone.
  const asked = bare.slice(0, RANKING_LIMITS.questionChars);
  const complained = complaint(asked);
  // Added only where the message does not say it: "…rude to my mom, i want to complain" had been
  // sure of the complaints article, and with "complaint" beside its "complain" it listed two more.
  const whole = rankRead(given, bare, complained !== null && !namesComplaint(asked) ? complained : null, source);
  if (complained === null || choose(whole.articles).kind !== "none") return whole;
  // Not with the question before: "投诉" read with it had been that question's article again.
  return { ...rankRead(given.exclude ? { text: complained, exclude: given.exclude } : { text: complained }, complained, null, source), rankedAs: complained };
}

function rankRead(given: Question, bare: string, complained: string | null, source: RankingSource): Ranking {
  const stats = source.stats();
  // Asking where the account's place is: read with the words an address article is titled by (whereabouts.ts).
  // Asking when it opens or closes: with the words an hours article is titled by (opening-hours.ts) —
  // read alone only: after another question 几点关门 asks when that thing closes (食堂在哪 → 几点开门: a review).
  // Complaining of someone's manner: with the word a complaints article is keyworded by.
  const added = whereabouts(bare) ?? (given.context ? null : openingHours(bare)) ?? complained;
  const df = (t: string) => source.df(t);
  const compounds = { df, together: (a: string, b: string) => heldTogether(source, a, b) };
  // What is ranked of the message: as much as RANKING_LIMITS.questionChars holds with the words
  // added after it, its compounds split (and cut again: a split adds a space).
  const room = RANKING_LIMITS.questionChars - (added ? added.length + 1 : 0);
  const readWords = (text: string) => splitCompounds(otherSpellings(text, compounds), compounds);
  const own = readWords(bare.slice(0, room));
  const context = given.context === undefined ? undefined : readWords(given.context.slice(0, RANKING_LIMITS.questionChars));
  const ownText = own.text.slice(0, room);
  const q = { ...given, text: added ? `${ownText} ${added}` : ownText, ...(context ? { context: context.text } : {}) };
  const split = [...own.split, ...(context?.split ?? [])];
  // The rarest known terms are looked up and scored; the others still weigh in the share of the question an article holds.
  const asked = askedOf(
    q.text.slice(0, RANKING_LIMITS.questionChars),
    df,
    stats,
    (all) =>
      all
        .filter((t) => t.known)
        .sort((a, b) => b.idf - a.idf)
        .slice(0, RANKING_LIMITS.terms),
    q.context?.slice(0, RANKING_LIMITS.questionChars),
    // What the follower explains after asking weighs less (explanation.ts) — read in their own
    // words, not the words added after them (投诉 after a rant is what it asks for).
    explainedTerms(ownText),
  );
  const terms = asked.terms;
  const provisional = new Map<number, number>();
  let readCount = 0;
  for (const t of terms) {
    let mine = 0;
    for (let tier = 0; tier < TIERS.length; tier++) {
      const room = Math.min(RANKING_LIMITS.postingsPerTerm - mine, RANKING_LIMITS.postings - readCount);
      if (room <= 0) break;
      const seqs = source.postings(t.term, tier, room);
      mine += seqs.length;
      readCount += seqs.length;
      const w = t.idf * (TIER_WEIGHT[tier] as number);
      for (const seq of seqs) provisional.set(seq, (provisional.get(seq) ?? 0) + w);
    }
  }
  // Articles left out still take their places among the candidates read, never among those scored.
  const excluded = new Set((q.exclude ?? []).slice(0, CONTEXT.excluded));
  // The article the question was taught to is scored and ranked whatever its words weigh: the
  // callback sends it alone (wechat/answering/taught.ts), and a taught "do i need to book" had been
  // left out of the five ranked behind a dozen articles saying "book" (a theatre's walkthrough).
  // Looked up as the follower wrote it, and without its greeting — not with words added or split.
  const taught = source.taught ? taughtSeq(source, askedForms(given.text, bare)) : undefined;
  if (taught !== undefined) provisional.set(taught, Infinity);
  const seqs = [...provisional]
    .sort((a, b) => b[1] - a[1] || a[0] - b[0])
    .slice(0, RANKING_LIMITS.candidates + excluded.size)
    .map(([seq]) => seq);
  const order = new Map(seqs.map((seq, i) => [seq, i]));
  const rows = (seqs.length ? source.rows(seqs) : [])
    .filter((r) => !excluded.has(r.id))
    .sort((a, b) => (order.get(a.seq) as number) - (order.get(b.seq) as number))
    .slice(0, RANKING_LIMITS.candidates);
  const all = rows
    .map((r) => ({ r, s: scoreArticle(asked, r, stats) }))
    .filter((x) => x.s.score > 0)
    .sort((a, b) => b.s.score - a.s.score || (a.r.id < b.r.id ? -1 : 1));
  const scored = all.slice(0, RANKING_LIMITS.ranked);
  const taughtOne = taught === undefined ? undefined : all.find((x) => x.r.seq === taught);
  if (taughtOne && !scored.includes(taughtOne)) scored.push(taughtOne);
  const articles = scored.map(({ r, s }): RankedArticle => {
    const text = passageText(r);
    const shown = s.shown;
    const priced = asked.asksPrice === true;
    // The opening shown: from its first sentence (shownPassage says why).
    const answering = shown ? once(() => (shown.opening ? openingSentence(text, shown) : answeringSentence(text, shown, terms, priced))) : undefined;
    return {
      id: r.id,
      title: r.title,
      description: r.description,
      url: r.url,
      picurl: r.picurl,
      score: round(s.score),
      coverage: round(s.coverage),
      headCoverage: round(s.headCoverage),
      ownCoverage: round(s.ownCoverage),
      word: s.word,
      questions: r.questions ? r.questions.split("\n") : [],
      keywords: keywordsOf(r.keywords),
      head: round(s.head),
      passage: shown ? cardPassage(text, shown, terms, priced, answering) : null,
      passageScore: shown ? round(shown.score) : 0,
      excerpt: shown ? excerpt(text, shown, terms, RANKING_LIMITS.excerptBytes, priced, answering) : null,
      passages: [...s.passages]
        .sort((a, b) => b.score - a.score)
        .slice(0, 3)
        .filter((p) => p.score > 0)
        .map((p) => ({ text: text.slice(p.start, p.end).trim(), score: round(p.score) })),
    };
  });
  return { terms: terms.map((t) => ({ term: t.term, idf: round(t.idf), known: true })), postings: readCount, candidates: Math.min(seqs.length, RANKING_LIMITS.candidates), articles, ...(split.length ? { split } : {}) };
}

const round = (x: number) => Math.round(x * 1000) / 1000;

/** Index entries read per term, at each tier, to tell whether one article holds two terms (compounds.ts): a bound, not a count. */
const TOGETHER_ENTRIES = 256;

/** One article holds both `a` and `b`, among the first TOGETHER_ENTRIES of each's entries at each tier. */
function heldTogether(source: RankingSource, a: string, b: string): boolean {
  const seqs = new Set<number>();
  for (let tier = 0; tier < TIERS.length; tier++) for (const seq of source.postings(a, tier, TOGETHER_ENTRIES)) seqs.add(seq);
  for (let tier = 0; tier < TIERS.length; tier++) for (const seq of source.postings(b, tier, TOGETHER_ENTRIES)) if (seqs.has(seq)) return true;
  return false;
}

/** The row of the article the first of `forms` that was taught was taught to, if any. */
function taughtSeq(source: RankingSource, forms: readonly string[]): number | undefined {
  for (const form of forms) {
    const seq = source.taught?.(form);
    if (seq !== undefined) return seq;
  }
  return undefined;
}
