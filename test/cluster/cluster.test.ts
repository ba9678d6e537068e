/**
 * Instances on one PostgreSQL database and one Redis (issue 15), each a listening server started
 * in this process: what one accepts or computes, every other one knows.
 */
import { expect, test } from "bun:test";
import { SQL } from "bun";
import { startServer, type RunningServer } from "../../src/server/serve.ts";
import { prepareDatabase } from "../../src/store/postgres/connect.ts";
import { InstanceRegistry } from "../../src/store/postgres/instances.ts";
import { ADMIN_ENV, body, captureIO, serveOpts, signedRequest } from "../helpers.ts";
import { run } from "../../src/cli/index.ts";
import { testDatabase } from "../pg.ts";
import { clusterSuite } from "./suite.ts";
import { startFakePlatform } from "../platform/fake.ts";
import { AESKEY, APPID, textMsg, TOKEN, wxPost } from "../wechat/helpers.ts";
import { CODE } from "../../src/base/errors.ts";

const suite = clusterSuite("replyd-cluster-");
// The suite's, by their short names.
const redis = {
  get url() {
    return suite.redis.url;
  },
  halt: () => suite.redis.halt(),
  resume: () => suite.redis.resume(),
};
const running = suite.running;
let db: { url: string; drop(): Promise<void> };
const useDatabase = async () => (suite.db = db = await testDatabase());

async function instance(extra: { redis?: string | null; wechat?: object; maxAuthFailures?: number } = {}): Promise<RunningServer> {
  const s = await startServer(
    serveOpts(suite.tmp.dir, {
      db: db.url,
      ...(extra.redis === null ? {} : { redis: extra.redis ?? redis.url }),
      env: ADMIN_ENV,
      wechat: { token: TOKEN, ...extra.wechat },
      ...(extra.maxAuthFailures ? { maxAuthFailures: extra.maxAuthFailures } : {}),
    }),
  );
  running.push(s);
  return s;
}

const now = () => Date.now();
const send = (s: RunningServer, req: Request) => fetch(s.url + new URL(req.url).pathname + new URL(req.url).search, { method: req.method, headers: req.headers, body: req.body });
const signed = (method: string, path: string, fields: [string, string][] = [], extra: { key?: typeof import("../helpers.ts").ADMIN } = {}) =>
  signedRequest(method, path, { fields, nowMs: now(), ...extra });
/** The same captured request, sent as it was to each server given. */
const replayTo = async (servers: RunningServer[], method: string, path: string, fields: [string, string][] = []) => {
  const req = signed(method, path, fields);
  const text = method === "GET" || method === "DELETE" ? null : await req.text();
  const out: Response[] = [];
  for (const s of servers) out.push(await fetch(s.url + new URL(req.url).pathname + new URL(req.url).search, { method, headers: req.headers, ...(text === null ? {} : { body: text }) }));
  return out;
};
const callback = async (s: RunningServer, xml: string, o: { nonce?: string; at?: number } = {}) => {
  const req = wxPost(xml, o.at ?? Math.floor(now() / 1000), o.nonce ? { nonce: o.nonce } : {});
  const res = await fetch(s.url + new URL(req.url).pathname + new URL(req.url).search, { method: "POST", body: xml, headers: { "content-type": "text/xml" } });
  return { status: res.status, text: await res.text() };
};
const seed = async (s: RunningServer) => {
  const res = await send(s, signed("POST", "/api/cli", [["id", "a1"], ["code", "c1"], ["title", "First title"], ["url", "https://example.com/1"]]));
  expect(res.status).toBe(200);
};

