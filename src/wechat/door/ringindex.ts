/**
 * A hash index over a ring of entries, all in typed arrays (nothing the garbage collector has to
 * scan): entries are added at the tail and leave from the head, oldest first, in O(1). Lookups probe
 * linearly from the hash's home slot; the table is at most half full, and a removal shifts later
 * members of its probe run back so that lookups never stop early.
 *
 * The owner keeps its entries' data in arrays of its own, indexed by the entry number this returns.
 */

const EMPTY = 0;

export class RingIndex {
  readonly hashes: Uint32Array;
  /** The oldest entry's number; entries are head, head+1, … (mod capacity). */
  head = 0;
  count = 0;
  /** Slots hold entry number + 1 (0 = empty). */
  private readonly slots: Int32Array;
  private readonly mask: number;

  constructor(readonly capacity: number) {
    this.hashes = new Uint32Array(capacity);
    let slots = 1;
    while (slots < capacity * 2) slots *= 2;
    this.slots = new Int32Array(slots);
    this.mask = slots - 1;
  }

  /** The entry with this hash that `same` accepts, or -1; `same` is asked only on a hash match. */
  find(hash: number, same: (entry: number) => boolean): number {
    for (let i = hash & this.mask; ; i = (i + 1) & this.mask) {
      const slot = this.slots[i] as number;
      if (slot === EMPTY) return -1;
      if (this.hashes[slot - 1] === hash && same(slot - 1)) return slot - 1;
    }
  }

  /** Adds an entry at the tail, dropping the oldest when full; answers its number. */
  add(hash: number): number {
    if (this.count === this.capacity) this.dropOldest();
    const e = (this.head + this.count) % this.capacity;
    this.hashes[e] = hash;
    this.count++;
    let i = hash & this.mask;
    while (this.slots[i] !== EMPTY) i = (i + 1) & this.mask;
    this.slots[i] = e + 1;
    return e;
  }

  dropOldest(): void {
    const e = this.head;
    let hole = (this.hashes[e] as number) & this.mask;
    while (this.slots[hole] !== e + 1) hole = (hole + 1) & this.mask;
    for (let k = (hole + 1) & this.mask; this.slots[k] !== EMPTY; k = (k + 1) & this.mask) {
      const home = (this.hashes[(this.slots[k] as number) - 1] as number) & this.mask;
      const stays = hole <= k ? hole < home && home <= k : hole < home || home <= k;
      if (stays) continue;
      this.slots[hole] = this.slots[k] as number;
      hole = k;
    }
    this.slots[hole] = EMPTY;
    this.head = (this.head + 1) % this.capacity;
    this.count--;
  }
}
