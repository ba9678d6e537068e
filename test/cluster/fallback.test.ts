/**
 * The one "Redis away → this instance alone" decision (src/cluster/fallback.ts), on its own against
 * a real redis-server: halted (a closed socket), and answering with errors (OOM under noeviction, a
 * wrong type); a local answer while away, Redis's once it is back, REFUSE passing the refusal on,
 * other errors thrown as they are, and one log line per outage however many calls fell back.
 */
import { afterAll, beforeAll, beforeEach, expect, test } from "bun:test";
import { RedisClient } from "bun";
import { inBackground, REFUSE, viaRedis } from "../../src/cluster/fallback.ts";
import { RedisDown } from "../../src/cluster/redis-down.ts";
import { RedisLink } from "../../src/store/redis/link.ts";
import { startRedis, type Redis } from "../redis.ts";

let redis: Redis;
let raw: RedisClient;
const links: RedisLink[] = [];

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

/** `logs`: what this link says (the links of earlier tests are still open and say it too). */
async function link(logs: string[] = [], timeoutMs = 500): Promise<RedisLink> {
  const l = new RedisLink(redis.url, { timeoutMs, probeMs: 50, log: (m) => logs.push(m) });
  await l.connect();
  links.push(l);
  return l;
}

async function waitUp(l: RedisLink): Promise<void> {
  for (let i = 0; i < 200 && !l.up; i++) await Bun.sleep(25);
  expect(l.up).toBe(true);
}

/** A GET through the helper: Redis's value, or "local" when it answered alone. */
const get = (l: RedisLink, key: string) => viaRedis(async () => String(await l.send<string | null>("GET", [key])), { local: () => "local" });

test("Redis halted: the local answer, at once; back: Redis's again, without a restart", async () => {
  const l = await link([], 3000);
  await raw.send("SET", ["k", "from redis"]);
  expect(await get(l, "k")).toBe("from redis");
  redis.halt();
  try {
    for (let i = 0; i < 200 && l.up; i++) await Bun.sleep(10);
    const t = performance.now();
    expect(await get(l, "k")).toBe("local");
    // Not waited for: the link refuses at once, never after its 3 s time-out.
    expect(performance.now() - t).toBeLessThan(1500);
  } finally {
    await redis.resume();
  }
  await waitUp(l);
  await raw.send("SET", ["k", "from redis again"]).catch(async () => {
    raw.close();
    raw = await rawClient();
    await raw.send("SET", ["k", "from redis again"]);
  });
  expect(await get(l, "k")).toBe("from redis again");
});

test("Redis answering with errors (OOM, then a wrong type): the local answer; Redis's once a probe write passes", async () => {
  const l = await link();
  await raw.send("CONFIG", ["SET", "maxmemory", "1"]);
  try {
    expect(await viaRedis(async () => String(await l.send("SET", ["k", "v"])), { local: () => "local" })).toBe("local");
    expect(l.refusing).toBe(true);
  } finally {
    await raw.send("CONFIG", ["SET", "maxmemory", "0"]);
  }
  await waitUp(l);
  expect(await viaRedis(async () => String(await l.send("SET", ["k", "v"])), { local: () => "local" })).toBe("OK");
  // A list where a string is read: WRONGTYPE is Redis refusing too.
  await raw.send("RPUSH", ["list", "x"]);
  expect(await get(l, "list")).toBe("local");
  await raw.send("DEL", ["list"]);
  await waitUp(l);
  expect(await get(l, "k")).toBe("v");
});

test("REFUSE: RedisDown reaches the caller; nothing local is consulted; a failed reconnection says its reason once", async () => {
  const l = await link();
  redis.halt();
  try {
    await Bun.sleep(100);
    await expect(viaRedis(() => l.send("GET", ["k"]), REFUSE)).rejects.toBeInstanceOf(RedisDown);
    // A command timed out, then a reconnection attempt timed out (2 s): what the caller reads names Redis once.
    await l.send("GET", ["k"]).catch(() => {});
    await Bun.sleep(3000);
    const down = await l.send("GET", ["k"]).then(() => null, (e: Error) => e.message);
    expect(down?.match(/Redis is unreachable/g)?.length).toBe(1);
    expect(down?.match(/admin requests are refused/g)?.length).toBe(1);
  } finally {
    await redis.resume();
  }
  await waitUp(l);
  expect(await viaRedis(() => l.send("PING", []), REFUSE)).toBe("PONG");
});

test("a failure that is not Redis away is thrown as it is, not answered locally", async () => {
  const l = await link();
  let local = 0;
  const alone = { local: () => ((local += 1), "local") };
  await expect(viaRedis(() => Promise.reject(new TypeError("a bug")), alone)).rejects.toBeInstanceOf(TypeError);
  // NOSCRIPT is the script cache emptied, not Redis away: the link's eval loads the script again.
  await expect(viaRedis(() => l.send("EVALSHA", ["0".repeat(40), "0"]), alone)).rejects.toMatchObject({ message: expect.stringContaining("NOSCRIPT") });
  expect(local).toBe(0);
  expect(l.up).toBe(true);
});

test("one log line when Redis goes away and one when it is back, however many calls fell back; again for the next outage", async () => {
  const logs: string[] = [];
  const l = await link(logs);
  for (let outage = 1; outage <= 2; outage++) {
    redis.halt();
    try {
      await Bun.sleep(100);
      const got = await Promise.all(Array.from({ length: 50 }, () => get(l, "k")));
      expect(new Set(got)).toEqual(new Set(["local"]));
      // Across the link's reconnection attempts (200 ms, then 400 ms apart), each failing.
      for (let i = 0; i < 20; i++) {
        expect(await get(l, "k")).toBe("local");
        await Bun.sleep(40);
      }
    } finally {
      await redis.resume();
    }
    await waitUp(l);
    expect(await get(l, "k")).toBe("null");
    expect(logs.filter((m) => m.includes("unreachable")).length).toBe(outage);
    expect(logs.filter((m) => m.includes("answers again")).length).toBe(outage);
    expect(logs.length).toBe(2 * outage);
  }
});

test("inBackground: a call that fails, Redis away or otherwise, is dropped without an unhandled rejection", async () => {
  const unhandled: unknown[] = [];
  const note = (e: unknown) => unhandled.push(e);
  process.on("unhandledRejection", note);
  try {
    inBackground(() => Promise.reject(new RedisDown("away")));
    inBackground(() => Promise.reject(new Error("anything else")));
    await Bun.sleep(20);
    expect(unhandled).toEqual([]);
  } finally {
    process.off("unhandledRejection", note);
  }
});

test("a Redis that stops answering (SIGSTOP): the timeout is the link's last error as such, and the next refusal says it once", async () => {
  const l = await link([], 300);
  const pid = redis.pid as number;
  process.kill(pid, "SIGSTOP");
  try {
    const first = await l.send("GET", ["x"]).catch((e) => e as RedisDown);
    expect(first).toBeInstanceOf(RedisDown);
    expect(l.lastError).toBe("no answer within 300 ms");
    const next = await l.send("GET", ["x"]).catch((e) => e as RedisDown);
    expect(next).toBeInstanceOf(RedisDown);
    expect((next as RedisDown).message.match(/no answer within/g)).toHaveLength(1);
    expect((next as RedisDown).message.match(/admin requests are refused/g)).toHaveLength(1);
  } finally {
    process.kill(pid, "SIGCONT");
  }
});
