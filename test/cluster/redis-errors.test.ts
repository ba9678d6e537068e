/**
 * A Redis that answers with an error is as unusable as one that is away (issue 27 B): out of
 * memory under noeviction, a read-only replica, loading its data, refusing writes after a failed
 * save, a wrong type at a key. Each against a real redis-server put in that state, under two
 * instances on one PostgreSQL: followers answered from each instance's own memory within 2 s and
 * logged, admin 503 redis_unavailable, health readable and saying why, and all back without a
 * restart once Redis takes commands again. NOSCRIPT (a restarted Redis's empty script cache) is
 * answered by loading the script again.
 */
import { afterAll, afterEach, beforeAll, expect, test } from "bun:test";
import { RedisClient } from "bun";
import { startServer, type RunningServer } from "../../src/server/serve.ts";
import { ADMIN_ENV, body, serveOpts, signedRequest, tempDir } from "../helpers.ts";
import { testDatabase } from "../pg.ts";
import { startRedis, type Redis } from "../redis.ts";
import { textMsg, TOKEN, wxPost } from "../wechat/helpers.ts";
import { CODE } from "../../src/base/errors.ts";

let redis: Redis;
let raw: RedisClient;
let tmp: ReturnType<typeof tempDir>;
const running: RunningServer[] = [];
let db: { url: string; drop(): Promise<void> } | undefined;

beforeAll(async () => {
  // DEBUG RELOAD makes a Redis that is loading its data; CONFIG SET dir a save that fails.
  // Its dump (DEBUG RELOAD saves one first) in a folder removed after, not the machine's /tmp.
  tmp = tempDir("replyd-redis-errors-");
  redis = await startRedis(["--enable-debug-command", "yes", "--enable-protected-configs", "yes", "--dir", tmp.dir]);
  raw = new RedisClient(redis.url, { autoReconnect: true });
  await raw.connect();
});
afterAll(() => {
  raw?.close();
  redis?.stop();
  tmp?.cleanup();
});
afterEach(async () => {
  for (const s of running.splice(0)) await s.stop();
  await db?.drop();
  db = undefined;
  await raw.send("FLUSHALL", []);
});

const cmd = (...args: string[]) => raw.send(args[0] as string, args.slice(1));
const now = () => Date.now();
const send = (s: RunningServer, req: Request) => fetch(s.url + new URL(req.url).pathname + new URL(req.url).search, { method: req.method, headers: req.headers, body: req.body });
const signed = (method: string, path: string, fields: [string, string][] = []) => signedRequest(method, path, { fields, nowMs: now() });
const callback = async (s: RunningServer, xml: string) => {
  const req = wxPost(xml, Math.floor(now() / 1000));
  const started = performance.now();
  const res = await fetch(s.url + new URL(req.url).pathname + new URL(req.url).search, { method: "POST", body: xml, headers: { "content-type": "text/xml" } });
  return { status: res.status, text: await res.text(), ms: performance.now() - started };
};

async function twoInstances(): Promise<[RunningServer, RunningServer]> {
  db = await testDatabase();
  const out: RunningServer[] = [];
  for (let i = 0; i < 2; i++) {
    const s = await startServer(serveOpts(tmp.dir, { db: db.url, redis: redis.url, env: ADMIN_ENV, wechat: { token: TOKEN } }));
    running.push(s);
    out.push(s);
  }
  const res = await send(out[0] as RunningServer, signed("POST", "/api/cli", [["id", "a1"], ["code", "c1"], ["title", "First title"], ["url", "https://example.com/1"]]));
  expect(res.status).toBe(200);
  // The other instance has it too (its change notice, or the poll) before Redis is made to refuse.
  const there = await eventually(() => send(out[1] as RunningServer, signed("GET", "/api/cli", [["id", "a1"]])), (r) => r.status === 200);
  expect(there.status).toBe(200);
  return out as [RunningServer, RunningServer];
}

