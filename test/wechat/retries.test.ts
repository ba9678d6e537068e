import { expect, test } from "bun:test";
import { RetryCache } from "../../src/wechat/door/retries.ts";

test("a key computes once within the TTL and again after it", async () => {
  const cache = new RetryCache(1000);
  let n = 0;
  const compute = () => `answer ${++n}`;
  expect(cache.get("k", 0, compute)).toBe("answer 1");
  expect(cache.get("k", 999, compute)).toBe("answer 1");
  expect(n).toBe(1);
  expect(cache.get("k", 1000, compute)).toBe("answer 2");
});

test("a retry during the first computation gets the same promise, then the settled string", async () => {
  const cache = new RetryCache(1000);
  let release!: (s: string) => void;
  const first = cache.get("k", 0, () => new Promise<string>((r) => (release = r)));
  const retry = cache.get("k", 1, () => "second computation");
  expect(retry).toBe(first);
  release("the answer");
  expect(await first).toBe("the answer");
  expect(cache.get("k", 2, () => "third computation")).toBe("the answer");
});

test("a rejected computation is rejected for arrivals meanwhile, then forgotten; nothing unhandled", async () => {
  const cache = new RetryCache(1000);
  const failed = cache.get("k", 0, () => Promise.reject(new Error("boom")));
  expect(cache.get("k", 1, () => "other")).toBe(failed);
  await expect(failed).rejects.toThrow("boom");
  expect(cache.get("k", 2, () => "computed again")).toBe("computed again");
});

test("answers come back byte for byte: non-ASCII keys and answers, keys that collide in part", () => {
  const cache = new RetryCache(1000, 1000, 1 << 16);
  const answers = new Map<string, string>();
  for (let i = 0; i < 500; i++) {
    const key = i % 2 ? `e:o_你好_${i}:1763719200:CLICK:菜单${i}` : `m:${1e15 + i}`;
    const answer = `<xml><Content><![CDATA[第${i}条 — ${"é".repeat(i % 7)} 🎉]]></Content></xml>`;
    answers.set(key, answer);
    expect(cache.get(key, 0, () => answer)).toBe(answer);
  }
  expect(cache.get("m:1000000000000498", 1, () => "x")).toBe(answers.get("m:1000000000000498") as string);
  // 64 KiB holds only the newest entries; those that are held are exact, the rest compute again.
  let held = 0;
  for (const [key, answer] of answers) {
    const got = cache.get(key, 1, () => "recomputed");
    if (got === "recomputed") continue;
    held++;
    expect(got).toBe(answer);
  }
  expect(held).toBeGreaterThan(50);
});

test("the table agrees with a plain map under random arrivals, expiries and evictions", () => {
  // A model: what a Map with the same FIFO bounds would remember.
  let seed = 7;
  const random = () => ((seed = Math.imul(seed, 1103515245) + 12345), (seed >>> 8) / 2 ** 24);
  const cache = new RetryCache(200, 64, 1 << 20);
  const model = new Map<string, { answer: string; expires: number }>();
  const order: string[] = [];
  for (let now = 0; now < 5000; now++) {
    const key = `k${Math.floor(random() * 300)}`;
    for (;;) {
      const oldest = order[0];
      if (oldest === undefined || (model.get(oldest)?.expires ?? 0) > now) break;
      order.shift();
      model.delete(oldest);
    }
    const expected = model.get(key)?.answer ?? `a${now}`;
    if (!model.has(key)) {
      if (order.length === 64) model.delete(order.shift() as string);
      model.set(key, { answer: expected, expires: now + 200 });
      order.push(key);
    }
    expect(cache.get(key, now, () => `a${now}`)).toBe(expected);
    expect(cache.size).toBe(model.size);
  }
});

test("expired entries leave from the front; the cache stays within its entry and byte bounds", async () => {
  const cache = new RetryCache(1000, 100, 1 << 20);
  let computed = 0;
  for (let i = 0; i < 1000; i++) cache.get(`k${i}`, i, () => (computed++, "x".repeat(100)));
  expect(computed).toBe(1000);
  expect(cache.size).toBe(100);
  // The newest 100 are remembered, the older ones computed again.
  expect(cache.get("k999", 999, () => "again")).toBe("x".repeat(100));
  expect(cache.get("k899", 999, () => "again")).toBe("again");
  const small = new RetryCache(60_000, 1_000_000, 10_000);
  for (let i = 0; i < 1000; i++) small.get(`k${i}`, 0, () => "y".repeat(1000));
  expect(small.size).toBeLessThan(10); // each entry is counted at ~1 KB
  expect(small.size).toBeGreaterThan(0);
  cache.get("late", 5000, () => "z");
  expect(cache.size).toBe(1); // everything older than the TTL is gone
});

test("the ring wraps around many times and keeps exactly the live window", () => {
  const cache = new RetryCache(50, 64);
  for (let i = 0; i < 10_000; i++) {
    cache.get(`k${i}`, i, () => `a${i}`);
    expect(cache.size).toBe(Math.min(i + 1, 50));
  }
  expect(cache.get("k9999", 10_000, () => "new")).toBe("a9999");
  expect(cache.get("k9950", 10_000, () => "new")).toBe("new"); // expired at 10_000
});

test("answers are exact across chunk boundaries and wrap-arounds of a multi-chunk ring", () => {
  const cache = new RetryCache(60_000, 100_000, 3 * (1 << 20) + 100); // 4 chunks of 1 MiB
  const answerOf = (i: number) => `<xml>${String(i).repeat(600 + ((i * 7919) % 1500))}</xml>`;
  for (let i = 0; i < 3000; i++) expect(cache.get(`m:${i}`, 0, () => answerOf(i))).toBe(answerOf(i));
  let held = 0;
  for (let i = 2999; i >= 0; i--) {
    const got = cache.get(`m:${i}`, 0, () => "recomputed");
    if (got === "recomputed") break; // the newest run of entries is held; older ones were evicted
    expect(got).toBe(answerOf(i));
    held++;
  }
  // Each answer reserves 3 bytes per character: 4 MiB holds a few hundred of these.
  expect(held).toBeGreaterThan(150);
  expect(held).toBeLessThan(3000);
});
