/**
 * Which entries of a list repeat an earlier one, without holding the list. A Map of a million
 * strings costs seconds when it grows to that size (rehashing, and the collector rescanning it
 * while it fills) and the strings themselves stay in memory; hashing each key into a typed array as
 * it passes, sorting that natively and looking again only at the keys whose hash occurs twice costs a
 * tenth of the time and 8 bytes a key.
 */
import { fnv1a } from "../base/fnv.ts";

/** 53 bits (21 of CRC-32, 32 of FNV-1a): two distinct keys share one with odds of 1 in 2^53. */
export const keyHash = (key: string): number => (Bun.hash.crc32(key) & 0x1fffff) * 0x1_0000_0000 + fnv1a(key);

/** Keys' hashes in the order they came; an absent key is NaN, equal to nothing. */
export class KeyHashes {
  private h = new Float64Array(1024);
  length = 0;

  add(key: string | undefined): void {
    if (this.length === this.h.length) {
      const grown = new Float64Array(this.h.length * 2);
      grown.set(this.h);
      this.h = grown;
    }
    this.h[this.length++] = key === undefined ? NaN : keyHash(key);
  }

  at(index: number): number {
    return this.h[index] as number;
  }

  /** The hash values that occur more than once. */
  repeated(): Set<number> {
    const sorted = this.h.slice(0, this.length).sort();
    const out = new Set<number>();
    for (let i = 1; i < sorted.length; i++) if (sorted[i] === sorted[i - 1]) out.add(sorted[i] as number);
    return out;
  }
}

/**
 * For every index whose key equals an earlier key: [index, index of the first occurrence, its
 * label (the key as shown)], ascending. `visit` hands over the keys again, in order; only those whose hash repeats are kept.
 */
export function confirmRepeats(
  hashes: KeyHashes,
  visit: (look: (index: number, key: string | undefined, label?: string) => void) => void,
): [index: number, first: number, label: string][] {
  const colliding = hashes.repeated();
  const out: [number, number, string][] = [];
  if (!colliding.size) return out;
  const first = new Map<string, number>();
  visit((index, key, label = key) => {
    if (key === undefined || !colliding.has(hashes.at(index))) return;
    const earlier = first.get(key);
    if (earlier === undefined) first.set(key, index);
    else out.push([index, earlier, label as string]);
  });
  return out;
}

/** confirmRepeats over a list in memory. Absent keys never match. */
export function repeatedKeys(keys: readonly (string | undefined)[]): [number, number][] {
  const hashes = new KeyHashes();
  for (const key of keys) hashes.add(key);
  return confirmRepeats(hashes, (look) => keys.forEach((key, index) => look(index, key))).map(([index, first]) => [index, first]);
}
