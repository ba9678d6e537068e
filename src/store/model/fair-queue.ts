/**
 * The follower searches waiting for the search worker, served fairly between followers: the next
 * to run is the oldest request of the follower served least recently, so a follower who sends many
 * costly questions at once has one of them run, then everyone else who waits has one, and so on.
 * Each follower has at most `perAsker` requests waiting or running, and all of them together at
 * most `max`; past either a request is refused at once (the follower then gets the fallback text).
 */
export interface Queued {
  /** Who asks: a follower's OpenID (a request's lane); "" for requests of no follower. */
  from: string;
}

export class FairQueue<T extends Queued> {
  private readonly waiting: T[] = [];
  /** Each asker with a request waiting or running: how many, and the turn it was last served at (0: not yet). */
  private readonly askers = new Map<string, { open: number; served: number }>();
  private turn = 0;
  private openTotal = 0;

  constructor(
    private readonly perAsker: number,
    private readonly max: number,
  ) {}

  /** Queues `item`; false (and nothing queued) when its asker has perAsker open, or max are open in all. */
  add(item: T): boolean {
    const asker = this.askers.get(item.from) ?? { open: 0, served: 0 };
    if (asker.open >= this.perAsker || this.openTotal >= this.max) return false;
    asker.open++;
    this.openTotal++;
    this.askers.set(item.from, asker);
    this.waiting.push(item);
    return true;
  }

  /** Takes the next request to run: the oldest one of the asker served least recently. Still open until done(). */
  next(): T | undefined {
    let at = -1;
    let served = Infinity;
    // The waiting list is in arrival order and holds at most `max`: the first of the least recently served wins.
    for (let i = 0; i < this.waiting.length; i++) {
      const s = (this.askers.get((this.waiting[i] as T).from) as { served: number }).served;
      if (s < served) {
        served = s;
        at = i;
      }
    }
    if (at < 0) return undefined;
    const [item] = this.waiting.splice(at, 1) as [T];
    (this.askers.get(item.from) as { served: number }).served = ++this.turn;
    return item;
  }

  /** Takes a waiting request out without running it (its deadline passed); false when it is not waiting. */
  drop(item: T): boolean {
    const i = this.waiting.indexOf(item);
    if (i < 0) return false;
    this.waiting.splice(i, 1);
    this.done(item);
    return true;
  }

  /** A request taken by next() has ended: its asker may send another. */
  done(item: T): void {
    const asker = this.askers.get(item.from);
    if (!asker) return;
    this.openTotal--;
    if (--asker.open === 0) this.askers.delete(item.from);
  }

  /** Every waiting request, taken out (the searcher closes). */
  drain(): T[] {
    const out = this.waiting.splice(0);
    for (const item of out) this.done(item);
    return out;
  }

  /** Requests waiting or running. */
  get open(): number {
    return this.openTotal;
  }
}
