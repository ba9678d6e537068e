/** What test/loop.ts counts as holding the event loop: the suites that bound a hold rely on it counting both kinds. */
import { expect, test } from "bun:test";
import { watchingLoop } from "./loop.ts";

test("a blocking system call on the main thread holds the loop and is counted, though it spends no CPU", async () => {
  const { longestMs } = await watchingLoop(async () => {
    await Bun.sleep(5);
    Bun.sleepSync(80);
    await Bun.sleep(5);
  });
  expect(longestMs).toBeGreaterThanOrEqual(75);
});

test("the main thread busy on the CPU holds the loop and is counted", async () => {
  const { longestMs, ticks } = await watchingLoop(async () => {
    await Bun.sleep(5);
    const t = performance.now();
    while (performance.now() - t < 80);
    await Bun.sleep(5);
  });
  expect(longestMs).toBeGreaterThanOrEqual(75);
  expect(ticks).toBeGreaterThan(2);
});
