/**
 * Follow-ups in a cluster (docs/answers.md "Follow-ups"): a follower's turns in Redis, so that the
 * follow-up reaching another instance is still read with the question; Redis away, each instance's
 * own memory. SharedConversations on its own against a real redis-server, then two instances on one
 * PostgreSQL database and one Redis.
 */
import { expect, test } from "bun:test";
import { RedisClient, SQL } from "bun";
import { startServer, type RunningServer } from "../../src/server/serve.ts";
import { RedisLink } from "../../src/store/redis/link.ts";
import { DEFAULT_KEYS } from "../../src/cluster/keyspace.ts";
import { CONVERSATION, LocalConversations, SharedConversations, turnKey, type Turn } from "../../src/wechat/answering/conversation.ts";
import { pickedFromList } from "../../src/wechat/answering/reading.ts";
import { wxSignature } from "../../src/wechat/door/crypto.ts";
import { parseXml, type XmlNode } from "../../src/wechat/door/xml.ts";
import { ADMIN_ENV, doc, serveOpts, signedRequest } from "../helpers.ts";
import { testDatabase } from "../pg.ts";
import { TOKEN } from "../wechat/helpers.ts";
import { clusterSuite } from "./suite.ts";

const suite = clusterSuite("replyd-conversation-");
const turn = (text: string, at: number): Turn => ({ key: turnKey(`m:o:${text}:${at}`), at, text, earlier: [], offered: [], shown: [] });

async function link(): Promise<RedisLink> {
  const l = new RedisLink(suite.redis.url, { timeoutMs: 500 });
  await l.connect();
  return l;
}

/** `key` expires with the conversation's window, set a moment ago. */
async function expectExpiresWithWindow(key: string): Promise<void> {
  const raw = new RedisClient(suite.redis.url);
  const ttl = Number(await raw.send("PTTL", [key]));
  raw.close();
  expect(ttl).toBeGreaterThan(CONVERSATION.windowMs - 5000);
  expect(ttl).toBeLessThanOrEqual(CONVERSATION.windowMs);
}

async function waitUp(l: RedisLink): Promise<void> {
  for (let i = 0; i < 200 && !l.up; i++) await Bun.sleep(25);
  expect(l.up).toBe(true);
}

test("turns kept by one instance are read by another; stored under a key that expires with the window", async () => {
  const [la, lb] = [await link(), await link()];
  try {
    const now = Date.now();
    const a = new SharedConversations(la, new LocalConversations(() => now), () => now);
    const b = new SharedConversations(lb, new LocalConversations(() => now), () => now);
    await a.add("o1", turn("营业到几点", now - 1000), []);
    expect((await b.recent("o1", "next")).map((t) => t.text)).toEqual(["营业到几点"]);
    await expectExpiresWithWindow("replyd:conversation:o1");
  } finally {
    la.close();
    lb.close();
  }
});

test("unlist reaches the turns another instance kept: their newest list forgotten; a turn kept after it keeps its own; the mark expires with the window", async () => {
  const [la, lb, lc] = [await link(), await link(), await link()];
  try {
    let now = Date.now();
    const a = new SharedConversations(la, new LocalConversations(() => now), () => now);
    const b = new SharedConversations(lb, new LocalConversations(() => now), () => now);
    const c = new SharedConversations(lc, new LocalConversations(() => now), () => now);
    await a.add("o2", { ...turn("春熙路店", now - 60_000), offered: ["a", "b"], shown: ["a", "b"] }, []);
    await b.unlist("o2");
    // A, which kept the turn and its list in its own memory too, and C, which never saw it.
    for (const x of [a, c]) expect((await x.recent("o2", "next")).map((t) => [t.text, t.shown])).toEqual([["春熙路店", []]]);
    // The next question's list, kept by A after the unlist, is the follower's to pick from, on every instance.
    now += 1000;
    await a.add("o2", { ...turn("停车", now), offered: ["p", "q", "r"], shown: ["p", "q", "r"] }, await a.recent("o2", "x"));
    for (const x of [a, b, c]) expect((await x.recent("o2", "next")).map((t) => [t.text, t.shown])).toEqual([["停车", ["p", "q", "r"]], ["春熙路店", []]]);
    await expectExpiresWithWindow("replyd:conversation:o2:unlisted");
  } finally {
    la.close();
    lb.close();
    lc.close();
  }
});