test("a second instance on the database without --redis is refused, saying why; with --redis both run", async () => {
  await useDatabase();
  const alone = await instance({ redis: null });
  await expect(instance({ redis: null })).rejects.toThrow(/must share a Redis \(--redis/);
  await expect(instance()).rejects.toThrow(/an instance without --redis serves from this database/);
  await alone.stop();
  running.splice(0);
  // Stopped: it left the registry, so the next start (without Redis) is alone again.
  const again = await instance({ redis: null });
  await again.stop();
  running.splice(0);
  await instance();
  await instance();
  const health = await body(await send(running[1] as RunningServer, signed("GET", "/api/cli")));
  expect(health.data).toMatchObject({ status: "ok", store: "postgres", database: { state: "up" } });
  expect(health.data.cluster).toMatchObject({ instances_seen: 2, redis: { state: "up" }, postgres: { state: "up" }, dedupe: "cluster" });
  const io = captureIO({ REPLYD_URL: (running[1] as RunningServer).url, ...ADMIN_ENV });
  expect(await run(["health"], io)).toBe(0);
  expect(io.stdout.join("\n")).toMatch(/^ok — replyd[^\n]*\n(.*\n)*cluster {8}2 instances seen: this one .*; .+ \(\d+ s ago\)\nredis {10}up at /);
});

test("an instance killed without stopping is forgotten at once by a start on its host (its pid is gone)", async () => {
  await useDatabase();
  const sql = new SQL(db.url);
  try {
    await instance({ redis: null });
    await (running[0] as RunningServer).stop();
    running.splice(0);
    // As a kill -9 leaves it: a row of a process on this host that no longer exists, heard of just now.
    const gone = Bun.spawn(["true"]);
    await gone.exited;
    const { hostname } = await import("node:os");
    await sql`INSERT INTO instances (id, host, pid, url, redis) VALUES ('killed', ${hostname()}, ${gone.pid}, null, false)`;
    await instance({ redis: null });
    expect((await sql`SELECT id FROM instances WHERE id = 'killed'`).length).toBe(0);
    // One on another host, heard of just now, is not this host's to judge: it counts.
    await sql`INSERT INTO instances (id, host, pid, url, redis) VALUES ('elsewhere', 'another-host', 1, null, false)`;
    await (running[0] as RunningServer).stop();
    running.splice(0);
    await expect(instance({ redis: null })).rejects.toThrow(/another-host pid 1/);
  } finally {
    await sql.close();
  }
});

test("a registering instance knows those already running before its first heartbeat (what health counts)", async () => {
  await useDatabase();
  const sql = new SQL(db.url);
  try {
    await prepareDatabase(sql, { now: new Date(), firstKey: false });
    const first = new InstanceRegistry(sql, true);
    await first.register();
    const second = new InstanceRegistry(sql, true);
    await second.register();
    try {
      expect(second.seen.map((o) => o.id)).toEqual([first.id]);
    } finally {
      await second.unregister();
      await first.unregister();
    }
  } finally {
    await sql.close();
  }
});

test("an admin request accepted by one instance is refused as a replay by the others", async () => {
  await useDatabase();
  const [a, b, c] = [await instance(), await instance(), await instance()];
  const [first, atB, atC] = await replayTo([a, b, c], "POST", "/api/cli", [["id", "r1"], ["title", "Once"], ["url", "https://example.com/r"]]);
  expect(first?.status).toBe(200);
  for (const r of [atB, atC]) expect({ status: r?.status, code: (await body(r as Response)).error?.code }).toEqual({ status: 401, code: CODE.replayed });
  // A GET (nothing written) is refused as well: a nonce is used once, cluster-wide.
  const [g1, g2] = await replayTo([b, a], "GET", "/api/cli");
  expect([g1?.status, g2?.status]).toEqual([200, 401]);
});

test("failed signatures count across instances: spread over two, the limit locks the address at both", async () => {
  await useDatabase();
  const [a, b] = [await instance({ maxAuthFailures: 4 }), await instance({ maxAuthFailures: 4 })];
  const bad = () => signed("GET", "/api/cli", [], { key: { appkey: "admin1", secret: "wrong-secret-0123456789", scope: "admin" } });
  const statuses: number[] = [];
  for (const s of [a, b, a, b, a, b]) statuses.push((await send(s, bad())).status);
  // Four failures (two at each) lock it: the fifth and sixth, wherever they land, are 429.
  expect(statuses).toEqual([401, 401, 401, 401, 429, 429]);
  // A valid signature is never refused for the lock-out.
  expect((await send(b, signed("GET", "/api/cli"))).status).toBe(200);
});

test("a resend that lands on another instance gets the first answer byte for byte, and the message is logged once", async () => {
  await useDatabase();
  const [a, b] = [await instance(), await instance()];
  await seed(a);
  const at = Math.floor(now() / 1000);
  const xml = textMsg("c1", at, "77001");
  const first = await callback(a, xml, { nonce: "5550001", at });
  expect(first.text).toContain("First title");
  // The platform resends under the same signature; the answer carries the first's CreateTime.
  await Bun.sleep(1100);
  const resent = await callback(b, xml, { nonce: "5550001", at });
  expect(resent).toEqual(first);
  // Sent at the same moment to both: one computes, the other gets its answer.
  const xml2 = textMsg("c1", at, "77002");
  const [x, y] = await Promise.all([callback(a, xml2, { nonce: "5550002", at }), callback(b, xml2, { nonce: "5550002", at })]);
  expect(x).toEqual(y);
  const sql = new SQL(db.url);
  try {
    for (let i = 0; i < 100 && Number((await sql`SELECT count(*)::int AS n FROM messages WHERE msg_key LIKE '%7700%'`)[0].n) < 2; i++) await Bun.sleep(20);
    const rows = (await sql`SELECT msg_key, count(*)::int AS n FROM messages GROUP BY msg_key`) as { msg_key: string; n: number }[];
    expect(rows.filter((r) => r.msg_key.includes("7700")).map((r) => r.n)).toEqual([1, 1]);
  } finally {
    await sql.close();
  }
});

test("a captured callback URL carrying another message is refused at another instance too", async () => {
  await useDatabase();
  const [a, b] = [await instance(), await instance()];
  const at = Math.floor(now() / 1000);
  expect((await callback(a, textMsg("hello", at, "88001"), { nonce: "6660001", at })).status).toBe(200);
  expect((await callback(b, textMsg("hello", at, "88002"), { nonce: "6660001", at })).status).toBe(401);
  // The same signature with its own message is a resend, answered.
  expect((await callback(b, textMsg("hello", at, "88001"), { nonce: "6660001", at })).status).toBe(200);
});

test("in safe mode two messages whose nonces meet within one second are both answered, at two instances", async () => {
  await useDatabase();
  const safe = { wechat: { aesKey: AESKEY, appid: APPID } };
  const [a, b] = [await instance(safe), await instance(safe)];
  const at = Math.floor(now() / 1000);
  const post = async (s: RunningServer, xml: string) => {
    const req = wxPost(xml, at, { encrypt: true, nonce: "6660002" });
    return (await fetch(s.url + new URL(req.url).pathname + new URL(req.url).search, { method: "POST", body: await req.text() })).status;
  };
  expect(await post(a, textMsg("hello", at, "88003"))).toBe(200);
  expect(await post(b, textMsg("hello", at, "88004"))).toBe(200);
  // Each is its own message, resent anywhere: answered.
  expect(await post(b, textMsg("hello", at, "88003"))).toBe(200);
});

test("a change made through one instance is in another's replies, brought by its notice", async () => {
  await useDatabase();
  const [a, b] = [await instance(), await instance()];
  await seed(a);
  expect((await send(a, signed("PUT", "/api/cli", [["id", "a1"], ["title", "Second title"]]))).status).toBe(200);
  let text = "";
  for (let i = 0; i < 100 && !text.includes("Second title"); i++) {
    text = (await callback(b, textMsg("c1", Math.floor(now() / 1000)))).text;
    if (!text.includes("Second title")) await Bun.sleep(20);
  }
  expect(text).toContain("Second title");
  const health = await body(await send(b, signed("GET", "/api/cli")));
  expect(health.data.cluster.cache_lag.notices).toBeGreaterThanOrEqual(1);
  expect(typeof health.data.cluster.cache_lag.last_ms).toBe("number");
});

test("Redis away: followers answered by each instance alone, writes 503, health readable and says so; back without a restart", async () => {
  await useDatabase();
  const [a, b] = [await instance(), await instance()];
  await seed(a);
  redis.halt();
  try {
    const reply = await callback(a, textMsg("c1", Math.floor(now() / 1000)));
    expect(reply).toMatchObject({ status: 200, text: expect.stringContaining("First title") });
    const write = await send(b, signed("PUT", "/api/cli", [["id", "a1"], ["title", "Not now"]]));
    const refused = (await body(write)).error as { code: string; message: string };
    expect({ status: write.status, code: refused.code }).toEqual({ status: 503, code: CODE.redis_unavailable });
    expect(refused.message.match(/Redis is unreachable/g)).toHaveLength(1);
    const list = await send(b, signed("GET", "/api/cli", [["id", "a1"]]));
    expect(list.status).toBe(503);
    // A second request, the link's last error kept by then: still said once.
    expect(((await body(await send(b, signed("GET", "/api/cli", [["id", "a1"]])))).error as { message: string }).message.match(/Redis is unreachable/g)).toHaveLength(1);
    const health = await body(await send(a, signed("GET", "/api/cli")));
    expect(health.data.status).toBe("degraded");
    expect(health.data.cluster).toMatchObject({ redis: { state: "down" }, dedupe: "this instance only (Redis is away)" });
    expect(health.data.cluster.answered_alone).toBeGreaterThanOrEqual(1);
    // The operator's text says it too, not only --json.
    const io = captureIO({ REPLYD_URL: a.url, ...ADMIN_ENV });
    expect(await run(["health"], io)).toBe(0);
    const text = io.stdout.join("\n");
    expect(text).toStartWith("degraded — replyd");
    expect(text).toContain("store          postgres (reached)");
    expect(text).toMatch(/cluster {8}\d instances? seen: this one /);
    expect(text).toMatch(/REDIS {10}DOWN since \d{4}-\d\d-\d\dT[\d:.]+Z \(.+\): admin requests other than health are refused/);
    expect(text).toMatch(/dedupe {9}this instance only \(Redis is away\); \d+ messages? answered by this instance alone/);
  } finally {
    await redis.resume();
  }
  let status = 0;
  for (let i = 0; i < 100 && status !== 200; i++) {
    status = (await send(b, signed("PUT", "/api/cli", [["id", "a1"], ["title", "Back again"]]))).status;
    if (status !== 200) await Bun.sleep(100);
  }
  expect(status).toBe(200);
  // Replay protection is the cluster's again.
  const [x, y] = await replayTo([a, b], "GET", "/api/cli");
  expect([x?.status, y?.status]).toEqual([200, 401]);
}, 30_000);

test("the access token: one instance asks the platform, the others take its token", async () => {
  await useDatabase();
  const platform = startFakePlatform("wx0123456789abcdef", "secret0123456789abcdef0123456789");
  try {
    const wechat = { appid: "wx0123456789abcdef", secret: "secret0123456789abcdef0123456789", api: platform.url };
    const servers = [await instance({ wechat }), await instance({ wechat }), await instance({ wechat })];
    const tokens: string[] = [];
    for (const s of servers) {
      const res = await body(await send(s, signed("GET", "/api/cli/token")));
      tokens.push(res.data.access_token);
    }
    expect(new Set(tokens).size).toBe(1);
    expect(platform.calls.normal + platform.calls.forced).toBe(1);
  } finally {
    platform.stop();
  }
});

test("a token another system made invalid: one instance asks the platform again, the other takes its new token", async () => {
  await useDatabase();
  const platform = startFakePlatform("wx0123456789abcdef", "secret0123456789abcdef0123456789");
  try {
    const wechat = { appid: "wx0123456789abcdef", secret: "secret0123456789abcdef0123456789", api: platform.url };
    const [a, b] = [await instance({ wechat }), await instance({ wechat })];
    const before = (await body(await send(a, signed("GET", "/api/cli/token")))).data.access_token;
    expect((await body(await send(b, signed("GET", "/api/cli/token")))).data.access_token).toBe(before);
    platform.invalidate(); // another system forced a refresh: the token both hold is refused now
    const calls = () => platform.calls.normal + platform.calls.forced;
    const start = calls();
    // Each reads the live menu with the refused token, is refused 40001, and recovers.
    for (const s of [a, b]) expect((await send(s, signed("GET", "/api/cli/menu", [["live", "1"]]))).status).toBe(200);
    const after = [(await body(await send(a, signed("GET", "/api/cli/token")))).data.access_token, (await body(await send(b, signed("GET", "/api/cli/token")))).data.access_token];
    expect(after[0]).not.toBe(before);
    expect(after[1]).toBe(after[0]);
    // The platform's normal mode already answers the new token: one call for the cluster, none forced
    // (the token the instances held, still in Redis, is not taken for the one that was refused).
    expect(platform.calls.forced).toBe(0);
    expect(calls() - start).toBe(1);
  } finally {
    platform.stop();
  }
});

test("menus set on two instances at once: the platform's menu is the one both stores hold, every time", async () => {
  await useDatabase();
  const platform = startFakePlatform("wx0123456789abcdef", "secret0123456789abcdef0123456789");
  try {
    const wechat = { appid: "wx0123456789abcdef", secret: "secret0123456789abcdef0123456789", api: platform.url };
    const [a, b] = [await instance({ wechat }), await instance({ wechat })];
    const menu = (name: string) => JSON.stringify({ button: [{ type: "click", name, key: `K_${name}` }] });
    const put = (s: RunningServer, name: string) =>
      send(s, signedRequest("PUT", "/api/cli/menu", { nowMs: now(), files: [{ name: "json", content: menu(name) }] })).then(async (r) => (r.status === 200 ? 200 : JSON.stringify(await body(r))));
    for (let round = 0; round < 6; round++) {
      // The first push is answered slowly: without one-at-a-time across instances the second push
      // overtakes it on the platform and its store is overwritten by the first's.
      platform.slowAnswer(150);
      expect(await Promise.all([put(a, `A${round}`), put(b, `B${round}`)])).toEqual([200, 200]);
      const live = (platform.menu as { button: { name: string }[] }).button[0]?.name as string;
      // Each instance's copy takes the other's write within its change notice (or the 1 s poll).
      for (const s of [a, b]) {
        const stored = async () => (await body(await send(s, signed("GET", "/api/cli/menu")))).data.menu.button[0].name as string;
        let seen = await stored();
        for (let i = 0; i < 40 && seen !== live; i++) seen = (await Bun.sleep(50), await stored());
        expect({ round, stored: seen }).toEqual({ round, stored: live });
      }
    }
  } finally {
    platform.stop();
  }
}, 60_000);

test("eight replies to one follower at once, over two instances: five sent (the platform's limit), three refused by replyd before the platform", async () => {
  await useDatabase();
  const platform = startFakePlatform("wx0123456789abcdef", "secret0123456789abcdef0123456789");
  try {
    const wechat = { appid: "wx0123456789abcdef", secret: "secret0123456789abcdef0123456789", api: platform.url };
    const [a, b] = [await instance({ wechat }), await instance({ wechat })];
    // The follower writes: the window opens (in replyd's log and on the platform).
    const xml = textMsg("hello?", Math.floor(now() / 1000));
    const openid = /<FromUserName><!\[CDATA\[(.*?)\]\]>/.exec(xml)?.[1] as string;
    expect((await callback(a, xml)).status).toBe(200);
    platform.interact(openid);
    const window = async () => (await body(await send(a, signed("GET", "/api/cli", [["inbox", "all"]])))).data.items.length;
    for (let i = 0; i < 100 && (await window()) < 1; i++) await Bun.sleep(20);
    platform.slowAnswer(50);
    const answers = await Promise.all(
      Array.from({ length: 8 }, async (_, i) => {
        const res = await send(i % 2 ? b : a, signed("POST", "/api/cli/reply", [["openid", openid], ["text", `answer ${i}`]]));
        return res.status === 200 ? "sent" : (await body(res)).error?.code;
      }),
    );
    expect(answers.filter((x) => x === "sent")).toHaveLength(5);
    expect(answers.filter((x) => x !== "sent")).toEqual([CODE.reply_limit, CODE.reply_limit, CODE.reply_limit]);
    expect(platform.sent.filter((m) => m.touser === openid)).toHaveLength(5);
  } finally {
    platform.stop();
  }
}, 60_000);

test("an instance refused as a second one without --redis creates no key: a database without keys keeps none", async () => {
  await useDatabase();
  // The first runs on a key from its environment: the database holds none.
  await instance({ redis: null });
  const printed: string[] = [];
  await expect(startServer(serveOpts(suite.tmp.dir, { db: db.url, say: (line) => void printed.push(line) }))).rejects.toThrow("cannot start");
  expect(printed.join("\n")).not.toContain("REPLYD_APPKEY");
  const sql = new SQL(db.url);
  try {
    expect(await sql`SELECT appkey FROM admin_keys`).toHaveLength(0);
  } finally {
    await sql.close();
  }
});

test("two instances without --redis starting at once on an empty database: the one that starts makes the first key and prints it; the refused one makes none", async () => {
  for (let round = 0; round < 4; round++) {
    await useDatabase();
    const printed: string[][] = [[], []];
    const starts = await Promise.allSettled([0, 1].map((i) => startServer(serveOpts(suite.tmp.dir, { db: (db as { url: string }).url, say: (line) => void printed[i]?.push(line) }))));
    const started = starts.flatMap((s, i) => (s.status === "fulfilled" ? [{ server: s.value, i }] : []));
    for (const s of started) running.push(s.server);
    expect({ round, started: started.length }).toEqual({ round, started: 1 });
    const refused = starts.find((s) => s.status === "rejected") as PromiseRejectedResult;
    expect(String(refused.reason)).toContain("cannot start");
    const winner = started[0] as { i: number };
    const shown = /REPLYD_APPKEY=(\S+)/.exec(printed[winner.i]?.join("\n") ?? "")?.[1];
    expect(printed[1 - winner.i]?.join("\n")).not.toContain("REPLYD_APPKEY");
    const sql = new SQL(db.url);
    try {
      const keys = (await sql`SELECT appkey FROM admin_keys`) as { appkey: string }[];
      expect({ round, keys: keys.map((k) => k.appkey) }).toEqual({ round, keys: [shown as string] });
    } finally {
      await sql.close();
    }
    for (const s of running.splice(0)) await s.stop();
    await db.drop();
  }
  db = undefined as unknown as typeof db;
  suite.db = null;
}, 120_000);

test("a Redis that cannot be reached at start: the instance does not start, saying where (no password)", async () => {
  await useDatabase();
  const closed = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const port = closed.port;
  closed.stop(true);
  await expect(instance({ redis: `redis://:hunter2-redis@127.0.0.1:${port}` })).rejects.toThrow(new RegExp(`cannot reach Redis at redis://:\\*\\*\\*@127.0.0.1:${port}`));
  await expect(instance({ redis: `redis://:hunter2-redis@127.0.0.1:${port}` })).rejects.not.toThrow(/hunter2/);
});

test("--redis without --db is refused: instances share data only through PostgreSQL", async () => {
  await expect(startServer(serveOpts(suite.tmp.dir, { redis: redis.url, env: ADMIN_ENV }))).rejects.toThrow(/goes with --db/);
  db = { url: "", drop: async () => {} };
});


test("what the operator teaches through one instance, another answers with: a taught question, then synonyms (its copy's passage index rebuilt with them)", async () => {
  await useDatabase();
  const [a, b] = [await instance(), await instance()];
  const articles = [
    { id: "returns", title: "Returns and refunds", url: "https://e.com/returns", body: "You can return any item within 30 days. Refunds are paid within 5 working days." },
    { id: "payment", title: "Ways to pay", url: "https://e.com/payment", body: "We accept credit cards and bank transfers." },
  ];
  const doc = (extra: object) => JSON.stringify({ format: "replyd/1", created_at: "2026-11-21T10:00:00.000Z", ...extra });
  const imported = await send(a, signedRequest("POST", "/api/cli", { nowMs: now(), files: [{ name: "json", content: doc({ matter: "articles", articles }) }] }));
  expect(imported.status).toBe(200);
  /** What `b` answers `question` with, once it does (its copy follows a's writes by their notices). */
  const answeredBy = async (s: RunningServer, question: string, title: string) => {
    let text = "";
    for (let i = 0; i < 150 && !text.includes(title); i++) {
      text = (await callback(s, textMsg(question, Math.floor(now() / 1000)))).text;
      if (!text.includes(title)) await Bun.sleep(20);
    }
    return text;
  };
  expect(await answeredBy(b, "Returns", "Returns and refunds")).toContain("Returns and refunds");
  // A question nothing answers, asked at b, taught at a, answered at b.
  expect((await callback(b, textMsg("I want my money back", Math.floor(now() / 1000)))).text).not.toContain("Returns and refunds");
  // Logged by b's writer, in its own time: a lists it once it is written.
  let seq: number | undefined;
  for (let i = 0; i < 150 && seq === undefined; i++) {
    const inbox = await body(await send(a, signed("GET", "/api/cli", [["inbox", "unmatched"]])));
    seq = inbox.data.items.find((m: { content: string }) => m.content === "I want my money back")?.seq;
    if (seq === undefined) await Bun.sleep(20);
  }
  expect((await send(a, signed("POST", "/api/cli/teach", [["inbox", String(seq)], ["id", "returns"]]))).status).toBe(200);
  expect(await answeredBy(b, "I want my money back", "Returns and refunds")).toContain("Returns and refunds");
  // Synonyms imported at a: b's ranking applies them once its copy has them.
  expect((await callback(b, textMsg("is amex ok?", Math.floor(now() / 1000)))).text).not.toContain("Ways to pay");
  const synonyms = await send(a, signedRequest("POST", "/api/cli", { nowMs: now(), files: [{ name: "json", content: doc({ matter: "synonyms", synonyms: [["Amex", "credit card"]] }) }] }));
  expect(synonyms.status).toBe(200);
  expect(await answeredBy(b, "is amex ok?", "Ways to pay")).toContain("Ways to pay");
  expect((await body(await send(b, signed("GET", "/api/cli/synonyms")))).data.synonyms).toEqual([["Amex", "credit card"]]);
});
