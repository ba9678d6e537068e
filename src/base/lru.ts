/**
 * A map that forgets its longest-unused entries once their costs together pass a bound: what the
 * search worker keeps between questions (ranking/kept-terms.ts: an article's terms by the numbers
 * they hold; store/model/postings.ts: the index's lists by their entries). The bound is read at
 * each write, so that tests may lower it.
 */
export class CostBoundMap<K, V> {
  private readonly entries = new Map<K, V>();
  private total = 0;

  constructor(
    private readonly bound: () => number,
    private readonly costOf: (v: V) => number,
  ) {}

  /** The entry, made the one used last. */
  get(key: K): V | undefined {
    const v = this.entries.get(key);
    if (v !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, v);
    }
    return v;
  }

  /**
   * Kept as the one used last, the longest unused forgotten until all fit; false, and nothing
   * forgotten, for a value that alone costs more than the bound (it is not kept).
   */
  set(key: K, v: V): boolean {
    this.delete(key);
    const cost = this.costOf(v);
    const bound = this.bound();
    if (cost > bound) return false;
    for (const [oldest, o] of this.entries) {
      if (this.total + cost <= bound) break;
      this.entries.delete(oldest);
      this.total -= this.costOf(o);
    }
    this.entries.set(key, v);
    this.total += cost;
    return true;
  }

  delete(key: K): void {
    const v = this.entries.get(key);
    if (v === undefined) return;
    this.entries.delete(key);
    this.total -= this.costOf(v);
  }

  clear(): void {
    this.entries.clear();
    this.total = 0;
  }

  get size(): number {
    return this.entries.size;
  }

  /** The costs of the entries kept, together. */
  get cost(): number {
    return this.total;
  }
}
