/**
 * How well an article answers a question (docs/answers.md "How articles are ranked"): the whole
 * article scored by BM25F (bm25.ts) — its head (title, keywords and the questions it answers), and
 * its body over the passages scored — with the share of the question it holds and the passage to
 * show. Pure: the store supplies the counts and the candidates (rank.ts), this file only scores.
 */
import { articleScore, idf, passageScore, RANKING, type CorpusStats, type Fields, type QueryTerm } from "./bm25.ts";
import { memoized } from "./memo.ts";
import { namesKeyword, namesTitle, titleForm } from "./names.ts";
import { CONTEXT, withContext } from "./question.ts";
import { isHeading, passagesOf, withoutNumber, type Span } from "./passages.ts";
import { SCORED_PASSAGES, scoredSpans } from "./scored-passages.ts";
import { keptCounts, wantedBy, type Counted } from "./kept-terms.ts";
import { articleTermsOf, placesOf, termCounts, termsOf } from "./words.ts";
import { ASKS_PRICE, PRICE, titledPrice } from "./price.ts";
import { frameTerms } from "./asks-frame.ts";
import { shownPassage, type Cut, type PassageScore } from "./shown-passage.ts";

export type { CorpusStats, QueryTerm } from "./bm25.ts";
export type { PassageScore } from "./shown-passage.ts";

/** What scoring reads of an article. */
export interface RankedSource {
  id: string;
  title: string;
  keywords: string;
  /** The questions it answers, one a line (absent: none), ranked with the title. */
  questions?: string;
  description: string;
  body: string;
}

export interface ArticleScore {
  id: string;
  score: number;
  /**
   * Share of the question the article holds in its head or the passages scored: of its places
   * (words.ts placesOf), each weighing its idf — one no article holds as the rarest — the ones held.
   */
  coverage: number;
  /** The share of the question its head alone holds (title, keywords, questions): an article about what is asked names it there. */
  headCoverage: number;
  /**
   * Of a follow-up (`Asked.context`), the share of the follower's own words it holds, every one of
   * them, those no article holds too — the earlier question's left out; of a question alone, its
   * coverage. Whether the article read before still answers what is asked now (reading.ts).
   */
  ownCoverage: number;
  /** Whether it holds one of the question's words (a Han pair, a Latin word), or RANKING.charsAsWord of its Han characters: not only a character or two. */
  word: boolean;
  /** The head's part of the score: the article's score had its body held nothing (what `replyd ask` shows). */
  head: number;
  /** The passage to show (null: the article has no text beyond its head); spans index into passageText(). */
  shown: PassageScore | null;
  /** The passages scored (all of them, or SCORED_PASSAGES of a long body: scored-passages.ts), in order. */
  passages: PassageScore[];
}



/** A term that is more than one Han character: a pair, or a Latin word. */
export const isWord = (term: string) => term.length > 1 || !/\p{Script=Han}/u.test(term);

/**
 * The words an article's head is ranked on: its title, keywords and the questions it answers (one
 * a line). The head weighs RANKING.headWeight times the body.
 */
export const headText = (a: { title: string; keywords: string; questions?: string }) => (a.questions ? `${a.title}\n${a.keywords}\n${a.questions}` : `${a.title}\n${a.keywords}`);

/** The text passages are cut from: the description, then the body. */
export const passageText = (a: { description: string; body: string }) => (a.description && a.body ? `${a.description}\n${a.body}` : a.description || a.body);

/**
 * `passages` with the description's words taken out of the first (the one it opens, when the article
 * has a body beside it): what the shown passage is chosen on (scoreArticle). Its span stays, so the
 * passage shown when only the description holds the question's words is the opening as before.
 */
function bodyAlone(a: { description: string; body: string }, text: string, passages: readonly Cut[]): readonly Cut[] {
  const first = passages[0];
  // Holding no word of the question, the first passage scores nothing either way: the description is not read again (a ranking's hot path).
  if (!(a.description && a.body) || !first || first.counts.size === 0 || first.start !== 0 || first.end <= a.description.length) return passages;
  const said = articleTermsOf(text.slice(0, a.description.length));
  const counts = new Map(first.counts);
  for (const t of said) {
    const n = counts.get(t);
    if (n !== undefined) n > 1 ? counts.set(t, n - 1) : counts.delete(t);
  }
  return [{ ...first, counts, len: Math.max(1, first.len - said.length) }, ...passages.slice(1)];
}

