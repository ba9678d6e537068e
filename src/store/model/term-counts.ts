/**
 * Terms counted: the passage index's document frequencies over a batch of articles
 * (passage-index.ts), and the in-memory source's over all of them (bench/eval/memory-source.ts).
 *
 * A term of one or two UTF-16 units — a Han character or pair, most of a Chinese article's terms —
 * is counted under a number made of its units; any other under its text. A Map keyed by text
 * compares the term asked with the one it stored, character by character, and the stored one lies
 * anywhere in a table the size of the batch's vocabulary (a hundred thousand terms for 2,000
 * articles): a read from memory for each of an article's thousand terms. Keyed by number there is
 * nothing to compare, and counting a rebuild's terms costs half (docs/performance.md, Session 20).
 */
export class TermCounts {
  private readonly short = new Map<number, number>();
  private readonly long = new Map<string, number>();

  add(term: string, by: number): void {
    const k = keyOf(term);
    if (k === null) this.long.set(term, (this.long.get(term) ?? 0) + by);
    else this.short.set(k, (this.short.get(k) ?? 0) + by);
  }

  get(term: string): number {
    const k = keyOf(term);
    return (k === null ? this.long.get(term) : this.short.get(k)) ?? 0;
  }

  /** Each term counted, with its count (zero where it was counted out as often as in). */
  *entries(): Generator<[term: string, count: number]> {
    for (const [k, n] of this.short) yield [textOf(k), n];
    yield* this.long;
  }
}

/** One unit is its code (below 0x10000); two are 0x10000 × (the first's code + 1) + the second's (from 0x10000 up). */
const keyOf = (t: string): number | null =>
  t.length === 1 ? t.charCodeAt(0) : t.length === 2 ? 0x10000 * (t.charCodeAt(0) + 1) + t.charCodeAt(1) : null;

const textOf = (k: number): string => (k < 0x10000 ? String.fromCharCode(k) : String.fromCharCode(Math.floor(k / 0x10000) - 1, k % 0x10000));
