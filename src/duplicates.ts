/**
 * Which entries of a list repeat an earlier one. A Map of a million strings costs seconds when it
 * grows to that size (rehashing, and the collector rescanning it while it fills); hashing into a
 * typed array, sorting that natively and looking closer only at the rare hash values that occur
 * twice costs a tenth of that.
 */
import { fnv1a } from "./fnv.ts";

/** For every index whose key equals an earlier key: [index, index of the first occurrence], ascending. Absent keys never match. */
export function repeatedKeys(keys: readonly (string | undefined)[]): [number, number][] {
  const n = keys.length;
  const hashes = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    const key = keys[i];
    if (key !== undefined) hashes[i] = fnv1a(key);
  }
  const sorted = hashes.slice().sort();
  const colliding = new Set<number>();
  for (let i = 1; i < n; i++) if (sorted[i] === sorted[i - 1]) colliding.add(sorted[i] as number);
  const out: [number, number][] = [];
  if (!colliding.size) return out;
  const first = new Map<string, number>();
  for (let i = 0; i < n; i++) {
    const key = keys[i];
    if (key === undefined || !colliding.has(hashes[i] as number)) continue;
    const earlier = first.get(key);
    if (earlier === undefined) first.set(key, i);
    else out.push([i, earlier]);
  }
  return out;
}
