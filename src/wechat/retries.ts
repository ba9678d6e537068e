/**
 * The platform resends a message it got no answer to within 5 s, up to three times (all within
 * about 15 s). The first arrival computes the answer; every later arrival of the same message (also
 * one that comes while the first is still being answered) gets the first answer, byte for byte.
 *
 * Settled answers live outside the JavaScript heap: key and answer bytes in one ring of bytes, a
 * linear-probing hash table over it, entry metadata in typed arrays. Measured on the callback
 * (docs/performance.md), 100k remembered answers as heap strings in a Map cost a quarter of the
 * throughput in garbage collection (an old Map written on every message is rescanned by every young
 * collection); typed arrays hold no pointers, so the collector never looks inside them.
 *
 * Every entry gets the same TTL, so the ring's oldest entry is the next to expire: entries leave from
 * the front in O(1), also when the entry or byte bound needs room. Answers still being computed sit
 * in a small map of promises until they settle.
 */

import { fnv1a } from "../fnv.ts";

export type Answer = string | Promise<string>;

const EMPTY = 0;

export class RetryCache {
  private readonly pending = new Map<string, Promise<string>>();
  // Ring of entries: entry i's key and answer bytes are data[start[i] .. start[i] + size[i]).
  private readonly hashes: Uint32Array;
  private readonly expires: Float64Array;
  private readonly start: Uint32Array;
  private readonly keySize: Uint32Array;
  private readonly entrySize: Uint32Array;
  private head = 0;
  private count = 0;
  /** Slots hold entry index + 1 (0 = empty); at most half full. */
  private readonly slots: Int32Array;
  private readonly mask: number;
  /**
   * The byte ring, in chunks allocated when first written (Buffers, for their allocation-free
   * write(string, offset)). Allocating all 64 MiB up front made the collector let the heap grow by
   * ~140 MB more during a backup: it sizes its headroom by what the process holds.
   */
  private readonly chunks: (Buffer | undefined)[];
  private readonly chunkSize: number;
  private readonly capacity: number;
  private dataTail = 0;
  private scratch = Buffer.alloc(4096);

  constructor(
    private readonly ttlMs = 30_000,
    // 100k entries cover the platform's ~15 s retry window up to ~6,600 messages a second.
    private readonly maxEntries = 100_000,
    // A reply is typically 0.5–1 KB (longest: a 2048-byte text or 8 news items, sealed: ~4 KB).
    maxBytes = 64 * 1024 * 1024,
  ) {
    this.hashes = new Uint32Array(maxEntries);
    this.expires = new Float64Array(maxEntries);
    this.start = new Uint32Array(maxEntries);
    this.keySize = new Uint32Array(maxEntries);
    this.entrySize = new Uint32Array(maxEntries);
    let slots = 1;
    while (slots < maxEntries * 2) slots *= 2;
    this.slots = new Int32Array(slots);
    this.mask = slots - 1;
    this.chunkSize = Math.min(1 << 20, maxBytes);
    this.chunks = new Array(Math.ceil(maxBytes / this.chunkSize));
    this.capacity = this.chunks.length * this.chunkSize;
  }

  /** The answer remembered for `key`, or `compute()`'s, remembered from now on. */
  get(key: string, now: number, compute: () => Answer): Answer {
    while (this.count > 0 && (this.expires[this.head] as number) <= now) this.dropOldest();
    const inFlight = this.pending.get(key);
    if (inFlight) return inFlight;
    const hash = fnv1a(key);
    const hit = this.find(key, hash);
    if (hit >= 0) {
      const at = this.start[hit] as number;
      const offset = at % this.chunkSize;
      return this.chunk(at).toString("utf8", offset + (this.keySize[hit] as number), offset + (this.entrySize[hit] as number));
    }
    const answer = compute();
    const expires = now + this.ttlMs;
    if (typeof answer === "string") this.store(key, answer, expires);
    else {
      this.pending.set(key, answer);
      answer.then(
        (s) => {
          this.pending.delete(key);
          this.store(key, s, expires);
        },
        // The caller sees the rejection; the next arrival computes again.
        () => this.pending.delete(key),
      );
    }
    return answer;
  }