test("unlist for the code of one of the list's entries leaves the list with that entry picked, on every instance; another article's code is the newest turn on every instance", async () => {
  const [la, lb, lc] = [await link(), await link(), await link()];
  try {
    const now = Date.now();
    const a = new SharedConversations(la, new LocalConversations(() => now), () => now);
    const b = new SharedConversations(lb, new LocalConversations(() => now), () => now);
    const c = new SharedConversations(lc, new LocalConversations(() => now), () => now);
    await a.add("o3", { ...turn("课程", now - 60_000), offered: ["math", "english"], shown: ["math", "english"], byCode: true }, []);
    await b.unlist("o3", { entry: "math", key: "k-math", about: "数学课" });
    for (const x of [a, b, c]) expect((await x.recent("o3", "next")).map((t) => t.shown)).toEqual([["math", "english"]]);
    // …and picks that entry from it, on every instance: "another" next is the entry after it.
    for (const x of [a, b, c]) expect((await x.recent("o3", "next")).map((t) => t.picked)).toEqual([["math"]]);
    // Another article's code: on every instance, the follower's newest turn, its title what they asked; the list forgotten.
    await b.unlist("o3", { entry: "map", key: "k-map", about: "商场 地图" });
    for (const x of [a, b, c]) expect((await x.recent("o3", "next")).map((t) => [t.text, t.shown])).toEqual([["商场 地图", ["map"]], ["课程", []]]);
    // A turn kept after it, at another instance, is the newest: the mark is not applied again.
    const after = await c.recent("o3", "k-next");
    await c.add("o3", { ...turn("多少钱", now + 1), key: "k-next", earlier: ["商场 地图"] }, after);
    for (const x of [a, b, c]) expect((await x.recent("o3", "next")).map((t) => t.text)).toEqual(["多少钱", "商场 地图"]);
  } finally {
    la.close();
    lb.close();
    lc.close();
  }
});

test("a code answered while Redis was up is still this instance's once Redis is away: the list before forgotten, a number no pick from it", async () => {
  const l = await link();
  try {
    const now = Date.now();
    const c = new SharedConversations(l, new LocalConversations(() => now), () => now);
    await c.add("o9", { ...turn("课程", now - 1000), offered: ["math", "english", "art"], shown: ["math", "english", "art"] }, []);
    await c.unlist("o9", { entry: "map", key: "k-up", about: "商场地图" });
    expect((await c.recent("o9", "x")).map((t) => [t.text, t.shown])).toEqual([["商场地图", ["map"]], ["课程", []]]);
    suite.redis.halt();
    try {
      const turns = await c.recent("o9", "x");
      expect(turns.map((t) => [t.text, t.shown])).toEqual([["商场地图", ["map"]], ["课程", []]]);
      expect(pickedFromList("2", turns[0])).toBeUndefined();
    } finally {
      await suite.redis.resume();
    }
  } finally {
    l.close();
  }
}, 30_000);

test("Redis away: a code's article is the follower's newest turn in the instance's own memory", async () => {
  const l = await link();
  try {
    const now = Date.now();
    const c = new SharedConversations(l, new LocalConversations(() => now), () => now);
    await c.add("o8", { ...turn("课程", now - 1000), offered: ["math", "english"], shown: ["math", "english"] }, []);
    suite.redis.halt();
    try {
      await c.unlist("o8", { entry: "map", key: "k-away", about: "商场地图" });
      expect((await c.recent("o8", "x")).map((t) => [t.text, t.shown])).toEqual([["商场地图", ["map"]], ["课程", []]]);
      expect(c.alone).toBeGreaterThanOrEqual(1);
    } finally {
      await suite.redis.resume();
    }
  } finally {
    l.close();
  }
}, 30_000);

test("Redis away: turns kept and read in the instance's own memory; back, what each side holds is merged by time, the newest two", async () => {
  const l = await link();
  try {
    let now = Date.now();
    const mine = new LocalConversations(() => now);
    const c = new SharedConversations(l, mine, () => now);
    await c.add("o1", turn("one", now), []);
    suite.redis.halt();
    try {
      now += 1000;
      await c.add("o1", turn("two", now), await c.recent("o1", "x"));
      expect((await c.recent("o1", "x")).map((t) => t.text)).toEqual(["two", "one"]);
      expect(c.alone).toBeGreaterThanOrEqual(2);
    } finally {
      await suite.redis.resume();
    }
    await waitUp(l);
    // Redis came back empty (a crashed Redis loses its memory); another instance kept a newer turn there meanwhile.
    const lo = await link();
    const other = new SharedConversations(lo, new LocalConversations(() => now), () => now);
    now += 1000;
    await other.add("o1", turn("three", now), []);
    lo.close();
    expect((await c.recent("o1", "x")).map((t) => t.text)).toEqual(["three", "two"]);
  } finally {
    l.close();
  }
}, 30_000);

