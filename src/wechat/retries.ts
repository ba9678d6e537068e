/**
 * The platform resends a message it got no answer to within 5 s, up to three times. The first
 * arrival computes the answer; every later arrival of the same message (also one that comes while
 * the first is still being answered) gets the first answer, byte for byte.
 */
export class RetryCache {
  private readonly entries = new Map<string, { answer: Promise<string>; expires: number }>();

  constructor(
    private readonly ttlMs = 60_000,
    private readonly maxEntries = 100_000,
  ) {}

  /** `first` is true for the arrival that ran `compute`. */
  get(key: string, now: number, compute: () => Promise<string>): { answer: Promise<string>; first: boolean } {
    const hit = this.entries.get(key);
    if (hit && hit.expires > now) return { answer: hit.answer, first: false };
    if (this.entries.size >= this.maxEntries) this.evict(now);
    const answer = compute();
    this.entries.set(key, { answer, expires: now + this.ttlMs });
    return { answer, first: true };
  }

  private evict(now: number): void {
    for (const [k, e] of this.entries) if (e.expires <= now) this.entries.delete(k);
    // Still full: drop the oldest (insertion order), which are the nearest to expiry anyway.
    for (const k of this.entries.keys()) {
      if (this.entries.size < this.maxEntries) break;
      this.entries.delete(k);
    }
  }

  get size(): number {
    return this.entries.size;
  }
}
