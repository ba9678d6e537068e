/**
 * The pieces the cluster shares through Redis, each on its own against a real redis-server: the
 * retry answers (a claim, a wait, a dead claimant's message taken over), the nonces, the lock-out
 * and its fallback, the link going away and coming back.
 */
import { afterAll, beforeAll, beforeEach, expect, test } from "bun:test";
import { RedisClient } from "bun";
import { FailureLimiter, SharedLimiter } from "../../src/server/limiter.ts";
import { SharedNonces } from "../../src/server/nonces.ts";
import { RedisDown } from "../../src/cluster/redis-down.ts";
import { RedisLink } from "../../src/store/redis/link.ts";
import { SHARED_ANSWER_DEFAULTS, SharedAnswers } from "../../src/wechat/door/shared-retries.ts";
import { fixedClock } from "../../src/base/clock.ts";
import { RedisTokenShare } from "../../src/wechat/platform/shared-token.ts";
import { PlatformClient } from "../../src/wechat/platform/client.ts";
import { startFakePlatform } from "../platform/fake.ts";
import { startRedis, type Redis } from "../redis.ts";
import { CODE } from "../../src/base/errors.ts";

let redis: Redis;
let raw: RedisClient;
const links: RedisLink[] = [];
// The tests' own client. A test that halts Redis leaves it on a dead connection, which it may not
// have noticed yet when the next test starts (its FLUSHALL failed "Connection closed" once in a
// full run, right after a test that halted and resumed Redis within 7 ms): a new one is made then.
async function rawClient(): Promise<RedisClient> {
  const c = new RedisClient(redis.url, { autoReconnect: false, enableOfflineQueue: false });
  await c.connect();
  return c;
}
beforeAll(async () => {
  redis = await startRedis();
  raw = await rawClient();
});
afterAll(() => {
  for (const l of links) l.close();
  raw?.close();
  redis?.stop();
});
beforeEach(async () => {
  try {
    await raw.send("FLUSHALL", []);
  } catch {
    raw.close();
    raw = await rawClient();
    await raw.send("FLUSHALL", []);
  }
});

async function link(): Promise<RedisLink> {
  const l = new RedisLink(redis.url, { timeoutMs: 500 });
  await l.connect();
  links.push(l);
  return l;
}

const opts = { ...SHARED_ANSWER_DEFAULTS, claimMs: 300, pollMs: 10 };

test("the first arrival computes; an arrival at another instance gets that answer without computing", async () => {
  const [a, b] = [new SharedAnswers(await link(), "A", opts), new SharedAnswers(await link(), "B", opts)];
  let computed = 0;
  const compute = () => `answer ${++computed}`;
  expect(await a.answer("m:o:1", "100", "n1", Date.now() + 4000, compute)).toBe("answer 1");
  await Bun.sleep(20); // the answer is written after it is returned
  expect(await b.answer("m:o:1", "100", "n1", Date.now() + 4000, compute)).toBe("answer 1");
  expect(computed).toBe(1);
  expect(b.counts).toMatchObject({ computed: 0, shared: 1 });
});

test("an arrival while another instance computes waits for its answer", async () => {
  const [a, b] = [new SharedAnswers(await link(), "A", opts), new SharedAnswers(await link(), "B", opts)];
  let release: (s: string) => void = () => {};
  const slow = new Promise<string>((r) => (release = r));
  const first = a.answer("m:o:2", "100", "n2", Date.now() + 4000, () => slow);
  await Bun.sleep(30);
  const second = b.answer("m:o:2", "100", "n2", Date.now() + 4000, () => "computed twice");
  await Bun.sleep(100);
  release("the slow answer");
  expect(await Promise.all([first, second])).toEqual(["the slow answer", "the slow answer"]);
  expect(b.counts).toMatchObject({ waited: 1, shared: 1, computed: 0 });
});

test("a claim renewed while its answer is computed outlives claimMs; the waiter does not take it over", async () => {
  const [a, b] = [new SharedAnswers(await link(), "A", opts), new SharedAnswers(await link(), "B", opts)];
  const first = a.answer("m:o:3", "100", "n3", Date.now() + 4000, async () => {
    await Bun.sleep(opts.claimMs * 3);
    return "computed slowly";
  });
  await Bun.sleep(30);
  let computedAtB = false;
  const second = b.answer("m:o:3", "100", "n3", Date.now() + 4000, () => ((computedAtB = true), "computed at B"));
  expect(await Promise.all([first, second])).toEqual(["computed slowly", "computed slowly"]);
  expect(computedAtB).toBe(false);
});

