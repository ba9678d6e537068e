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

import { fnv1a } from "../../base/fnv.ts";
import { RingIndex } from "./ringindex.ts";

export type Answer = string | Promise<string>;

export class RetryCache {
  private readonly pending = new Map<string, Promise<string>>();
  // Entry i's key and answer bytes are data[start[i] .. start[i] + entrySize[i]).
  private readonly index: RingIndex;
  private readonly expires: Float64Array;
  private readonly start: Uint32Array;
  private readonly keySize: Uint32Array;
  private readonly entrySize: Uint32Array;
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
  /** The UTF-8 length of the key in `scratch` (-1: not encoded yet), for `sameKey`. */
  private scratchLength = -1;
  private lookupKey = "";

  constructor(
    private readonly ttlMs = 30_000,
    // 100k entries cover the platform's ~15 s retry window up to ~6,600 messages a second.
    maxEntries = 100_000,
    // A reply is typically 0.5–1 KB (longest: a 2048-byte text or 8 news items, sealed: ~4 KB).
    maxBytes = 64 * 1024 * 1024,
  ) {
    this.index = new RingIndex(maxEntries);
    this.expires = new Float64Array(maxEntries);
    this.start = new Uint32Array(maxEntries);
    this.keySize = new Uint32Array(maxEntries);
    this.entrySize = new Uint32Array(maxEntries);
    this.chunkSize = Math.min(1 << 20, maxBytes);
    this.chunks = new Array(Math.ceil(maxBytes / this.chunkSize));
    this.capacity = this.chunks.length * this.chunkSize;
  }

  /** The answer remembered for `key`, or `compute()`'s, remembered from now on. */
  get(key: string, now: number, compute: () => Answer): Answer {
    const index = this.index;
    while (index.count > 0 && (this.expires[index.head] as number) <= now) index.dropOldest();
    const inFlight = this.pending.get(key);
    if (inFlight) return inFlight;
    this.lookupKey = key;
    this.scratchLength = -1;
    const hit = index.find(fnv1a(key), this.sameKey);
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
    return this.index.count + this.pending.size;
  }

  /** Answers still being computed (a reloaded account is closed once none is left). */
  get computing(): number {
    return this.pending.size;
  }

  /** Whether entry `e` holds `lookupKey`; the key is encoded only when a stored hash matches. */
  private readonly sameKey = (e: number): boolean => {
    if (this.scratchLength < 0) {
      const key = this.lookupKey;
      // UTF-8 needs at most 3 bytes per UTF-16 unit.
      if (key.length * 3 > this.scratch.length) this.scratch = Buffer.alloc(key.length * 3);
      this.scratchLength = this.scratch.write(key, 0);
    }
    const n = this.scratchLength;
    const at = this.start[e] as number;
    const offset = at % this.chunkSize;
    return this.keySize[e] === n && this.scratch.compare(this.chunk(at), offset, offset + n, 0, n) === 0;
  };

  private store(key: string, answer: string, expires: number): void {
    // Not present: get() looked it up, and the pending map keeps a computing key from being computed twice.
    const index = this.index;
    const need = (key.length + answer.length) * 3;
    if (need > this.chunkSize) return; // larger than a chunk (1 MiB): answered, not remembered
    if (index.count === index.capacity) index.dropOldest();
    // Contiguous bytes: start over at 0 when the end of the buffer is too close.
    let at = index.count === 0 ? 0 : this.dataTail;
    // Within one chunk: move to the next chunk's start, or wrap to the first.
    if ((at % this.chunkSize) + need > this.chunkSize) at = (Math.floor(at / this.chunkSize) + 1) * this.chunkSize;
    if (at + need > this.capacity) at = 0;
    // The oldest entries sit right after the tail: drop them until the new bytes fit.
    while (index.count > 0 && this.overlaps(index.head, at, need)) index.dropOldest();
    const chunk = this.chunk(at);
    const offset = at % this.chunkSize;
    const keyLength = chunk.write(key, offset);
    const written = chunk.write(answer, offset + keyLength);
    const e = index.add(fnv1a(key));
    this.expires[e] = expires;
    this.start[e] = at;
    this.keySize[e] = keyLength;
    this.entrySize[e] = keyLength + written;
    this.dataTail = at + keyLength + written;
  }

  private chunk(at: number): Buffer {
    const i = Math.floor(at / this.chunkSize);
    return (this.chunks[i] ??= Buffer.allocUnsafe(this.chunkSize));
  }

  private overlaps(e: number, at: number, length: number): boolean {
    const s = this.start[e] as number;
    return s < at + length && at < s + (this.entrySize[e] as number);
  }
}
