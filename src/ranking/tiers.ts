/**
 * The passage index files an article under each of its terms at one of a few weight tiers
 * (store/model/passage-index.ts), so that a question reads the articles where its words weigh
 * most first and stops at a fixed number of entries (rank.ts): a common word costs the same as a
 * rare one, the top of its list, never all of it.
 */

/** Weight tiers, heaviest first: a term's weight in an article (score.ts termImpacts) at or above the bound files it there. */
export const TIERS = [2.2, 1.4, 0.9, 0] as const;

export const tierOf = (w: number): number => TIERS.findIndex((b) => w >= b);

/** What each tier adds to a candidate's provisional score, per unit of idf: about the middle of its range. */
export const TIER_WEIGHT = [2.6, 1.8, 1.1, 0.6] as const;
