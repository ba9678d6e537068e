/**
 * What a follower is offered, from the ranked articles (docs/answers.md "What followers get"):
 * one article when the best is clearly ahead, else up to three, else nothing. The thresholds were
 * chosen on CMRC 2018 dev and the English FAQ set (bench/answers-tune.ts; docs/performance.md,
 * Session 14): one article is offered alone only when it is right nearly every time.
 */
/** What choosing reads of a ranked article. */
export interface Scored {
  score: number;
  coverage: number;
  /** It holds a word of the question, not only single characters (ranking.ts). */
  word: boolean;
}

/** Tunable by bench/answers-tune.ts; nothing else changes them. */
export const ANSWERS: { minCoverage: number; lead: number; listed: number; listShare: number } = {
  /** Below this share of the question's weight found in the best article, nothing is relevant. */
  minCoverage: 0.3,
  /** The best article is offered alone when its score is at least this many times the second's. */
  lead: 1.5,
  /** At most this many articles in a list. */
  listed: 3,
  /** A list holds the articles scoring at least this share of the best's. */
  listShare: 0.4,
};

/**
 * `margin`, of an article offered alone: the best relevant runner-up's score over the article's (0:
 * none), how close the choice came to a list (from 1 / lead) — the report's close calls
 * (store/log-kinds.ts CLOSE_MARGIN).
 */
export type Choice<T extends Scored> = { kind: "none" } | { kind: "one"; article: T; margin: number } | { kind: "list"; articles: T[] };

/** `ranked` best first. */
export function choose<T extends Scored>(ranked: readonly T[]): Choice<T> {
  const best = ranked[0];
  // Sharing a character or two ("天" in 七天 and 天气) is no relevance.
  const relevant = (a: T) => a.word && a.coverage >= ANSWERS.minCoverage;
  if (!best || best.score <= 0 || !relevant(best)) return { kind: "none" };
  const second = ranked[1];
  const alone = (): Choice<T> => ({ kind: "one", article: best, margin: (ranked.slice(1).find(relevant)?.score ?? 0) / best.score });
  if (!second || second.score * ANSWERS.lead <= best.score) return alone();
  const articles = ranked.slice(0, ANSWERS.listed).filter((a) => a.score >= best.score * ANSWERS.listShare && relevant(a));
  return articles.length === 1 ? alone() : { kind: "list", articles };
}
