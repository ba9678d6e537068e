/**
 * Reloading the accounts of a listening server (issue 36 B, SIGHUP / serve --reload): an account
 * added answers, a changed one takes its new settings, a removed one answers 404 and keeps its
 * folder; settings that do not parse, or a server-wide setting changed, change nothing; messages
 * in flight across a reload are answered and logged exactly once.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { ServeOptions } from "../../src/server/serve-options.ts";
import { startServer, type RunningServer } from "../../src/server/serve.ts";
import type { DeclaredAccount } from "../../src/account/settings.ts";
import type { Inbound } from "../../src/wechat/door/message.ts";
import { wxSignature } from "../../src/wechat/door/crypto.ts";
import { serveOpts, tempDir } from "../helpers.ts";
import { Client } from "../../src/cli/client.ts";
import { silentIO } from "../../src/cli/io.ts";
import { TOKEN } from "../wechat/helpers.ts";
import { startFakeModel } from "../model/fake.ts";

let cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.reverse()) await c();
  cleanups = [];
});

const account = (name: string, more: Partial<DeclaredAccount["wechat"]> = {}): DeclaredAccount => ({ name, wechat: { token: TOKEN, path: `/wechat/${name}`, ...more } });

/** Every message the responder is asked, by content: a message answered twice shows as 2. */
function countingResponder(delayMs: number) {
  const asked = new Map<string, number>();
  return {
    asked,
    responder: {
      async respond(m: Inbound) {
        asked.set(m.content ?? "", (asked.get(m.content ?? "") ?? 0) + 1);
        await Bun.sleep(delayMs);
        return { reply: { type: "text" as const, content: `re ${m.content}` }, answer: "none", unmatched: false };
      },
    },
  };
}

async function serve(accounts: DeclaredAccount[], delayMs = 0) {
  const { dir, cleanup } = tempDir("replyd-reload-");
  const lines: string[] = [];
  const counting = countingResponder(delayMs);
  const base = serveOpts(dir, {
    keep: 5,
    wechat: { path: "/wechat" },
    env: { REPLYD_APPKEY: "reloadadmin", REPLYD_SECRET: "reload-admin-secret-0123456789" },
    log: (line) => lines.push(line),
    responder: counting.responder,
  });
  const server: RunningServer = await startServer({ ...base, accounts });
  cleanups.push(async () => {
    await server.stop();
    cleanup();
  });
  const options = (next: DeclaredAccount[], more: Partial<ServeOptions> = {}) => ({ ...base, accounts: next, ...more });
  return { server, dir, lines, asked: counting.asked, options };
}

let sent = 0;
/** A follower's plain message to `path`, signed with `token`; answers the status and the body. */
async function message(url: string, path: string, content: string, token = TOKEN, signal?: AbortSignal) {
  const now = Math.floor(Date.now() / 1000);
  const timestamp = String(now);
  const nonce = String(++sent + 1e9);
  const q = new URLSearchParams({ timestamp, nonce, openid: "o_f", signature: wxSignature(token, timestamp, nonce) });
  const xml = `<xml><ToUserName><![CDATA[gh_x]]></ToUserName><FromUserName><![CDATA[o_f]]></FromUserName><CreateTime>${now}</CreateTime><MsgType><![CDATA[text]]></MsgType><Content><![CDATA[${content}]]></Content><MsgId>${1e6 + sent}</MsgId></xml>`;
  const res = await fetch(`${url}${path}?${q}`, { method: "POST", body: xml, headers: { "content-type": "text/xml" }, signal });
  return { status: res.status, body: await res.text() };
}

/** The contents an account's message log holds (read from its database, after the server stopped). */
function logged(dir: string, name: string): string[] {
  const db = new Database(join(dir, "accounts", name, "replyd.db"), { readonly: true });
  try {
    return (db.query("SELECT content FROM messages ORDER BY seq").all() as { content: string }[]).map((r) => r.content);
  } finally {
    db.close();
  }
}