test("a claim whose instance died lapses: the waiting arrival computes the message itself", async () => {
  const b = new SharedAnswers(await link(), "B", opts);
  // As a killed instance leaves it: claimed, never renewed, no answer.
  await raw.send("SET", ["replyd:answer:m:o:4", "Pdead", "PX", String(opts.claimMs)]);
  const started = performance.now();
  expect(await b.answer("m:o:4", "100", "n4", Date.now() + 4000, () => "taken over")).toBe("taken over");
  expect(performance.now() - started).toBeGreaterThanOrEqual(opts.claimMs - 50);
  expect(b.counts).toMatchObject({ takenOver: 1 });
});

test("a claimant slower than the waiter's deadline: the waiter answers success, not a second computation", async () => {
  const b = new SharedAnswers(await link(), "B", opts);
  await raw.send("SET", ["replyd:answer:m:o:5", "Pslow", "PX", "5000"]);
  expect(await b.answer("m:o:5", "100", "n5", Date.now() + 200, () => "computed twice")).toBe("success");
});

test("a signature bound to one message refuses another at any instance; its own message passes", async () => {
  const [a, b] = [new SharedAnswers(await link(), "A", opts), new SharedAnswers(await link(), "B", opts)];
  await a.answer("m:o:6", "100", "sig6", Date.now() + 4000, () => "six");
  await expect(b.answer("m:o:7", "100", "sig6", Date.now() + 4000, () => "seven")).rejects.toMatchObject({ code: CODE.signature_reused, status: 401 });
  await Bun.sleep(20);
  expect(await b.answer("m:o:6", "100", "sig6", Date.now() + 4000, () => "six again")).toBe("six");
});

test("nonces: one SET NX each, forgotten when the window has passed", async () => {
  const [a, b] = [new SharedNonces(await link()), new SharedNonces(await link())];
  const now = Date.now();
  expect(await a.remember("nonce-0123456789abcdef", now + 150, now)).toBe(true);
  expect(await b.remember("nonce-0123456789abcdef", now + 150, now)).toBe(false);
  await Bun.sleep(200);
  expect(await b.remember("nonce-0123456789abcdef", Date.now() + 150, Date.now())).toBe(true);
});

test("the lock-out: failures counted in Redis lock the address everywhere; with Redis away, counted locally", async () => {
  const o = { maxFailures: 3, periodMs: 60_000, lockMs: 60_000, maxEntries: 100 };
  const [la, lb] = [await link(), await link()];
  const [a, b] = [new SharedLimiter(la, new FailureLimiter(o)), new SharedLimiter(lb, new FailureLimiter(o))];
  const now = Date.now();
  expect([await a.failed("10.0.0.1", now), await b.failed("10.0.0.1", now), await a.failed("10.0.0.1", now)]).toEqual([0, 0, 0]);
  expect(await b.failed("10.0.0.1", now)).toBeGreaterThan(0);
  // Another address is not locked.
  expect(await b.failed("10.0.0.2", now)).toBe(0);
  redis.halt();
  try {
    // Redis away: the local count (three failures at this instance) still locks.
    const c = new SharedLimiter(la, new FailureLimiter(o));
    const got = [await c.failed("10.0.0.3", now), await c.failed("10.0.0.3", now), await c.failed("10.0.0.3", now), await c.failed("10.0.0.3", now)];
    expect(got.slice(0, 3)).toEqual([0, 0, 0]);
    expect(got[3]).toBeGreaterThan(0);
  } finally {
    await redis.resume();
  }
});

test("the link: RedisDown at once while Redis is away (never queued), up again by itself when it is back", async () => {
  const logs: string[] = [];
  const l = new RedisLink(redis.url, { timeoutMs: 500, log: (m) => logs.push(m) });
  await l.connect();
  links.push(l);
  expect(await l.send("PING", [])).toBe("PONG");
  redis.halt();
  await Bun.sleep(100);
  const t = performance.now();
  await expect(l.send("PING", [])).rejects.toBeInstanceOf(RedisDown);
  expect(performance.now() - t).toBeLessThan(400);
  expect(l.up).toBe(false);
  await redis.resume();
  for (let i = 0; i < 60 && !l.up; i++) await Bun.sleep(100);
  expect(l.up).toBe(true);
  expect(await l.send("PING", [])).toBe("PONG");
  expect(logs.some((m) => m.includes("unreachable"))).toBe(true);
  expect(logs.some((m) => m.includes("answers again"))).toBe(true);
});

