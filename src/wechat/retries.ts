/**
 * The platform resends a message it got no answer to within 5 s, up to three times (all within
 * about 15 s). The first arrival computes the answer; every later arrival of the same message (also
 * one that comes while the first is still being answered) gets the first answer, byte for byte.
 *
 * Every entry lives the same `ttlMs`, so insertion order is expiry order: expired entries are
 * dropped from the front in O(1) each, and the cache is also bounded in entries and bytes.
 */
export class RetryCache {
  private readonly entries = new Map<string, { answer: Promise<string>; expires: number; bytes: number }>();
  private bytes = 0;

  constructor(
    private readonly ttlMs = 30_000,
    private readonly maxEntries = 200_000,
    private readonly maxBytes = 64 * 1024 * 1024,
  ) {}

  /** `first` is true for the arrival that ran `compute`. */
  get(key: string, now: number, compute: () => Promise<string>): { answer: Promise<string>; first: boolean } {
    this.expire(now);
    const hit = this.entries.get(key);
    if (hit) return { answer: hit.answer, first: false };
    const entry = { answer: compute(), expires: now + this.ttlMs, bytes: key.length * 2 + 64 };
    this.entries.set(key, entry);
    this.bytes += entry.bytes;
    // Count the answer's size once it is known (answers are strings of a few hundred bytes).
    entry.answer.then((a) => {
      if (this.entries.get(key) !== entry) return;
      entry.bytes += a.length * 2;
      this.bytes += a.length * 2;
      this.trim();
    });
    this.trim();
    return { answer: entry.answer, first: true };
  }

  private expire(now: number): void {
    for (const [k, e] of this.entries) {
      if (e.expires > now) break;
      this.drop(k, e.bytes);
    }
  }

  private trim(): void {
    for (const [k, e] of this.entries) {
      if (this.entries.size <= this.maxEntries && this.bytes <= this.maxBytes) break;
      this.drop(k, e.bytes);
    }
  }

  private drop(key: string, bytes: number): void {
    this.entries.delete(key);
    this.bytes -= bytes;
  }

  get size(): number {
    return this.entries.size;
  }
}
