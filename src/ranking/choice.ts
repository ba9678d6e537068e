/**
 * What a follower is offered, from the ranked articles (docs/answers.md "What followers get"): one
 * article when the ranking is sure — the best scores at least `lead` times the second —, else the
 * relevant ones among the first three, or the fallback text when nothing is relevant or the best is
 * not sure and nothing else comes close. The thresholds were chosen on the tuning halves of the
 * evaluation sets (bench/answers-tune.ts; docs/performance.md, Session 18): the lead keeps single
 * wrong articles on our FAQ accounts at 3 % held out; the share trades refusals of questions no
 * article answers against right answers one for one, and 0.25 keeps right-first nearest the plain
 * BM25's (refused held out: 60 % Chinese, 35 % English).
 */
/** What choosing reads of a ranked article. */
export interface Scored {
  score: number;
  /** The share of the question it holds (score.ts): every word of the question counts, those no article holds too. */
  coverage: number;
  /** It holds a word of the question, not only single characters (score.ts). */
  word: boolean;
}

/** Tunable by bench/answers-tune.ts; nothing else changes them. */
export const ANSWERS: { minCoverage: number; listCoverage: number; lead: number; listed: number; listShare: number } = {
  /** The best article holding less of the question than this share is no answer: the fallback. */
  minCoverage: 0.3,
  /** Another article is listed beside it only if it holds at least this share. */
  listCoverage: 0.15,
  /** The best article is offered alone when its score is at least this many times the second's. */
  lead: 2,
  /** At most this many articles in a list. */
  listed: 3,
  /** A list holds the relevant articles scoring at least this share of the best's. */
  listShare: 0.2,
};

/**
 * `margin`, of an article offered alone: the best runner-up that could be listed, its score over the
 * article's (0: none) — how close the choice came to a list (from 1 / lead): the report's close
 * calls (store/log-kinds.ts CLOSE_MARGIN).
 */
export type Choice<T extends Scored> = { kind: "none" } | { kind: "one"; article: T; margin: number } | { kind: "list"; articles: T[] };

/** `ranked` best first. */
export function choose<T extends Scored>(ranked: readonly T[]): Choice<T> {
  const best = ranked[0];
  // Sharing a character or two ("天" in 七天 and 天气) is no relevance.
  const relevant = (a: T, share: number) => a.word && a.coverage >= share;
  if (!best || best.score <= 0 || !relevant(best, ANSWERS.minCoverage)) return { kind: "none" };
  const second = ranked[1];
  if (!second || second.score * ANSWERS.lead <= best.score)
    return { kind: "one", article: best, margin: (ranked.slice(1).find((a) => relevant(a, ANSWERS.listCoverage))?.score ?? 0) / best.score };
  const others = ranked.slice(1, ANSWERS.listed).filter((a) => a.score >= best.score * ANSWERS.listShare && relevant(a, ANSWERS.listCoverage));
  // Not sure of the best, and nothing else relevant to offer beside it: sent alone it would be a
  // guess, so the follower gets the fallback and the question waits in the inbox.
  return others.length ? { kind: "list", articles: [best, ...others] } : { kind: "none" };
}