test("the link: an error reply (OOM) counts as down, commands refused at once without reaching Redis, up again once a probe write passes", async () => {
  const logs: string[] = [];
  const l = new RedisLink(redis.url, { timeoutMs: 500, probeMs: 50, log: (m) => logs.push(m) });
  await l.connect();
  links.push(l);
  await raw.send("CONFIG", ["SET", "maxmemory", "1"]);
  try {
    await expect(l.send("SET", ["k", "v"])).rejects.toMatchObject({ code: CODE.redis_unavailable, message: expect.stringContaining("refuses commands (OOM") });
    expect({ up: l.up, refusing: l.refusing }).toEqual({ up: false, refusing: true });
    // A read Redis would answer is refused too: the link is down as a whole, not per command.
    const calls = Number(/total_commands_processed:(\d+)/.exec(String(await raw.send("INFO", ["stats"])))?.[1]);
    await expect(l.send("GET", ["k"])).rejects.toBeInstanceOf(RedisDown);
    const after = Number(/total_commands_processed:(\d+)/.exec(String(await raw.send("INFO", ["stats"])))?.[1]);
    // Only the INFO itself and the link's probes (one per 50 ms) reached Redis in between.
    expect(after - calls).toBeLessThanOrEqual(3);
    await Bun.sleep(200);
    expect(l.up).toBe(false);
  } finally {
    await raw.send("CONFIG", ["SET", "maxmemory", "0"]);
  }
  for (let i = 0; i < 40 && !l.up; i++) await Bun.sleep(25);
  expect(l.up).toBe(true);
  expect(await l.send("GET", ["k"])).toBeNull();
  expect(l.lastRefusal?.error).toStartWith("OOM");
  expect(logs.some((m) => m.includes("refuses commands"))).toBe(true);
  expect(logs.some((m) => m.includes("answers again"))).toBe(true);
});

test("offers: the first answer offered is kept (and only its keep() logs); another instance's offer gets it", async () => {
  const [a, b] = [new SharedAnswers(await link(), "A", opts), new SharedAnswers(await link(), "B", opts)];
  const kept: string[] = [];
  const first = await a.offer("m:o:20", "100", "n20", Date.now() + 4000, "from A", () => (kept.push("A"), "from A"));
  const second = await b.offer("m:o:20", "100", "n20", Date.now() + 4000, "from B", () => (kept.push("B"), "from B"));
  expect([first, second, kept]).toEqual(["from A", "from A", ["A"]]);
  await expect(b.offer("m:o:21", "100", "n20", Date.now() + 4000, "other", () => "other")).rejects.toMatchObject({ code: CODE.signature_reused });
});

test("offers made in one turn of the event loop go to Redis as one script call", async () => {
  const l = await link();
  let calls = 0;
  const evalOf = l.eval.bind(l);
  l.eval = ((...a: Parameters<typeof l.eval>) => (calls++, evalOf(...a))) as typeof l.eval;
  const s = new SharedAnswers(l, "A", opts);
  const outs = await Promise.all(Array.from({ length: 50 }, (_, i) => s.offer(`m:o:b${i}`, "100", `nb${i}`, Date.now() + 4000, `answer ${i}`, () => `answer ${i}`)));
  expect(outs).toEqual(Array.from({ length: 50 }, (_, i) => `answer ${i}`));
  expect(calls).toBe(1);
});

test("an offer that finds the message claimed (a regex rule running elsewhere) waits for that answer", async () => {
  const [a, b] = [new SharedAnswers(await link(), "A", opts), new SharedAnswers(await link(), "B", opts)];
  let release: (s: string) => void = () => {};
  const first = a.answer("m:o:22", "100", "n22", Date.now() + 4000, () => new Promise<string>((r) => (release = r)));
  await Bun.sleep(30);
  let keptAtB = false;
  const second = b.offer("m:o:22", "100", "n22", Date.now() + 4000, "from B", () => ((keptAtB = true), "from B"));
  await Bun.sleep(50);
  release("the regex answer");
  expect(await Promise.all([first, second])).toEqual(["the regex answer", "the regex answer"]);
  expect(keptAtB).toBe(false);
});

test("the shared token's life does not depend on the instances' wall clocks: one 3 h ahead hands another no token past its end", async () => {
  const appid = "wx0123456789abcdef";
  const secret = "0123456789abcdef0123456789abcdef";
  const fake = startFakePlatform(appid, secret);
  const t0 = Date.now();
  const keeperAt = async (clock: ReturnType<typeof fixedClock>, name: string) =>
    new PlatformClient({ api: fake.url, appid, secret, clock, log: () => {}, shared: new RedisTokenShare(await link(), name, appid) });
  const ahead = await keeperAt(fixedClock(t0 + 3 * 3600_000), "ahead");
  const right = await keeperAt(fixedClock(t0), "right");
  try {
    const first = await ahead.token();
    expect(first.expiresInS).toBeLessThanOrEqual(7200);
    const taken = await right.token();
    expect(taken.token).toBe(first.token);
    expect(fake.calls.normal).toBe(1);
    expect(taken.expiresInS).toBeLessThanOrEqual(7200);
    expect(taken.expiresInS).toBeGreaterThan(7100);
    // And the other way round: a keeper behind takes no more than the token has left either.
    const behind = await keeperAt(fixedClock(t0 - 3 * 3600_000), "behind");
    expect((await behind.token()).expiresInS).toBeLessThanOrEqual(7200);
    behind.stop();
  } finally {
    ahead.stop();
    right.stop();
    fake.stop();
  }
});
