/**
 * Candidates' terms kept between questions, on the worker that ranks (docs/answers.md "Bounded";
 * docs/performance.md Session 40). Cutting a candidate's head and passages into terms was half of
 * what ranking a question cost, and the same articles come back as candidates question after
 * question. Kept as numbers — each term once in a table, an article's terms as an array of their
 * numbers — since kept as strings and counts they took hundreds of KB an article; and only for an
 * article a candidate a second time (numbering its terms costs more than counting them once, and
 * most articles of a big account are candidates once). An article's terms depend on the operator's
 * synonyms in force: what is kept is kept under its table, so that accounts with tables of their
 * own, served by the one worker in turn, do not forget each other's. Bounded: the articles used
 * last, up to KEPT.numbers in all (with what each costs beside its numbers), and the table of terms
 * forgotten whole (with every article) past KEPT.terms.
 */
import { articleTermsOf } from "./words.ts";
import { synonymsInForce, type SynonymTable } from "./synonyms.ts";
import type { Span } from "./passages.ts";
import { CostBoundMap } from "../base/lru.ts";

export const KEPT = {
  /** Terms numbered: about 110 bytes each (a Map entry and the term's own copy), some 45 MB at most. */
  terms: 400_000,
  /** Numbers kept in all, over every article kept (4 bytes each), counting ARTICLE_COST and PASSAGE_COST for each: some 32 MB. */
  numbers: 8_000_000,
  /** Articles seen once, remembered by a hash of their text: the next time they are kept. */
  seen: 65_536,
};
/** What an article kept and each of its passages cost beside their numbers (their objects and the Map's entry), in numbers' worth (4 bytes). */
const ARTICLE_COST = 64;
const PASSAGE_COST = 24;
/**
 * A term longer than a question can be (rank.ts RANKING_LIMITS.questionChars) is never looked up:
 * it is given this number, matching none, and not kept in the table.
 */
const LONGEST_TERM = 600;
const UNWANTED = 0xffff_ffff;

/** An article's terms as numbers, with what it was cut from (a hash names it: told apart from another of the same hash). */
interface Kept {
  headChars: number;
  textChars: number;
  head: Uint32Array;
  passages: Uint32Array[];
  /** In numbers' worth, its costs included. */
  cost: number;
}
/** Each term's number. */
const numberOf = new Map<string, number>();
/** By a hash of the table, head and passage text: the article's terms; the used last at the end. */
const kept = new CostBoundMap<bigint | number, Kept>(
  () => KEPT.numbers,
  (k) => k.cost,
);
const seen = new Set<bigint | number>();
/** A number for each synonym table met (0: none), hashed with the text. */
const tableNumbers = new WeakMap<SynonymTable, number>();
let tablesMet = 0;
/** Unknown to anyone outside this process: an article cannot be written to collide with another's. */
const SEED = Math.floor(Math.random() * 2 ** 32);

const numbered = (terms: readonly string[]): Uint32Array => {
  const out = new Uint32Array(terms.length);
  for (let i = 0; i < terms.length; i++) {
    const t = terms[i] as string;
    let n = numberOf.get(t);
    if (n === undefined) {
      if (t.length > LONGEST_TERM) n = UNWANTED;
      // A copy of its own, code unit for code unit (a lone surrogate too, which a UTF-8 round trip
      // would change): a term cut from a passage would otherwise hold the whole passage's string alive.
      else numberOf.set(` ${t}`.slice(1), (n = numberOf.size));
    }
    out[i] = n;
  }
  return out;
};

export interface Counted {
  counts: Map<string, number>;
  len: number;
}

/**
 * The counts of the `wanted` terms in `head` and in each of `spans` of `text` — passagesOf(text),
 * all of them — and how many terms each holds, as articleTermsOf counts them; null the first time
 * an article is met (the caller counts it as it is read: analysed() in score.ts).
 */
export function keptCounts(head: string, text: string, spans: readonly Span[], wanted: ReadonlySet<string>): { head: Counted; passages: Counted[] } | null {
  if (numberOf.size > KEPT.terms) forget();
  const table = synonymsInForce();
  let tableNumber = 0;
  if (table) tableNumbers.set(table, (tableNumber = tableNumbers.get(table) ?? ++tablesMet));
  const key = Bun.hash(`${tableNumber}\u0000${head.length}\u0000${head}${text}`, SEED);
  let k = kept.get(key);
  if (k && (k.headChars !== head.length || k.textChars !== text.length || k.passages.length !== spans.length)) {
    // Another article of the same hash: not this one's terms.
    kept.delete(key);
    k = undefined;
  }
  if (!k) {
    if (!seen.delete(key)) {
      if (seen.size >= KEPT.seen) seen.clear();
      seen.add(key);
      return null;
    }
    const passages = spans.map((p) => numbered(articleTermsOf(text.slice(p.start, p.end))));
    const h = numbered(articleTermsOf(head));
    k = { headChars: head.length, textChars: text.length, head: h, passages, cost: passages.reduce((s, p) => s + p.length + PASSAGE_COST, h.length + ARTICLE_COST) };
    // One alone past the bound is read, not kept: nothing is forgotten for it.
    kept.set(key, k);
  }
  const want = new Map<number, string>();
  for (const t of wanted) {
    const n = numberOf.get(t);
    if (n !== undefined) want.set(n, t);
  }
  return { head: counted(k.head, want), passages: k.passages.map((p) => counted(p, want)) };
}

/** `want`: the number of each wanted term some article holds, to the term. */
function counted(numbers: Uint32Array, want: ReadonlyMap<number, string>): Counted {
  const counts = new Map<string, number>();
  for (let i = 0; i < numbers.length; i++) {
    const t = want.get(numbers[i] as number);
    if (t !== undefined) counts.set(t, (counts.get(t) ?? 0) + 1);
  }
  return { counts, len: numbers.length };
}

/**
 * The terms scoring looks up for a question: its terms, and every term its places are held by
 * (score.ts Asked). An article's other terms are counted for nothing: a candidate's passages hold
 * some 500 each, and their counts were a fifth of a question's ranking and most of what it left to
 * collect (docs/performance.md, Session 40).
 */
export function wantedBy(asked: { terms: readonly { term: string }[]; places: readonly Place[]; own: readonly Place[] }): ReadonlySet<string> {
  let wanted = WANTED.get(asked);
  if (!wanted) {
    const set = new Set<string>(asked.terms.map((t) => t.term));
    for (const p of [...asked.places, ...asked.own]) {
      set.add(p.term);
      for (const b of p.by) set.add(b);
    }
    WANTED.set(asked, (wanted = set));
  }
  return wanted;
}
type Place = { term: string; by: readonly string[] };
const WANTED = new WeakMap<object, ReadonlySet<string>>();

/** Everything kept forgotten: past KEPT.terms, and in tests. */
export function forgetKept(): void {
  forget();
}
function forget(): void {
  kept.clear();
  numberOf.clear();
  seen.clear();
}

/** What is kept, for tests and the bench: articles, their cost in numbers' worth, terms numbered, articles seen once. */
export const keptSizes = () => ({ articles: kept.size, numbers: kept.cost, terms: numberOf.size, seen: seen.size });