/** Polls until `check` holds (or fails with its last answer). */
async function eventually<T>(get: () => Promise<T>, check: (v: T) => boolean, ms = 10_000): Promise<T> {
  let v = await get();
  for (const until = Date.now() + ms; !check(v) && Date.now() < until; v = await get()) await Bun.sleep(100);
  return v;
}

const health = async (s: RunningServer) => (await body(await send(s, signed("GET", "/api/cli")))) as { data: { cluster: Record<string, any> } };

interface ErrorClass {
  name: string;
  /** The error reply's first word, as health shows it. */
  word: string;
  on(): Promise<void>;
  off(): Promise<void>;
}

const loadingKeys = 60_000;
const classes: ErrorClass[] = [
  {
    name: "out of memory under noeviction",
    word: "OOM",
    on: async () => void (await cmd("CONFIG", "SET", "maxmemory-policy", "noeviction"), await cmd("CONFIG", "SET", "maxmemory", "1")),
    off: async () => void (await cmd("CONFIG", "SET", "maxmemory", "0")),
  },
  {
    name: "a read-only replica",
    word: "READONLY",
    // A primary that is not there: the replica keeps refusing writes while it tries to reach it.
    on: async () => void (await cmd("REPLICAOF", "127.0.0.1", "1")),
    off: async () => void (await cmd("REPLICAOF", "NO", "ONE")),
  },
  {
    name: "writes refused after a failed save (MISCONF)",
    word: "MISCONF",
    on: async () => {
      await cmd("CONFIG", "SET", "save", "3600 1");
      await cmd("CONFIG", "SET", "dir", "/proc");
      await cmd("BGSAVE");
      const info = () => cmd("INFO", "persistence") as Promise<string>;
      expect(await eventually(info, (i) => i.includes("rdb_bgsave_in_progress:0") && i.includes("rdb_last_bgsave_status:err"))).toContain("rdb_last_bgsave_status:err");
    },
    off: async () => {
      await cmd("CONFIG", "SET", "dir", tmp.dir);
      await cmd("CONFIG", "SET", "save", "");
      await cmd("CONFIG", "SET", "stop-writes-on-bgsave-error", "no");
      await cmd("CONFIG", "SET", "stop-writes-on-bgsave-error", "yes");
    },
  },
  {
    name: "loading its data",
    word: "LOADING",
    on: async () => {
      await cmd("DEBUG", "POPULATE", String(loadingKeys), "filler");
      // A pause after one key in 20, and clients served every 4 KiB loaded: the reload holds Redis
      // in LOADING for seconds, answering commands meanwhile (≈ 4 s here).
      await cmd("CONFIG", "SET", "key-load-delay", "-20");
      await cmd("CONFIG", "SET", "loading-process-events-interval-bytes", "4096");
      const reload = new RedisClient(redis.url);
      void reload.send("DEBUG", ["RELOAD"]).catch(() => {}).finally(() => reload.close());
      const probe = new RedisClient(redis.url, { autoReconnect: false });
      const state = () => probe.send("SET", ["loading-probe", "1"]).then(() => "ok", (e) => String((e as Error).message));
      expect(await eventually(state, (s) => s.startsWith("LOADING"), 5000)).toStartWith("LOADING");
      probe.close();
    },
    off: async () => {
      const state = () => cmd("SET", "loading-probe", "1").then(() => "ok", (e) => String((e as Error).message));
      expect(await eventually(state, (s) => s === "ok", 30_000)).toBe("ok");
      await cmd("CONFIG", "SET", "key-load-delay", "0");
      await cmd("CONFIG", "SET", "loading-process-events-interval-bytes", String(2 << 20));
    },
  },
];