describe("reload", () => {
  test("an account added answers at its path; one removed answers 404 and its folder stays; one changed takes its new token", async () => {
    const s = await serve([account("shop"), account("blog")]);
    const url = s.server.url;
    expect((await message(url, "/wechat/news", "n1")).status).toBe(404);
    const outcome = await s.server.reload(() => s.options([account("shop", { token: "newtoken" }), account("news")]));
    expect(outcome).toEqual({ ok: true, added: ["news"], changed: ["shop"], removed: ["blog"], unchanged: [] });
    const news = await message(url, "/wechat/news", "n2");
    expect(news.status).toBe(200);
    expect(news.body).toContain("re n2");
    expect((await message(url, "/wechat/blog", "b1")).status).toBe(404);
    expect(existsSync(join(s.dir, "accounts", "blog", "replyd.db"))).toBe(true);
    expect((await message(url, "/wechat/shop", "s-old")).status).not.toBe(200);
    const shop = await message(url, "/wechat/shop", "s-new", "newtoken");
    expect(shop.status).toBe(200);
    expect(shop.body).toContain("re s-new");
    expect(s.lines.some((l) => l.includes('"event":"reloaded"') && l.includes('"added":["news"]'))).toBe(true);
  });

  test("a changed wx-id applies at once: a message to another id is refused wrong_account, one to it answered", async () => {
    const s = await serve([account("shop")]);
    expect((await message(s.server.url, "/wechat/shop", "before")).status).toBe(200);
    expect(await s.server.reload(() => s.options([account("shop", { id: "gh_shop" })]))).toMatchObject({ ok: true, changed: ["shop"] });
    // message() addresses gh_x.
    expect((await message(s.server.url, "/wechat/shop", "after")).status).toBe(403);
    await Bun.sleep(50);
    expect(s.lines.some((l) => l.includes("account shop: wechat callback refused (wrong_account)"))).toBe(true);
    expect(await s.server.reload(() => s.options([account("shop", { id: "gh_x" })]))).toMatchObject({ ok: true, changed: ["shop"] });
    expect((await message(s.server.url, "/wechat/shop", "again")).status).toBe(200);
  });

  test("changed model settings apply: an account given ai-url has generated answers from the reload on, and none once it is taken away", async () => {
    const s = await serve([account("shop")]);
    const client = new Client({ url: s.server.url, appkey: "reloadadmin", secret: "reload-admin-secret-0123456789" }, silentIO(s.dir));
    const generated = async () =>
      ((await client.call({ method: "GET", path: "/api/cli/accounts", serverWide: true })) as { accounts: { name: string; generated_answers: string }[] }).accounts.map((a) => [a.name, a.generated_answers]);
    expect(await generated()).toEqual([["shop", "not configured"]]);
    const ai = { endpoint: { base: "http://127.0.0.1:9/v1", model: "m-1", key: "sk-reload-0123456789", timeoutMs: 2000 }, caps: { perFollower: 3, perMinute: 10, daily: 100, concurrency: 2 } };
    expect(await s.server.reload(() => s.options([{ ...account("shop"), ai }]))).toMatchObject({ ok: true, changed: ["shop"] });
    expect(await generated()).toEqual([["shop", "configured"]]);
    expect(await s.server.reload(() => s.options([account("shop")]))).toMatchObject({ ok: true, changed: ["shop"] });
    expect(await generated()).toEqual([["shop", "not configured"]]);
    expect(s.lines.join("\n")).not.toContain("sk-reload");
  });

  test("settings that no longer parse change nothing and are logged", async () => {
    const s = await serve([account("shop")]);
    const outcome = await s.server.reload(() => {
      throw new Error("replyd.toml: line 3: expected a value");
    });
    expect(outcome.ok).toBe(false);
    expect(outcome.error).toContain("line 3");
    expect((await message(s.server.url, "/wechat/shop", "still")).status).toBe(200);
    expect(s.lines.some((l) => l.includes("reload refused, nothing changed") && l.includes("line 3"))).toBe(true);
  });

  test("a server-wide setting changed (the port) refuses the whole reload: the account added with it is not", async () => {
    const s = await serve([account("shop")]);
    const outcome = await s.server.reload(() => s.options([account("shop"), account("news")], { port: 1 }));
    expect(outcome.ok).toBe(false);
    expect(outcome.error).toContain("port changed");
    expect((await message(s.server.url, "/wechat/news", "n")).status).toBe(404);
    expect(existsSync(join(s.dir, "accounts", "news"))).toBe(false);
  });

  test("a message in flight at an account changed or removed is answered and logged once, by the account it reached", async () => {
    const s = await serve([account("shop"), account("blog")], 400);
    const url = s.server.url;
    const inFlight = [message(url, "/wechat/shop", "shop-1"), message(url, "/wechat/blog", "blog-1")];
    await Bun.sleep(100);
    const reloaded = await s.server.reload(() => s.options([account("shop", { appid: "wx0000000000000001" })]));
    expect(reloaded).toMatchObject({ ok: true, changed: ["shop"], removed: ["blog"] });
    const [shop, blog] = await Promise.all(inFlight);
    expect(shop).toMatchObject({ status: 200 });
    expect(shop?.body).toContain("re shop-1");
    expect(blog).toMatchObject({ status: 200 });
    expect(blog?.body).toContain("re blog-1");
    await s.server.stop();
    expect(logged(s.dir, "shop")).toEqual(["shop-1"]);
    expect(logged(s.dir, "blog")).toEqual(["blog-1"]);
  });

  test("a resend of a message in flight at a changed account gets the first answer, not a second one", async () => {
    const s = await serve([account("shop")], 400);
    const url = s.server.url;
    const now = Math.floor(Date.now() / 1000);
    const xml = `<xml><ToUserName><![CDATA[gh_x]]></ToUserName><FromUserName><![CDATA[o_f]]></FromUserName><CreateTime>${now}</CreateTime><MsgType><![CDATA[text]]></MsgType><Content><![CDATA[resent]]></Content><MsgId>4242</MsgId></xml>`;
    const post = (nonce: string) =>
      fetch(`${url}/wechat/shop?${new URLSearchParams({ timestamp: String(now), nonce, signature: wxSignature(TOKEN, String(now), nonce) })}`, { method: "POST", body: xml }).then((r) => r.text());
    const first = post("1");
    await Bun.sleep(100);
    await s.server.reload(() => s.options([account("shop", { appid: "wx0000000000000002" })]));
    const [a, b] = await Promise.all([first, post("2")]);
    expect(a).toContain("re resent");
    expect(b).toBe(a);
    expect(s.asked.get("resent")).toBe(1);
  });

  test("under a follower load across three reloads no answer fails or is doubled, and every message is logged once", async () => {
    const s = await serve([account("shop"), account("blog")], 5);
    const url = s.server.url;
    let running = true;
    const results: { path: string; content: string; status: number; body: string }[] = [];
    const follower = async (n: number) => {
      for (let i = 0; running; i++) {
        const path = i % 2 ? "/wechat/shop" : "/wechat/blog";
        const content = `f${n}-${i}`;
        results.push({ path, content, ...(await message(url, path, content)) });
      }
    };
    const load = [0, 1, 2, 3, 4, 5].map(follower);
    await Bun.sleep(150);
    for (let i = 0; i < 3; i++) {
      const outcome = await s.server.reload(() => s.options([account("shop", { appid: `wx000000000000001${i}` }), account("blog", { appid: `wx000000000000002${i}` })]));
      expect(outcome).toMatchObject({ ok: true, changed: ["shop", "blog"] });
      await Bun.sleep(100);
    }
    running = false;
    await Promise.all(load);
    await s.server.stop();
    expect(results.length).toBeGreaterThan(30);
    expect(results.filter((r) => r.status !== 200 || !r.body.includes(`re ${r.content}`))).toEqual([]);
    expect([...s.asked.values()].filter((n) => n !== 1)).toEqual([]);
    const shop = logged(s.dir, "shop");
    const blog = logged(s.dir, "blog");
    expect(shop.length + blog.length).toBe(results.length);
    expect(new Set([...shop, ...blog]).size).toBe(results.length);
    expect(shop.every((c) => results.find((r) => r.content === c)?.path === "/wechat/shop")).toBe(true);
  });
});

