import { expect, test } from "bun:test";
import { RetryCache } from "../../src/wechat/retries.ts";

test("a key computes once within the TTL and again after it", async () => {
  const cache = new RetryCache(1000);
  let n = 0;
  const compute = async () => `answer ${++n}`;
  expect(await cache.get("k", 0, compute).answer).toBe("answer 1");
  expect(cache.get("k", 999, compute).first).toBe(false);
  expect(await cache.get("k", 1000, compute).answer).toBe("answer 2");
});

test("expired entries leave from the front; the cache stays within its entry and byte bounds", async () => {
  const cache = new RetryCache(1000, 100, 1 << 20);
  for (let i = 0; i < 1000; i++) await cache.get(`k${i}`, i, async () => "x".repeat(100)).answer;
  expect(cache.size).toBeLessThanOrEqual(100);
  const small = new RetryCache(60_000, 1_000_000, 10_000);
  for (let i = 0; i < 1000; i++) await small.get(`k${i}`, 0, async () => "y".repeat(1000)).answer;
  expect(small.size).toBeLessThan(10); // each entry is counted at ~1 KB
  expect(small.size).toBeGreaterThan(0);
  cache.get("late", 5000, async () => "z");
  expect(cache.size).toBe(1); // everything older than the TTL is gone
});
