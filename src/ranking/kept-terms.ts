/**
 * Candidates' terms kept between questions, on the worker that ranks (docs/answers.md "Bounded";
 * docs/performance.md Session 40). Cutting a candidate's head and passages into terms was half of
 * what ranking a question cost, and the same articles come back as candidates question after
 * question. Kept as numbers — each term once in a table, an article's terms as an array of their
 * numbers — since kept as strings and counts they took hundreds of KB an article; and only for an
 * article a candidate a second time (numbering its terms costs more than counting them once, and
 * most articles of a big account are candidates once). Bounded: the articles used last, up to
 * KEPT.numbers numbers in all, and the table forgotten whole (with them) past KEPT.terms terms or
 * when the operator's synonyms in force change (what an article's terms are depends on them).
 */
import { articleTermsOf, termCounts } from "./words.ts";
import { synonymsInForce, type SynonymTable } from "./synonyms.ts";
import type { Span } from "./passages.ts";

export const KEPT = {
  /** Terms numbered: some 60 MB at most. */
  terms: 800_000,
  /** Numbers kept in all, over every article kept: 4 bytes each. */
  numbers: 8_000_000,
  /** Articles seen once, remembered by a hash of their text: the next time they are kept. */
  seen: 65_536,
};

type Kept = { head: Uint32Array; passages: Uint32Array[]; size: number };
/** Each term's number. */
const numberOf = new Map<string, number>();
/** By a hash of the article's head and passage text: its head's terms, and each passage's, as numbers; the used last at the end. */
const kept = new Map<bigint | number, Kept>();
let keptNumbers = 0;
const seen = new Set<bigint | number>();
let keptWith: SynonymTable | null = null;

const numbered = (terms: readonly string[]): Uint32Array => {
  const out = new Uint32Array(terms.length);
  for (let i = 0; i < terms.length; i++) {
    const t = terms[i] as string;
    let n = numberOf.get(t);
    if (n === undefined) numberOf.set(t, (n = numberOf.size));
    out[i] = n;
  }
  return out;
};

export interface Counted {
  counts: Map<string, number>;
  len: number;
}

/**
 * The counts of the `wanted` terms in `head` and in each of `spans` of `text` (passagesOf(text),
 * all of them: what the text alone decides), and how many terms each holds, as articleTermsOf
 * counts them.
 */
export function keptCounts(head: string, text: string, spans: readonly Span[], wanted: ReadonlySet<string>): { head: Counted; passages: Counted[] } {
  const table = synonymsInForce();
  if (table !== keptWith || numberOf.size > KEPT.terms) forget(table);
  const key = Bun.hash(`${head}\u0000${text}`);
  let k = kept.get(key);
  // Kept again as the one used last; one alone past the bound is read once, not kept.
  let keep = k !== undefined;
  if (k) kept.delete(key);
  else if (seen.delete(key)) {
    const passages = spans.map((p) => numbered(articleTermsOf(text.slice(p.start, p.end))));
    const h = numbered(articleTermsOf(head));
    k = { head: h, passages, size: passages.reduce((s, p) => s + p.length, h.length) };
    for (const [oldest, o] of kept) {
      if (keptNumbers + k.size <= KEPT.numbers) break;
      kept.delete(oldest);
      keptNumbers -= o.size;
    }
    keep = keptNumbers + k.size <= KEPT.numbers;
    if (keep) keptNumbers += k.size;
  } else {
    if (seen.size >= KEPT.seen) seen.clear();
    seen.add(key);
    const counted = (terms: readonly string[]): Counted => ({ counts: termCounts(terms, wanted), len: terms.length });
    return { head: counted(articleTermsOf(head)), passages: spans.map((p) => counted(articleTermsOf(text.slice(p.start, p.end)))) };
  }
  if (keep) kept.set(key, k);
  const want = new Map<number, string>();
  for (const t of wanted) {
    const n = numberOf.get(t);
    if (n !== undefined) want.set(n, t);
  }
  return { head: countedNumbers(k.head, want), passages: k.passages.map((p) => countedNumbers(p, want)) };
}

/** `want`: the number of each wanted term some article kept holds, to the term. */
function countedNumbers(numbers: Uint32Array, want: ReadonlyMap<number, string>): Counted {
  const counts = new Map<string, number>();
  for (let i = 0; i < numbers.length; i++) {
    const t = want.get(numbers[i] as number);
    if (t !== undefined) counts.set(t, (counts.get(t) ?? 0) + 1);
  }
  return { counts, len: numbers.length };
}

function forget(table: SynonymTable | null): void {
  kept.clear();
  numberOf.clear();
  seen.clear();
  keptNumbers = 0;
  keptWith = table;
}

/** Everything kept forgotten (tests). */
export const forgetKept = (): void => forget(synonymsInForce());

/** What is kept, for tests and the bench. */
export const keptSizes = () => ({ articles: kept.size, numbers: keptNumbers, terms: numberOf.size, seen: seen.size });