// Two instances.
const running = suite.running;
let db: { url: string; drop(): Promise<void> };
async function instance(): Promise<RunningServer> {
  const s = await startServer(serveOpts(suite.tmp.dir, { db: db.url, redis: suite.redis.url, env: ADMIN_ENV, wechat: { token: TOKEN } }));
  running.push(s);
  return s;
}

const url = (id: string) => `https://example.com/${id}`;
const SHOP = [
  { id: "hours", title: "营业时间", url: url("hours"), body: "春熙路店每天11:00到次日2:00营业，东郊店11:00到23:00营业。全年无休，最后点单在打烊前半小时。" },
  { id: "vouchers", title: "团购券使用规则", url: url("vouchers"), body: "代金券每桌最多使用2张。周末和法定节假日是否可用，请看券面说明。团购券不和会员价同时使用。" },
  { id: "parking", title: "停车说明", url: url("parking"), body: "春熙路店使用商场地下停车场，消费满200元免费停车2小时。周末车位紧张，建议坐地铁来。" },
];

let msgIds = 990_000;
/** A follower's text to `s`; the articles its reply offers, in order. */
async function say(s: RunningServer, from: string, content: string): Promise<string[]> {
  const ts = String(Math.floor(Date.now() / 1000));
  const nonce = String(++msgIds);
  const xml = `<xml><ToUserName><![CDATA[gh_account]]></ToUserName><FromUserName><![CDATA[${from}]]></FromUserName><CreateTime>${ts}</CreateTime><MsgType><![CDATA[text]]></MsgType><Content><![CDATA[${content}]]></Content><MsgId>${msgIds}</MsgId></xml>`;
  const res = await fetch(`${s.url}/wechat?signature=${wxSignature(TOKEN, ts, nonce)}&timestamp=${ts}&nonce=${nonce}&openid=${from}`, { method: "POST", body: xml });
  const text = await res.text();
  if (text === "success") return [];
  const x = parseXml(text);
  const links = x.MsgType === "news" ? [((x.Articles as XmlNode).item as XmlNode).Url as string] : [...String(x.Content).matchAll(/https:\/\/example\.com\/[a-z]+/g)].map((m) => m[0]);
  return links.map((u) => u.slice("https://example.com/".length));
}

async function seeded(a: RunningServer, b: RunningServer): Promise<void> {
  const req = signedRequest("POST", "/api/cli", { fields: [["mode", "merge"]], files: [{ name: "json", content: doc(SHOP, { matter: "articles" }) }], nowMs: Date.now() });
  const res = await fetch(a.url + new URL(req.url).pathname, { method: "POST", headers: req.headers, body: await req.arrayBuffer() });
  expect(res.status).toBe(200);
  // The other instance has them once its copy has the change.
  let got: string[] = [];
  for (let i = 0; i < 200 && got[0] !== "hours"; i++) {
    got = await say(b, "o_probe", "最后点单在打烊前半小时吗");
    if (got[0] !== "hours") await Bun.sleep(25);
  }
  expect(got).toEqual(["hours"]);
}

test("a follow-up reaching another instance is still ranked with the question asked at the first, and logged so", async () => {
  suite.db = db = await testDatabase();
  const [a, b] = [await instance(), await instance()];
  await seeded(a, b);
  expect((await say(b, "o_alone", "周末呢"))[0]).not.toBe("hours");
  expect(await say(a, "o_follower", "营业到几点")).toEqual(["hours"]);
  // Read with the question: the opening hours first (a list: on three articles not sure enough to go alone, issue 34 C).
  expect((await say(b, "o_follower", "周末呢"))[0]).toBe("hours");
  const sql = new SQL(db.url);
  try {
    let rows: { answer: string }[] = [];
    for (let i = 0; i < 100 && !rows.length; i++) {
      rows = (await sql`SELECT answer FROM messages WHERE from_user = 'o_follower' AND content = '周末呢'`) as { answer: string }[];
      if (!rows.length) await Bun.sleep(25);
    }
    expect(rows.map((r) => r.answer)).toEqual(["followup:answers:hours,parking,vouchers"]);
  } finally {
    await sql.close();
  }
}, 30_000);

