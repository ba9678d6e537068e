/**
 * What test/loop.ts counts as holding the event loop: the suites that bound a hold rely on it counting both kinds.
 * Each hold lasts 80 ms; at least half of it must be counted (a measure that missed it would count a
 * millisecond or two), the rest left for the scheduler taking the CPU away during it, which is not counted.
 */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { watchingLoop } from "./loop.ts";

/** This thread's time on a CPU (Linux's schedstat), in ms; where the kernel does not say, the clock's. */
const runningMs = (): number => {
  try {
    return Number(readFileSync("/proc/thread-self/schedstat", "utf8").split(" ")[0]) / 1e6;
  } catch {
    return performance.now();
  }
};
/** Busy on the CPU until this thread has run `ms`. */
function spinCpuMs(ms: number): void {
  const start = runningMs();
  while (runningMs() - start < ms);
}

test("a blocking system call on the main thread holds the loop and is counted, though it spends no CPU", async () => {
  const { longestMs } = await watchingLoop(async () => {
    await Bun.sleep(5);
    Bun.sleepSync(80);
    await Bun.sleep(5);
  });
  expect(longestMs).toBeGreaterThanOrEqual(40);
});

test("the main thread busy on the CPU holds the loop and is counted", async () => {
  // 20 ms free on each side of the hold, for the 1 ms watcher to tick on a loaded machine too (with 5,
  // a fresh clone's run counted 2 ticks, once).
  // 80 ms of this thread's own CPU, not of the clock: on a machine busy with other work the scheduler
  // took most of an 80 ms wall-clock spin away, which the watcher rightly does not count (a fresh
  // clone's run counted 25 ms, once).
  const { longestMs, ticks } = await watchingLoop(async () => {
    await Bun.sleep(20);
    spinCpuMs(80);
    await Bun.sleep(20);
  });
  expect(longestMs).toBeGreaterThanOrEqual(40);
  expect(ticks).toBeGreaterThan(2);
});
