/** The passage of an article a follower is shown (docs/answers.md "How articles are ranked"): which one answers the question. */
import { idf, passageScore, RANKING, type CorpusStats, type QueryTerm } from "./bm25.ts";
import type { Span } from "./passages.ts";
import { PRICE_FAR, withoutPriceWords } from "./price.ts";

/** Of a question asking how much: which passages hold a price, and whether the article's title names one (水价, "Fees"). */
export interface Priced {
  holds: (p: Cut) => boolean;
  titled: boolean;
}

export interface PassageScore extends Span {
  score: number;
  /**
   * Shown as the article's opening (asked only what its title names): the card and a list's entry
   * start at its beginning, not at the sentence holding most of the question's words — 怎么开发票 of
   * the article 开发票, one paragraph long for the ranking, had been shown its last sentence
   * "优惠券、会员卡抵扣部分不开发票。" (a grocery's walkthrough).
   */
  opening?: true;
}

/** A passage with its terms counted. */
export type Cut = PassageScore & { counts: Map<string, number>; len: number };

/** Every word of the follower's own that the article holds is in its title (a follow-up's earlier question's words aside). */
function leadAsked(q: readonly QueryTerm[], passages: readonly Cut[], title: ReadonlySet<string>): boolean {
  const held = q.filter((t) => !t.earlier && (title.has(t.term) || passages.some((p) => p.counts.has(t.term))));
  return held.length > 0 && held.every((t) => title.has(t.term));
}

/**
 * The passage to show: the question's words weighted also by how few of this article's passages
 * hold them, so that the passage with the word only it has wins over the lead that repeats the
 * article's subject (CMRC 2018 dev: the passage shown held the answer 0.897 → 0.915 of the time).
 * A follow-up's earlier question's words weigh RANKING.shownContext of what they weigh in the
 * ranking: the follower's own words choose the passage, the earlier question's tell apart those
 * holding them alike — "and to Jersey?" after Northern Ireland's delivery had shown the article's
 * Northern Ireland passage, its price, to the follower asking about Jersey (a walkthrough's shop).
 * Of passages scoring close to the best (RANKING.shownEarlier), the first: the answer before the notes.
 * Asked only what the article's title names (`title`: its terms; null when the passages scored do
 * not open with the article's first), the opening.
 */
export function shownPassage(q: readonly QueryTerm[], passages: readonly Cut[], stats: CorpusStats, priced: Priced | null, headed: ((p: Cut) => boolean) | null = null, title: ReadonlySet<string> | null = null): PassageScore | null {
  if (passages.length <= 1) {
    const only = passages[0];
    if (!only) return null;
    return { start: only.start, end: only.end, score: only.score, ...(title && !priced && leadAsked(q, passages, title) ? { opening: true as const } : {}) };
  }
  const n = passages.length;
  const local = q.map((t) => {
    const d = passages.reduce((c, p) => c + (p.counts.has(t.term) ? 1 : 0), 0);
    return { ...t, idf: t.idf * Math.pow(idf(d, n), RANKING.localIdf) * (t.earlier ? RANKING.shownContext : 1) };
  });
  const scores = passages.map((p) => passageScore(local, p.counts, p.len, stats.passageLen));
  const close = Math.max(...scores) * RANKING.shownEarlier;
  // Of those close to the best, one under a heading the question writes out ("怎么备案" of
  // 异地就医怎么备案) is where the article answers it, before a preamble saying the article's subject
  // again (a service hall's walkthrough: 根据国家和省里的统一部署… had been shown); not one far below
  // the best, which a generic heading ("Opening hours") names (a review).
  const titled = headed ? passages.findIndex((p, i) => (scores[i] as number) > 0 && (scores[i] as number) >= close && headed(p)) : -1;
  // Asked only what the article is about — every word of the question the article holds is in its
  // title ("is there parking" of the Parking article, "how far to the castle" of the castle's), no
  // heading written out: its opening, which says it. Weighted by how few passages hold them, the
  // words had chosen the one passage naming them in passing ("The nearest multi-storey is Castle
  // Terrace car park", not "We have 4 off-street spaces… free for guests": a bed-and-breakfast's walkthrough).
  // The title only: keywords and taught questions name what an article answers somewhere in it
  // ("jersey" keyworded, "and to Jersey?" is its Jersey paragraph's; a review).
  if (titled < 0 && title && !priced && leadAsked(q, passages, title)) {
    // The lead passage, its sentence naming the words shown first (not its opening: one passage of
    // several may open on a preamble — "Welcome to the Lyric…" had led a parking question's entry: a review).
    const lead = passages[0] as Cut;
    return { start: lead.start, end: lead.end, score: lead.score };
  }
  let best = passages[titled >= 0 ? titled : scores.findIndex((s) => s >= close)] as Cut;
  // Asked how much: the best passage holding a price, unless the best scores PRICE_FAR times it (about something else).
  // Among those holding a price, the asking words ("price", "fee", 价格) choose nothing: every one
  // answers them, and "whats the price for 12 weeks" had shown the fees passage ending "Prices are in
  // US dollars", not the one listing "12 weeks: $4,680" (a language school's walkthrough).
  // So is whether the best is about something else: both read without them.
  const what = priced ? withoutPriceWords(local) : local;
  let pricedBest: Cut | null = null;
  let pricedScore = -1;
  let pricedChoice = -1;
  let bestChoice = 0;
  if (priced) {
    const choices = passages.map((p) => passageScore(what, p.counts, p.len, stats.passageLen));
    bestChoice = Math.max(0, ...choices);
    const held = passages.flatMap((p, i) => (priced.holds(p) ? [i] : []));
    const top = Math.max(-1, ...held.map((i) => choices[i] as number));
    // Of the priced passages the question chooses alike, the first: the price before the exceptions.
    const alike = held.filter((i) => (choices[i] as number) >= top * RANKING.shownEarlier && (top > 0 || (choices[i] as number) === top));
    // …holding a word of the question, when one does (a passage scoring nothing is shown only when none scores).
    const first = alike.find((i) => (scores[i] as number) > 0) ?? alike[0];
    if (first !== undefined) {
      pricedBest = passages[first] as Cut;
      pricedChoice = choices[first] as number;
      pricedScore = scores[first] as number;
    }
  }
  // A follow-up asking only how much ("how much is it"): the earlier question chose the article, and its price is what is asked.
  const onlyEarlier = q.every((t) => t.earlier || !t.known);
  // Of an article whose title names a price (阶梯水价, "Fees"), a priced passage however far the best
  // scores above it: what it costs is what the article is about, and "水费一吨多少钱" had been shown
  // "一立方米就是一吨水。", not the prices per tonne (a water company's walkthrough).
  if (pricedBest && (onlyEarlier || (pricedScore > 0 && (priced?.titled || pricedChoice * PRICE_FAR >= bestChoice)))) best = pricedBest;
  return { start: best.start, end: best.end, score: best.score };
}