test("第二个 reaching another instance picks from the tag's list the first sent, and 换一个 its next entry", async () => {
  suite.db = db = await testDatabase();
  const [a, b] = [await instance(), await instance()];
  await seeded(a, b);
  const tagged = [{ ...(SHOP[0] as object), tag: "shop", code: "h1" }, { ...(SHOP[2] as object), tag: "shop" }];
  const req = signedRequest("POST", "/api/cli", { fields: [["mode", "merge"]], files: [{ name: "json", content: doc(tagged, { matter: "articles" }) }], nowMs: Date.now() });
  expect((await fetch(a.url + new URL(req.url).pathname, { method: "POST", headers: req.headers, body: await req.arrayBuffer() })).status).toBe(200);
  // The list shows the article without a code by its link.
  let listed: string[] = [];
  for (let i = 0; i < 200 && !listed.length; i++) {
    listed = await say(b, "o_probe", "shop");
    if (!listed.length) await Bun.sleep(25);
  }
  expect(listed).toEqual(["parking"]);
  expect(await say(a, "o_follower", "shop")).toEqual(["parking"]);
  // Listed: hours (h1), then parking without a code.
  expect(await say(b, "o_follower", "第二个")).toEqual(["parking"]);
  expect(await say(a, "o_follower", "第一个")).toEqual(["hours"]);
  // The picks are the turn's, in Redis: 换一个 at A is the entry after the one picked at B.
  expect(await say(a, "o_follower", "shop")).toEqual(["parking"]);
  expect(await say(b, "o_follower", "第一个")).toEqual(["hours"]);
  expect(await say(a, "o_follower", "换一个")).toEqual(["parking"]);
}, 30_000);

test("a follow-up reaching another instance after a code is read with the code's article", async () => {
  suite.db = db = await testDatabase();
  const [a, b] = [await instance(), await instance()];
  await seeded(a, b);
  const coded = [{ ...(SHOP[2] as object), code: "3" }];
  const req = signedRequest("POST", "/api/cli", { fields: [["mode", "merge"]], files: [{ name: "json", content: doc(coded, { matter: "articles" }) }], nowMs: Date.now() });
  expect((await fetch(a.url + new URL(req.url).pathname, { method: "POST", headers: req.headers, body: await req.arrayBuffer() })).status).toBe(200);
  let got: string[] = [];
  for (let i = 0; i < 200 && got[0] !== "parking"; i++) {
    got = await say(b, "o_probe", "3");
    if (got[0] !== "parking") await Bun.sleep(25);
  }
  expect(got).toEqual(["parking"]);
  // Alone, 春熙路店 is the opening hours' first.
  expect((await say(b, "o_alone", "春熙路店呢"))[0]).toBe("hours");
  expect(await say(a, "o_follower", "回复3")).toEqual(["parking"]);
  // The code's mark is written beside the reply, not before it: a follower's next message comes after it lands.
  const raw = new RedisClient(suite.redis.url);
  try {
    for (let i = 0; i < 200 && !(await raw.get(DEFAULT_KEYS.coded("o_follower"))); i++) await Bun.sleep(5);
  } finally {
    raw.close();
  }
  expect((await say(b, "o_follower", "春熙路店呢"))[0]).toBe("parking");
}, 30_000);

test("Redis away: a follow-up at the instance that answered the question is read with it from its memory; at another instance, alone", async () => {
  suite.db = db = await testDatabase();
  const [a, b] = [await instance(), await instance()];
  await seeded(a, b);
  suite.redis.halt();
  try {
    expect(await say(a, "o_follower", "营业到几点")).toEqual(["hours"]);
    expect((await say(a, "o_follower", "周末呢"))[0]).toBe("hours");
    expect(await say(a, "o_second", "营业到几点")).toEqual(["hours"]);
    expect((await say(b, "o_second", "周末呢"))[0]).not.toBe("hours");
    // Health says so.
    const req = signedRequest("GET", "/api/cli", { nowMs: Date.now() });
    const health = (await (await fetch(a.url + "/api/cli?" + new URL(req.url).search.slice(1), { headers: req.headers })).json()) as { data: { cluster: { conversations_alone: number } } };
    expect(health.data.cluster.conversations_alone).toBeGreaterThanOrEqual(4);
  } finally {
    await suite.redis.resume();
  }
}, 30_000);
