/**
 * How long the event loop is held while `work` runs: a 1 ms timer runs whenever the loop is free,
 * and the longest gap between its runs (or from the last run to the end) is the longest it was held.
 * A gap is counted without the time the thread spent waiting for a CPU (Linux's
 * /proc/thread-self/schedstat: time runnable but not running): on a shared machine the scheduler
 * pauses the process too, and a 58 ms gap of which 45 were spent in the run queue says nothing of
 * the code. Time the thread runs, or blocks in a system call (a synchronous write, fsync), counts:
 * both hold the loop. Where the file cannot be read the clock's gap is all there is.
 */
import { readFileSync } from "node:fs";
import { Slices } from "../src/base/slices.ts";

const SCHEDSTAT = "/proc/thread-self/schedstat";

/** Milliseconds this thread has waited in the run queue, or 0 where the kernel does not say. */
function queuedMs(): number {
  try {
    return Number(readFileSync(SCHEDSTAT, "utf8").split(" ")[1]) / 1e6 || 0;
  } catch {
    return 0;
  }
}

export async function watchingLoop<T>(work: () => Promise<T>): Promise<{ value: T; longestMs: number; longestWallMs: number; ticks: number }> {
  let ticks = 0;
  let longestMs = 0;
  let longestWallMs = 0;
  let last = performance.now();
  let lastQueued = queuedMs();
  const gap = () => {
    const now = performance.now();
    const queued = queuedMs();
    longestWallMs = Math.max(longestWallMs, now - last);
    longestMs = Math.max(longestMs, now - last - (queued - lastQueued));
    last = now;
    lastQueued = queued;
  };
  const timer = setInterval(() => {
    gap();
    ticks++;
  }, 1);
  try {
    const value = await work();
    gap();
    return { value, longestMs, longestWallMs, ticks };
  } finally {
    clearInterval(timer);
  }
}

/**
 * Slices whose clock is the count of its reads: spent after `asksPerSlice` asks whatever the machine's
 * speed, so a test can count how often work asks whether to pause, and that it pauses when told.
 */
export class CountedSlices extends Slices {
  private readonly counter: { reads: number };
  pauses = 0;

  constructor(asksPerSlice: number) {
    const counter = { reads: 0 };
    super(asksPerSlice, () => counter.reads++);
    this.counter = counter;
  }

  /** How many times the clock was read: the work's asks, and a pause's own two. */
  get asks(): number {
    return this.counter.reads;
  }

  override async pause(): Promise<void> {
    if (this.spent) this.pauses++;
    await super.pause();
  }
}
