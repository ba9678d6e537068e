/**
 * What test/loop.ts counts as holding the event loop: the suites that bound a hold rely on it counting both kinds.
 * Each hold lasts 80 ms; at least half of it must be counted (a measure that missed it would count a
 * millisecond or two), the rest left for the scheduler taking the CPU away during it, which is not counted.
 */
import { expect, test } from "bun:test";
import { watchingLoop } from "./loop.ts";

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
  const { longestMs, ticks } = await watchingLoop(async () => {
    await Bun.sleep(20);
    const t = performance.now();
    while (performance.now() - t < 80);
    await Bun.sleep(20);
  });
  expect(longestMs).toBeGreaterThanOrEqual(40);
  expect(ticks).toBeGreaterThan(2);
});
