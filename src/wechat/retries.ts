/**
 * The platform resends a message it got no answer to within 5 s, up to three times (all within
 * about 15 s). The first arrival computes the answer; every later arrival of the same message (also
 * one that comes while the first is still being answered) gets the first answer, byte for byte.
 *
 * Every entry lives the same `ttlMs`, so insertion order is expiry order: expired entries are
 * dropped from the front in O(1) each, and the cache is also bounded in entries and bytes.
 */
const ENTRY_BYTES = 1024;

export class RetryCache {
  private readonly entries = new Map<string, { answer: Promise<string>; expires: number; bytes: number }>();
  /** Keys in insertion (= expiry) order; `head` is the oldest still possibly present. */
  private order: string[] = [];
  private head = 0;
  private bytes = 0;

  constructor(
    private readonly ttlMs = 30_000,
    // 100k entries cover the platform's ~15 s retry window up to ~6,600 messages a second.
    private readonly maxEntries = 100_000,
    private readonly maxBytes = 256 * 1024 * 1024,
  ) {}

  /** `first` is true for the arrival that ran `compute`. */
  get(key: string, now: number, compute: () => Promise<string>): { answer: Promise<string>; first: boolean } {
    this.expire(now);
    const hit = this.entries.get(key);
    if (hit) return { answer: hit.answer, first: false };
    // A reply is typically 0.5–1 KB (longest: a 2048-byte text or 8 news items).
    const entry = { answer: compute(), expires: now + this.ttlMs, bytes: key.length * 2 + ENTRY_BYTES };
    this.entries.set(key, entry);
    this.order.push(key);
    this.bytes += entry.bytes;
    while (this.entries.size > this.maxEntries || this.bytes > this.maxBytes) this.dropOldest();
    return { answer: entry.answer, first: true };
  }

  private expire(now: number): void {
    while (this.head < this.order.length) {
      const e = this.entries.get(this.order[this.head] as string);
      if (e && e.expires > now) break;
      this.dropOldest();
    }
    // Reclaim the consumed front of the queue now and then rather than shifting on every drop.
    if (this.head > 4096 && this.head * 2 > this.order.length) {
      this.order = this.order.slice(this.head);
      this.head = 0;
    }
  }

  private dropOldest(): void {
    const key = this.order[this.head++] as string;
    const e = this.entries.get(key);
    if (!e) return;
    this.entries.delete(key);
    this.bytes -= e.bytes;
  }

  get size(): number {
    return this.entries.size;
  }
}