/**
 * The question's terms, each once, with their idf. A term no article holds matches nothing; it
 * weighs as one that a single article holds (the rarest there is), in the share of the question an
 * article holds: a word of the question that the account never uses counts against every article,
 * without outweighing the account's own words (in an account of one article, each as much).
 */
export function queryTerms(question: string, df: (term: string) => number, stats: CorpusStats): QueryTerm[] {
  const out: QueryTerm[] = [];
  const n = Math.max(stats.articles, 1);
  for (const term of new Set(termsOf(question))) {
    const d = df(term);
    out.push({ term, idf: idf(Math.max(d, 1), Math.max(n, d)), known: d > 0 });
  }
  return out;
}

/** A follow-up's own terms, those only its frame words hold (asks-frame.ts) at CONTEXT.frame of their idf. */
function framedLess(own: QueryTerm[], question: string): QueryTerm[] {
  const frame = frameTerms(question);
  return frame.size ? own.map((t) => (frame.has(t.term) ? { ...t, idf: t.idf * CONTEXT.frame } : t)) : own;
}

/** A place of a question (words.ts placesOf) with its weight: the idf of its word or character. */
interface Place {
  weight: number;
  by: string[];
  term: string;
}

/** A question as scoring reads it. */
export interface Asked {
  /** Its terms that take part in the score. */
  terms: QueryTerm[];
  /** Its places (words.ts placesOf), each with its weight: the idf of its word or character. */
  places: Place[];
  /** The follower's own places, those no article holds too (a follow-up's `places` leave them out): what ownCoverage is over. */
  own: Place[];
  /** It asks how much something costs ("how much is it", 要钱吗): the passage shown is one with a price, when one is about it (shownPassage). */
  asksPrice?: boolean;
  /** Its text in titleForm, for namesTitle (null: no title counts as named). */
  title: string | null;
}

/**
 * `question` asked of an account: its terms (all of them, or those `take` keeps), its places and
 * title form. A follow-up's earlier question (`context`, question.ts) adds its terms and places
 * that the follower's own words lack, each at CONTEXT.weight of its idf. `told`: the terms only in
 * what the follower explains after asking (explanation.ts), weighing RANKING.explanation of their place.
 */
export function askedOf(
  question: string,
  df: (term: string) => number,
  stats: CorpusStats,
  take: (all: QueryTerm[]) => QueryTerm[] = (all) => all,
  context?: string,
  told: ReadonlySet<string> | null = null,
): Asked {
  const asked = queryTerms(question, df, stats);
  const own = context ? framedLess(asked, question) : asked;
  const earlier = context ? queryTerms(context, df, stats) : [];
  // The earlier question's words weigh at most the follower's own as typed, frame words whole: capped
  // by them lowered, "要多久" after a question lowered the earlier words as much, and nothing moved (a review).
  const all = earlier.length ? withContext(own, earlier, asked) : own;
  // A place whose character or word termsOf() leaves out (a stop word's character) weighs as the rarest.
  const rarest = idf(1, Math.max(stats.articles, 1));
  const placed = (text: string, idfs: readonly QueryTerm[], share: number, skip: ReadonlySet<string>) => {
    const idfOf = new Map(idfs.map((t) => [t.term, t.idf]));
    // A place whose own term no article holds weighs as a pair or a synonym's group holding it does.
    const weightOf = (p: { term: string; by: string[] }) => idfOf.get(p.term) ?? p.by.map((b) => idfOf.get(b)).find((w) => w !== undefined) ?? rarest;
    return placesOf(text)
      .filter((p) => !skip.has(p.term))
      .map((p) => ({ weight: weightOf(p) * share, by: p.by, term: p.term }));
  };
  const mine = placesOf(question);
  const ownPlaces = placed(question, own, 1, new Set()).map((p) => (told?.has(p.term) ? { ...p, weight: p.weight * RANKING.explanation } : p));
  if (!context) return { terms: take(all), places: ownPlaces, own: ownPlaces, title: titleForm(question), asksPrice: ASKS_PRICE.test(question) };
  // A follow-up's own words that no article holds ("can I undo it?") say what is asked of the
  // earlier question's article, not that the question is off the account: they do not count.
  const known = new Set(own.filter((t) => t.known).map((t) => t.term));
  const places = ownPlaces.filter((_, i) => (mine[i] as { by: string[] }).by.some((b) => known.has(b)) || known.has((mine[i] as { term: string }).term));
  places.push(...placed(context, earlier, CONTEXT.weight, new Set(mine.map((p) => p.term))));
  return { terms: take(all), places, own: ownPlaces, title: titleForm(question), asksPrice: ASKS_PRICE.test(question) };
}

