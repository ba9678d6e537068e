/**
 * What is ranked (docs/answers.md "Follow-ups"): a follower's text, and for a follow-up the
 * earlier question it is read with, whose words weigh less than the follower's own; and the
 * articles already offered, which are not ranked again ("another", "换一个").
 */
import type { QueryTerm } from "./bm25.ts";

export interface Question {
  text: string;
  /** The earlier question this one follows: its terms take part at CONTEXT.weight of their idf. */
  context?: string;
  /** Ids of articles left out of the ranking (at most CONTEXT.excluded are read). */
  exclude?: readonly string[];
}

/** Tunable by bench/followups.ts; nothing else changes them. */
export const CONTEXT: { weight: number; frame: number; excluded: number } = {
  /**
   * An earlier question's term weighs this share of its idf, the follower's own terms all of
   * theirs (and all of them together at most the follower's: withContext). On the follow-up set's
   * tuning half (bench/followups.ts) 0.5 ranked the right article first most often with the
   * ranking of issue 29; with issue 34's BM25F 0.6 does (0.711 → 0.734; held out 0.699 → 0.723;
   * docs/performance.md Session 18).
   */
  weight: 0.6,
  /**
   * A follow-up's own words that only ask how long, how much or when (asks-frame.ts) weigh this share
   * of their idf: they ask of the subject the question before names. Session 52, every follow-up set
   * in conversation (ours, second, fresh … seventh, walkthroughs), the earlier words capped by the
   * follower's as typed: 0.25 gained eleven pairs over 1, 0.1 twelve, 0 thirteen; none lost on ours
   * (the tuning set) at any. 0.1: the frame still tells a passage from another. Questions of their own
   * asked after another: right first at most 0.3 point lower.
   */
  frame: 0.1,
  /** Articles left out at most: as many as a conversation remembers offering (wechat/answering/conversation.ts). */
  excluded: 12,
};

export const asQuestion = (q: string | Question): Question => (typeof q === "string" ? { text: q } : q);

/**
 * The follower's own terms, then the earlier question's that the follower did not write, each at
 * CONTEXT.weight of its idf: a word in both counts once, at its full weight. `capBy`: the follower's
 * terms the earlier question's may weigh no more than together — as typed, before their frame words
 * are lowered (score.ts).
 */
export function withContext(own: readonly QueryTerm[], earlier: readonly QueryTerm[], capBy: readonly QueryTerm[] = own): QueryTerm[] {
  const mine = new Set(own.map((t) => t.term));
  const added = earlier.filter((t) => !mine.has(t.term));
  // Together the earlier question's words never outweigh the follower's own: a long question
  // before "what about Alaska?" would otherwise keep its article first on its many words alone.
  // A follow-up holding no word the account uses ("那推荐一部电影呢") is read on the earlier one's.
  const ownWeight = capBy.filter((t) => t.known).reduce((s, t) => s + t.idf, 0);
  const addedWeight = added.filter((t) => t.known).reduce((s, t) => s + t.idf, 0);
  const share = ownWeight > 0 && addedWeight * CONTEXT.weight > ownWeight ? ownWeight / addedWeight : CONTEXT.weight;
  return [...own, ...added.map((t) => ({ ...t, idf: t.idf * share, earlier: true as const }))];
}
