/**
 * Long work on the event loop, done a slice at a time: work that can stop asks `spent` as it goes
 * and, when it is, awaits pause(), which lets everything waiting (followers' callbacks, health)
 * run before it goes on. A slice lasts SLICE_MS, plus the step the work was in when it asked.
 */

/** How long a slice runs before the event loop is given back: a fifth of the 50 ms budget. */
export const SLICE_MS = 10;

export class Slices {
  private start: number;

  constructor(
    private readonly budgetMs = SLICE_MS,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.start = now();
  }

  /** The slice has run its time: the work should pause. */
  get spent(): boolean {
    return this.now() - this.start >= this.budgetMs;
  }

  /** When the slice is spent, gives the event loop back (to I/O and timers waiting), then starts a new slice. */
  async pause(): Promise<void> {
    if (!this.spent) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.start = this.now();
  }
}