describe("reload with a model", () => {
  test("an account removed while its model is writing an answer: the message and the given-up call are in its folder once the reload resolves", async () => {
    const KEY = "sk-reload-model-0123456789";
    const model = startFakeModel(KEY, { delayMs: 20_000 });
    const { dir, cleanup } = tempDir("replyd-reload-ai-");
    const ai = { endpoint: { base: model.base, model: "fake-1", key: KEY, timeoutMs: 30_000 }, caps: { perFollower: 10, perMinute: 1000, daily: 1000, concurrency: 10 } };
    const base = serveOpts(dir, { keep: 5, env: { REPLYD_APPKEY: "reloadadmin", REPLYD_SECRET: "reload-admin-secret-0123456789" }, log: () => {} });
    const server = await startServer({ ...base, accounts: [account("shop"), { ...account("blog"), ai }] });
    cleanups.push(async () => {
      await server.stop();
      model.stop();
      cleanup();
    });
    const client = new Client({ url: server.url, appkey: "reloadadmin", secret: "reload-admin-secret-0123456789", account: "blog" }, silentIO(dir));
    const articles = [{ id: "refund", title: "售后政策", url: "https://example.com/refund", body: "本店支持七天无理由退货。签收后七天内在订单页面申请退款，三个工作日内原路退回。" }];
    const bytes = new TextEncoder().encode(JSON.stringify({ format: "replyd/1", matter: "articles", articles }));
    await client.call({ method: "POST", path: "/api/cli", fields: [["mode", "merge"]], files: [{ name: "json", filename: "a.json", bytes }] });
    // The platform closes a delivery it waited 5 s for; here at once, once the model is asked.
    const platformGivesUp = new AbortController();
    const held = message(server.url, "/wechat/blog", "不想要了，还能申请退款吗？", TOKEN, platformGivesUp.signal).catch((e: Error) => e.name);
    for (let i = 0; i < 200 && model.requests.length === 0; i++) await Bun.sleep(25);
    expect(model.requests.length).toBe(1);
    platformGivesUp.abort();
    expect(await held).toBe("AbortError");
    expect(await server.reload(() => ({ ...base, accounts: [account("shop")] }))).toMatchObject({ ok: true, removed: ["blog"] });
    // Read while the server still runs: the removed account's store is closed, its folder whole.
    const db = new Database(join(dir, "accounts", "blog", "replyd.db"), { readonly: true });
    try {
      expect((db.query("SELECT content, answer FROM messages").all() as { content: string; answer: string }[]).map((r) => [r.content, r.answer])).toEqual([["不想要了，还能申请退款吗？", "answer:refund"]]);
      expect((db.query("SELECT outcome FROM generated").all() as { outcome: string }[]).map((r) => r.outcome)).toEqual([expect.stringMatching(/^failed:/)]);
    } finally {
      db.close();
    }
  }, 30_000);
});