/** An article's terms counted once: its head's and each passage's (spans index into passageText()). What scoring reads, and what the index files and counts. */
export interface Analysis {
  head: Map<string, number>;
  headLen: number;
  passages: (Span & { counts: Map<string, number>; len: number })[];
}

export function analyse(a: Omit<RankedSource, "id">): Analysis {
  const text = passageText(a);
  return analysed(a, text, passagesOf(text));
}

/** The head and the passages `spans` of `text` (the article's passageText) analysed; with `wanted`, only those terms counted (the lengths count all). */
function analysed(a: Omit<RankedSource, "id">, text: string, spans: readonly Span[], wanted?: ReadonlySet<string>): Analysis {
  const headTerms = articleTermsOf(headText(a));
  return {
    head: termCounts(headTerms, wanted),
    headLen: headTerms.length,
    passages: spans.map((p) => {
      const terms = articleTermsOf(text.slice(p.start, p.end));
      return { start: p.start, end: p.end, counts: termCounts(terms, wanted), len: terms.length };
    }),
  };
}

/** analysed() of an article whose passages are all scored, with what was kept of its terms (kept-terms.ts) when it was met before. */
function keptAnalysis(a: Omit<RankedSource, "id">, text: string, spans: readonly Span[], wanted: ReadonlySet<string>): Analysis {
  const k = keptCounts(headText(a), text, spans, wanted);
  if (!k) return analysed(a, text, spans, wanted);
  return { head: k.head.counts, headLen: k.head.len, passages: spans.map((p, i) => ({ start: p.start, end: p.end, ...(k.passages[i] as Counted) })) };
}

/**
 * The analysis as BM25F's two fields: the body is its passages together — of `q`'s terms only when
 * given, as scoring reads no other (merging every passage's counts was 8 % of a question's ranking
 * at 10,000 passages: docs/performance.md, Session 40); the indexer files them all.
 */
export function fieldsOf(x: Analysis, q?: readonly QueryTerm[]): Fields {
  const body = new Map<string, number>();
  let bodyLen = 0;
  for (const p of x.passages) {
    bodyLen += p.len;
    if (q === undefined) for (const [t, f] of p.counts) body.set(t, (body.get(t) ?? 0) + f);
    else
      for (const { term } of q) {
        const f = p.counts.get(term);
        if (f) body.set(term, (body.get(term) ?? 0) + f);
      }
  }
  return { head: x.head, headLen: x.headLen, body, bodyLen };
}

const NO_BODY = { body: new Map<string, number>(), bodyLen: 0 };