  get size(): number {
    return this.count + this.pending.size;
  }

  /** The entry holding `key`, or -1. The key is encoded only when a stored hash matches. */
  private find(key: string, hash: number): number {
    let keyLength = -1;
    for (let i = hash & this.mask; ; i = (i + 1) & this.mask) {
      const slot = this.slots[i] as number;
      if (slot === EMPTY) return -1;
      const e = slot - 1;
      if (this.hashes[e] !== hash) continue;
      if (keyLength < 0) {
        // UTF-8 needs at most 3 bytes per UTF-16 unit.
        if (key.length * 3 > this.scratch.length) this.scratch = Buffer.alloc(key.length * 3);
        keyLength = this.scratch.write(key, 0);
      }
      const at = this.start[e] as number;
      const offset = at % this.chunkSize;
      if (this.keySize[e] === keyLength && this.scratch.compare(this.chunk(at), offset, offset + keyLength, 0, keyLength) === 0) return e;
    }
  }

  private store(key: string, answer: string, expires: number): void {
    // Not present: get() looked it up, and the pending map keeps a computing key from being computed twice.
    const hash = fnv1a(key);
    const need = (key.length + answer.length) * 3;
    if (need > this.chunkSize) return; // larger than a chunk (1 MiB): answered, not remembered
    if (this.count === this.maxEntries) this.dropOldest();
    // Contiguous bytes: start over at 0 when the end of the buffer is too close.
    let at = this.count === 0 ? 0 : this.dataTail;
    // Within one chunk: move to the next chunk's start, or wrap to the first.
    if ((at % this.chunkSize) + need > this.chunkSize) at = (Math.floor(at / this.chunkSize) + 1) * this.chunkSize;
    if (at + need > this.capacity) at = 0;
    // The oldest entries sit right after the tail: drop them until the new bytes fit.
    while (this.count > 0 && this.overlaps(this.head, at, need)) this.dropOldest();
    const chunk = this.chunk(at);
    const offset = at % this.chunkSize;
    const keyLength = chunk.write(key, offset);
    const written = chunk.write(answer, offset + keyLength);
    const e = (this.head + this.count) % this.maxEntries;
    this.hashes[e] = hash;
    this.expires[e] = expires;
    this.start[e] = at;
    this.keySize[e] = keyLength;
    this.entrySize[e] = keyLength + written;
    this.count++;
    this.dataTail = at + keyLength + written;
    let i = hash & this.mask;
    while (this.slots[i] !== EMPTY) i = (i + 1) & this.mask;
    this.slots[i] = e + 1;
  }

  private chunk(at: number): Buffer {
    const i = Math.floor(at / this.chunkSize);
    return (this.chunks[i] ??= Buffer.allocUnsafe(this.chunkSize));
  }

  private overlaps(e: number, at: number, length: number): boolean {
    const s = this.start[e] as number;
    return s < at + length && at < s + (this.entrySize[e] as number);
  }

  private dropOldest(): void {
    const e = this.head;
    let hole = (this.hashes[e] as number) & this.mask;
    while (this.slots[hole] !== e + 1) hole = (hole + 1) & this.mask;
    // Backward-shift deletion: later members of the probe run move up so lookups never stop early.
    for (let k = (hole + 1) & this.mask; this.slots[k] !== EMPTY; k = (k + 1) & this.mask) {
      const home = (this.hashes[(this.slots[k] as number) - 1] as number) & this.mask;
      const stays = hole <= k ? hole < home && home <= k : hole < home || home <= k;
      if (stays) continue;
      this.slots[hole] = this.slots[k] as number;
      hole = k;
    }
    this.slots[hole] = EMPTY;
    this.head = (this.head + 1) % this.maxEntries;
    this.count--;
  }
}