for (const c of classes)
  test(`${c.name}: followers answered alone within 2 s and logged, admin 503, health says why; back without a restart`, async () => {
    const [a, b] = await twoInstances();
    await c.on();
    let sent = 0;
    try {
      // Both instances, the first message each straight after Redis began refusing.
      for (const s of [a, b]) {
        const reply = await callback(s, textMsg("c1", Math.floor(now() / 1000)));
        sent++;
        expect(reply).toMatchObject({ status: 200, text: expect.stringContaining("First title") });
        expect(reply.ms).toBeLessThan(2000);
      }
      for (const s of [a, b]) {
        const write = await send(s, signed("PUT", "/api/cli", [["id", "a1"], ["title", "Not now"]]));
        const refused = (await body(write)).error as { code: string; message: string };
        expect({ status: write.status, code: refused.code }).toEqual({ status: 503, code: CODE.redis_unavailable });
        // Said as it is, once: Redis answers, with an error; not "unreachable (Redis is unreachable (…": …)".
        expect(refused.message).toStartWith("Redis refuses commands (");
        expect(refused.message.match(/admin requests are refused/g)).toHaveLength(1);
        const list = await send(s, signed("GET", "/api/cli", [["id", "a1"]]));
        expect(list.status).toBe(503);
        const h = await health(s);
        expect(h.data.cluster.redis).toMatchObject({ state: "refusing", error: expect.stringContaining(c.word) });
        expect(h.data.cluster.dedupe).toStartWith("this instance only");
      }
    } finally {
      await c.off();
    }
    // Back by itself: writes pass, replay protection is the cluster's again.
    const write = await eventually(
      () => send(b, signed("PUT", "/api/cli", [["id", "a1"], ["title", "Back again"]])),
      (r) => r.status === 200,
    );
    expect(write.status).toBe(200);
    expect((await health(a)).data.cluster.redis.state).toBe("up");
    // Every message answered while Redis refused is in the log.
    const inbox = await eventually(
      async () => (await body(await send(a, signed("GET", "/api/cli", [["inbox", "all"]])))).data,
      (d: any) => (d?.items ?? []).length >= sent,
    );
    expect((inbox as any).items.filter((m: { content: string }) => m.content === "c1")).toHaveLength(sent);
  }, 60_000);

test("a wrong type at a message's key: that message answered alone within 2 s and logged; the cluster's dedupe back by itself", async () => {
  const [a] = await twoInstances();
  const at = Math.floor(now() / 1000);
  const xml = textMsg("c1", at, "880001");
  // The message's answer key holds a list (another program's, or a hand's): every script touching it fails WRONGTYPE.
  const from = /<FromUserName><!\[CDATA\[(.*?)\]\]>/.exec(xml)?.[1];
  await cmd("RPUSH", `replyd:answer:m:${from}:880001`, "not an answer");
  const reply = await callback(a, xml);
  expect(reply).toMatchObject({ status: 200, text: expect.stringContaining("First title") });
  expect(reply.ms).toBeLessThan(2000);
  const h = await health(a);
  expect(h.data.cluster.redis.last_refusal).toMatchObject({ error: expect.stringContaining("WRONGTYPE") });
  // The link probes and takes commands again: the next message is the cluster's again.
  const state = await eventually(async () => (await health(a)).data.cluster.redis.state, (s) => s === "up");
  expect(state).toBe("up");
  const next = await callback(a, textMsg("c1", Math.floor(now() / 1000)));
  expect(next.text).toContain("First title");
  expect((await health(a)).data.cluster.answers.offers).toBeGreaterThanOrEqual(1);
  const inbox = await eventually(
    async () => (await body(await send(a, signed("GET", "/api/cli", [["inbox", "all"]])))).data,
    (d: any) => (d?.items ?? []).length >= 2,
  );
  expect((inbox as any).items.length).toBe(2);
}, 60_000);

test("NOSCRIPT after Redis lost its scripts: loaded again, the message answered through the cluster, Redis never counted away", async () => {
  const [a] = await twoInstances();
  expect((await callback(a, textMsg("c1", Math.floor(now() / 1000)))).text).toContain("First title");
  const before = (await health(a)).data.cluster.answers.offers;
  await cmd("SCRIPT", "FLUSH");
  const reply = await callback(a, textMsg("c1", Math.floor(now() / 1000)));
  expect(reply.text).toContain("First title");
  const h = await health(a);
  expect(h.data.cluster.redis.state).toBe("up");
  expect(h.data.cluster.answered_alone).toBe(0);
  expect(h.data.cluster.answers.offers).toBe(before + 1);
}, 60_000);