export function scoreArticle(asked: Asked, a: RankedSource, stats: CorpusStats): ArticleScore {
  const q = asked.terms;
  // The head whole; of a long body, only the passages scoredSpans() chooses (the work is bounded whatever its size).
  const text = passageText(a);
  const spans = passagesOf(text);
  const x = spans.length <= SCORED_PASSAGES ? keptAnalysis(a, text, spans, wantedBy(asked)) : analysed(a, text, scoredSpans(text, spans, q), wantedBy(asked));
  const fields = fieldsOf(x, q);
  const passages: Cut[] = x.passages.map((p) => ({ ...p, score: passageScore(q, p.counts, p.len, stats.passageLen) }));
  // Which passage is shown is chosen on the body's words: the description, run into the first
  // passage, is the operator's summary of all the article holds (a pet hospital's named every branch,
  // "总院、高新、锦江、成华四家门店的地址…", and 成华店地址 had been shown the opening, 总院's and 高新's
  // addresses). The first passage shown is still the whole of it.
  const shownFrom = bodyAlone(a, text, passages);
  // A title and a keyword written out both count: the one titled so names what is asked no less than one keyworded so.
  const named = asked.title === null ? 1 : 1 + (RANKING.titleBoost > 0 && namesTitle(asked.title, a.title) ? RANKING.titleBoost : 0) + (RANKING.keywordBoost > 0 && namesKeyword(asked.title, a.keywords) ? RANKING.keywordBoost : 0);
  const has = (term: string) => x.head.has(term) || x.passages.some((p) => p.counts.has(term));
  const holds = (t: QueryTerm) => has(t.term);
  // Over every place of the question: a word no article holds is a part of it none answers.
  const total = asked.places.reduce((s, p) => s + p.weight, 0);
  // A Han character the article holds, though not in the question's pair: part of the place (a
  // follower writes 订了位 where the article says 订位).
  const heldShare = (p: { by: string[]; term: string }, at: (term: string) => boolean) =>
    p.by.some(at) ? 1 : p.term.length === 1 && !p.by.includes(p.term) && at(p.term) ? RANKING.charCredit : 0;
  const held = asked.places.reduce((s, p) => s + p.weight * heldShare(p, has), 0);
  const ownTotal = asked.own.reduce((s, p) => s + p.weight, 0);
  const ownHeld = asked.own.reduce((s, p) => s + p.weight * heldShare(p, has), 0);
  const inHead = (term: string) => x.head.has(term);
  const heldInHead = asked.places.reduce((s, p) => s + p.weight * heldShare(p, inHead), 0);
  // A question of single characters only ("茶") has no word to hold: its characters count as words.
  // Sharing a character or two ("天" in 七天 and 天气) is no relevance; three of the question's
  // characters are, though no pair of them is held (充的卡…退 where the article says 储值卡 and 退款).
  // A follow-up's characters are those of the question it is read with too.
  // A question with words no article holds (河北 asked of an account that has 河南 and 山东) is no
  // question of single characters: its characters held (河, 分) are no word of it either.
  const words = q.filter((t) => isWord(t.term));
  const charsHeld = q.filter((t) => !isWord(t.term) && holds(t)).length;
  const single = !words.length && !asked.places.some((p) => p.by.some(isWord));
  return {
    id: a.id,
    word: single ? q.some(holds) : words.some(holds) || charsHeld >= RANKING.charsAsWord,
    score: articleScore(q, fields, stats) * named,
    coverage: total > 0 ? held / total : 0,
    headCoverage: total > 0 ? heldInHead / total : 0,
    ownCoverage: ownTotal > 0 ? ownHeld / ownTotal : 0,
    head: articleScore(q, { ...fields, ...NO_BODY }, stats) * named,
    shown: shownPassage(q, shownFrom, stats, asked.asksPrice ? { holds: (p) => PRICE.test(text.slice(p.start, p.end)), titled: titledPrice(a.title) } : null, asked.title === null ? null : (p) => namesHeading(asked.title as string, text.slice(p.start, p.end)), x.passages[0]?.start === spans[0]?.start ? titleTerms(a.title) : null),
    passages: passages.map(({ start, end, score }) => ({ start, end, score })),
  };
}

/**
 * A title's first subject: before "and", "&", 、, 和, 与, 及, a comma or a colon ("Walking to the Castle and the Royal
 * Mile": the castle) — what the article's opening is about; a later one has a passage of its own
 * ("Delivery to Northern Ireland and the Channel Islands": the islands' paragraph is the second).
 */
const LATER_SUBJECT = /\s+(?:and|&)\s+|[&、，,和与及：:]/iu;

/** The terms of a title's first subject (LATER_SUBJECT). */
const titleTerms = memoized<ReadonlySet<string>>(20_000, (title) => new Set(articleTermsOf(title.split(LATER_SUBJECT)[0] ?? "")));

/** `passage` opens on a heading (passages.ts isHeading) that the question (in titleForm) writes out: "怎么备案" in 异地就医怎么备案. */
function namesHeading(question: string, passage: string): boolean {
  const line = passage.trimStart().split("\n", 1)[0] as string;
  return isHeading(line) && namesTitle(question, withoutNumber(line.trim()).replace(/[:：]\s*$/, ""));
}
