/**
 * The passage index files an article under each term at one of a few weight tiers
 * (store/model/passage-index.ts), so that a question reads the articles where its words weigh
 * most first and stops at a fixed number of entries (rank.ts): a common word costs the same as a
 * rare one, the top of its list, never all of it.
 */
import { termWeight, type CorpusStats, type Fields } from "./bm25.ts";
import { fieldsOf, isWord, type Analysis } from "./score.ts";

/**
 * What the index files and counts, by version: a store whose passage index was built by another
 * version rebuilds it at start (store/model/article-index.ts). Bump it with any change to the words
 * (words.ts, filler-words.ts), the passages, what is counted or the tiers.
 */
export const INDEX_VERSION = 25;

/**
 * Weight tiers, heaviest first: a term's weight in an article (bm25.ts termWeight, at most k1 + 1)
 * at or above the bound files it there. Once in a body of the average length weighs 1.0; twice, or
 * once in the head, about 1.3; in the head and the body, about 1.5.
 */
export const TIERS = [1.4, 1.15, 0.85, 0] as const;

export const tierOf = (w: number): number => TIERS.findIndex((b) => w >= b);

/** What each tier adds to a candidate's provisional score, per unit of idf: about the middle of its range. */
export const TIER_WEIGHT = [1.55, 1.27, 1.0, 0.6] as const;

/**
 * Whether an article is filed under a term: its words (Han pairs, Latin words) and the single
 * characters of its head. A single character of a body alone never makes an article relevant
 * (choice.ts), so it need not make one a candidate: leaving them out files 40 % fewer entries.
 * They still count in df, and in the exact scores.
 */
export const filed = (term: string, x: Analysis) => isWord(term) || x.head.has(term);

/**
 * The terms an article is filed under, each once with its tier — the head's in order, then the
 * body's it lacks — with the account's sizes `stats` (the index's, and the in-memory source's of
 * bench/eval). `f`: the article's fields, when the caller has them already (a rebuild counts with them too).
 */
export function filings(x: Analysis, stats: CorpusStats, f: Fields = fieldsOf(x)): [term: string, tier: number][] {
  const out: [string, number][] = [];
  // The two maps walked in turn, not a Set of both: a rebuild files every article, and a Set and
  // two spread arrays made for each were 4–6 % of its time (docs/performance.md, Session 20).
  // Every term of the head is filed (filed()).
  for (const t of f.head.keys()) out.push([t, tierOf(termWeight(t, f, stats))]);
  for (const t of f.body.keys()) if (!f.head.has(t) && filed(t, x)) out.push([t, tierOf(termWeight(t, f, stats))]);
  return out;
}
