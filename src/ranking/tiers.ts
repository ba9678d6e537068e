/**
 * The passage index files an article under each term at one of a few weight tiers
 * (store/model/passage-index.ts), so that a question reads the articles where its words weigh
 * most first and stops at a fixed number of entries (rank.ts): a common word costs the same as a
 * rare one, the top of its list, never all of it.
 */
import { isWord, termImpacts, type Analysis, type CorpusStats } from "./score.ts";

/** Weight tiers, heaviest first: a term's weight in an article (score.ts termImpacts) at or above the bound files it there. */
export const TIERS = [2.2, 1.4, 0.9, 0] as const;

export const tierOf = (w: number): number => TIERS.findIndex((b) => w >= b);

/** What each tier adds to a candidate's provisional score, per unit of idf: about the middle of its range. */
export const TIER_WEIGHT = [2.6, 1.8, 1.1, 0.6] as const;

/**
 * Whether an article is filed under a term: its words (Han pairs, Latin words) and the single
 * characters of its head. A single character of a body alone never makes an article relevant
 * (choice.ts), so it need not make one a candidate: leaving them out files 40 % fewer entries.
 * They still count in df, and in the exact scores.
 */
export const filed = (term: string, x: Analysis) => isWord(term) || x.head.has(term);

/** The terms an article is filed under, each with its tier, with the account's sizes `stats` (the index's, and the in-memory source's of bench/eval). */
export function filings(x: Analysis, stats: CorpusStats): [term: string, tier: number][] {
  const out: [string, number][] = [];
  for (const [t, w] of termImpacts(x, stats)) if (filed(t, x)) out.push([t, tierOf(w)]);
  return out;
}
