/**
 * A cluster serving several accounts (issue 36 B): two instances on one database and one Redis,
 * each serving shop and blog. Each account's data is its own schema; its Redis keys and change
 * channel carry its name, so the same MsgId at two accounts is two messages across instances, and a
 * resend landing on the other instance gets the same answer, byte for byte, per account.
 */
import { expect, test } from "bun:test";
import { RedisClient, SQL } from "bun";
import { startServer, type RunningServer } from "../../src/server/serve.ts";
import type { DeclaredAccount } from "../../src/account/settings.ts";
import { ADMIN_ENV, body, doc, serveOpts, signedRequest, article } from "../helpers.ts";
import { testDatabase } from "../pg.ts";
import { clusterSuite } from "./suite.ts";
import { textMsg, TOKEN, wxPost } from "../wechat/helpers.ts";

const suite = clusterSuite("replyd-cluster-accounts-");
const ACCOUNTS: DeclaredAccount[] = ["shop", "blog"].map((name) => ({ name, wechat: { token: TOKEN, path: `/wechat/${name}` } }));

async function instance(): Promise<RunningServer> {
  const s = await startServer(serveOpts(suite.tmp.dir, { db: (suite.db as { url: string }).url, redis: suite.redis.url, env: ADMIN_ENV, accounts: ACCOUNTS }));
  suite.running.push(s);
  return s;
}

/** A signed admin request to one account of `s`, answered as JSON. */
async function call(s: RunningServer, method: string, path: string, account: string, extra: { fields?: [string, string][]; files?: { name: string; content: string }[] } = {}) {
  const req = signedRequest(method, path, { nowMs: Date.now(), fields: [...(extra.fields ?? []), ["account", account]], ...(extra.files ? { files: extra.files } : {}) });
  const res = await fetch(s.url + new URL(req.url).pathname + new URL(req.url).search, { method, headers: req.headers, ...(method === "GET" ? {} : { body: await req.arrayBuffer() }) });
  return { status: res.status, ...(await body(res)) };
}
/** The titles of an account's articles, as instance `s` lists them. */
const titles = async (s: RunningServer, account: string): Promise<string[]> =>
  ((await call(s, "GET", "/api/cli", account, { fields: [["q", ""]] })).data?.items ?? []).map((x: { title: string }) => x.title);
const load = (s: RunningServer, account: string, title: string) =>
  call(s, "POST", "/api/cli", account, { fields: [["mode", "merge"]], files: [{ name: "json", content: doc([article(1, { code: "c1", title })]) }] });

/** The follower's text `c1` with `msgId` posted to an account's callback on `s`; the raw reply. */
async function say(s: RunningServer, account: string, msgId: string, nonce?: string): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const req = wxPost(textMsg("c1", now, msgId), now, { path: `/wechat/${account}`, ...(nonce ? { nonce } : {}) });
  const res = await fetch(s.url + new URL(req.url).pathname + new URL(req.url).search, { method: "POST", body: await req.text(), headers: { "content-type": "text/xml" } });
  expect(res.status).toBe(200);
  return res.text();
}

async function until(what: () => Promise<boolean>, ms = 15_000): Promise<void> {
  for (const end = Date.now() + ms; !(await what()); ) {
    if (Date.now() > end) throw new Error("not in time");
    await Bun.sleep(50);
  }
}

test("two instances serve two accounts: each account's writes reach the other instance's copy of that account alone", async () => {
  suite.db = await testDatabase();
  const [a, b] = [await instance(), await instance()];
  expect((await load(a, "shop", "Shop returns")).status).toBe(200);
  expect((await load(b, "blog", "Blog post")).status).toBe(200);
  // Each account's change channel reaches the other instance's copy of that account (or its poll does).
  await until(async () => (await titles(b, "shop")).length > 0);
  await until(async () => (await titles(a, "blog")).length > 0);
  for (const s of [a, b]) {
    expect(await titles(s, "shop")).toEqual(["Shop returns"]);
    expect(await titles(s, "blog")).toEqual(["Blog post"]);
  }
  // In the database: a schema per account, the default schema holding no account's articles.
  const sql = new SQL((suite.db as { url: string }).url);
  try {
    const schemas = (await sql`SELECT nspname FROM pg_namespace WHERE nspname LIKE 'replyd_acct_%' ORDER BY 1`) as { nspname: string }[];
    expect(schemas.map((r) => r.nspname)).toEqual(["replyd_acct_blog", "replyd_acct_shop"]);
    expect((await sql`SELECT count(*)::int AS n FROM public.articles`)[0].n).toBe(0);
    expect((await sql`SELECT title FROM replyd_acct_shop.articles`).map((r: { title: string }) => r.title)).toEqual(["Shop returns"]);
  } finally {
    await sql.close();
  }
});

test("the same MsgId at two accounts on two instances is two messages; a resend on the other instance gets its account's answer byte for byte", async () => {
  suite.db = await testDatabase();
  const [a, b] = [await instance(), await instance()];
  expect((await load(a, "shop", "Shop returns")).status).toBe(200);
  expect((await load(a, "blog", "Blog post")).status).toBe(200);
  await until(async () => (await titles(b, "blog")).length === 1 && (await titles(b, "shop")).length === 1);
  const shopFirst = await say(a, "shop", "900001");
  const blogFirst = await say(b, "blog", "900001");
  expect(shopFirst).toContain("Shop returns");
  expect(blogFirst).toContain("Blog post");
  // The platform's resends, each landing on the other instance.
  expect(await say(b, "shop", "900001")).toBe(shopFirst);
  expect(await say(a, "blog", "900001")).toBe(blogFirst);
  // Each account's answers are under its own names in Redis.
  const redis = new RedisClient(suite.redis.url);
  try {
    const keys = (await redis.send("KEYS", ["replyd:*answer:*"])) as string[];
    expect(keys.some((k) => k.startsWith("replyd:acct:{shop}:answer:"))).toBe(true);
    expect(keys.some((k) => k.startsWith("replyd:acct:{blog}:answer:"))).toBe(true);
    expect(keys.filter((k) => !k.startsWith("replyd:acct:"))).toEqual([]);
  } finally {
    redis.close();
  }
});

test("a write to shop is told on shop's change channel alone, not on the default account's or blog's", async () => {
  suite.db = await testDatabase();
  const a = await instance();
  const heard: string[] = [];
  const listener = new RedisClient(suite.redis.url);
  try {
    for (const channel of ["replyd:changed", "replyd:acct:{shop}:changed", "replyd:acct:{blog}:changed"]) await listener.subscribe(channel, () => heard.push(channel));
    expect((await load(a, "shop", "Shop returns")).status).toBe(200);
    await until(async () => heard.length > 0);
    await Bun.sleep(200);
    expect([...new Set(heard)]).toEqual(["replyd:acct:{shop}:changed"]);
  } finally {
    listener.close();
  }
});

test("health's cluster section is the account's: shop's copy counts the change notices of shop's writes, blog's none", async () => {
  suite.db = await testDatabase();
  const [a, b] = [await instance(), await instance()];
  expect((await load(a, "shop", "Shop returns")).status).toBe(200);
  await until(async () => (await titles(b, "shop")).length > 0);
  const lag = async (account: string) => (await call(b, "GET", "/api/cli", account)).data.cluster as { postgres: { state: string }; cache_lag: { notices: number } };
  await until(async () => (await lag("shop")).cache_lag.notices > 0);
  expect((await lag("shop")).postgres.state).toBe("up");
  expect((await lag("blog")).cache_lag.notices).toBe(0);
});

test("a picture uploaded to shop on one instance is served by the other at /media/shop/ (fetched from shop's schema), not at /media/blog/", async () => {
  suite.db = await testDatabase();
  const [a, b] = [await instance(), await instance()];
  const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 9, 8, 7, 6]);
  const req = signedRequest("POST", "/api/cli", { nowMs: Date.now(), fields: [["account", "shop"]], files: [{ name: "media", content: PNG, filename: "p.png" }] });
  const up = await fetch(a.url + new URL(req.url).pathname, { method: "POST", headers: req.headers, body: await req.arrayBuffer() });
  expect(up.status).toBe(200);
  const name = ((await body(up)).data.url as string).split("/").pop() as string;
  // b never saw the upload: the bare name is looked for in the folders only (never in every account's database)...
  expect((await fetch(b.url + `/media/${name}`)).status).toBe(404);
  // ...and the account's own path fetches it from shop's schema the first time it is asked for.
  const res = await fetch(b.url + `/media/shop/${name}`);
  expect(res.status).toBe(200);
  expect(new Uint8Array(await res.arrayBuffer())).toEqual(PNG);
  expect((await fetch(b.url + `/media/blog/${name}`)).status).toBe(404);
});
