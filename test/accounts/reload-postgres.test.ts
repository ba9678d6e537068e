/**
 * Reloading the accounts of a server whose data is in PostgreSQL (issue 36 B): an account added
 * gets a schema of its own and answers, one removed answers 404 and its schema stays, a message in
 * flight at the removed one is answered and logged once in its own schema. The same reload as on
 * SQLite (reload.test.ts), through the accounts server both stores open accounts with.
 */
import { afterAll, expect, test } from "bun:test";
import { SQL } from "bun";
import { startServer } from "../../src/server/serve.ts";
import type { DeclaredAccount } from "../../src/account/settings.ts";
import type { Inbound } from "../../src/wechat/door/message.ts";
import { wxSignature } from "../../src/wechat/door/crypto.ts";
import { serveOpts, tempDir } from "../helpers.ts";
import { testDatabase } from "../pg.ts";
import { TOKEN } from "../wechat/helpers.ts";

const tmp = tempDir("replyd-reload-pg-");
let drop: (() => Promise<void>) | null = null;
afterAll(async () => {
  await drop?.();
  tmp.cleanup();
});

const account = (name: string): DeclaredAccount => ({ name, wechat: { token: TOKEN, path: `/wechat/${name}` } });

let sent = 0;
async function message(url: string, path: string, content: string) {
  const now = Math.floor(Date.now() / 1000);
  const timestamp = String(now);
  const nonce = String(++sent + 2e9);
  const q = new URLSearchParams({ timestamp, nonce, openid: "o_f", signature: wxSignature(TOKEN, timestamp, nonce) });
  const xml = `<xml><ToUserName><![CDATA[gh_x]]></ToUserName><FromUserName><![CDATA[o_f]]></FromUserName><CreateTime>${now}</CreateTime><MsgType><![CDATA[text]]></MsgType><Content><![CDATA[${content}]]></Content><MsgId>${3e6 + sent}</MsgId></xml>`;
  const res = await fetch(`${url}${path}?${q}`, { method: "POST", body: xml, headers: { "content-type": "text/xml" } });
  return { status: res.status, body: await res.text() };
}

test("on PostgreSQL an account added answers from a schema of its own, one removed answers 404 and keeps its schema, its message in flight logged once", async () => {
  const db = await testDatabase();
  drop = db.drop;
  const responder = {
    async respond(m: Inbound) {
      await Bun.sleep(m.content === "blog-1" ? 400 : 0);
      return { reply: { type: "text" as const, content: `re ${m.content}` }, answer: "none", unmatched: false };
    },
  };
  const base = serveOpts(tmp.dir, {
    db: db.url,
    keep: 5,
    wechat: { path: "/wechat" },
    env: { REPLYD_APPKEY: "reloadadmin", REPLYD_SECRET: "reload-admin-secret-0123456789" },
    responder,
  });
  const server = await startServer({ ...base, accounts: [account("shop"), account("blog")] });
  const sql = new SQL(db.url);
  try {
    const url = server.url;
    expect((await message(url, "/wechat/news", "n0")).status).toBe(404);
    const inFlight = message(url, "/wechat/blog", "blog-1");
    await Bun.sleep(100);
    expect(await server.reload(() => ({ ...base, accounts: [account("shop"), account("news")] }))).toEqual({ ok: true, added: ["news"], changed: [], removed: ["blog"], unchanged: ["shop"] });
    expect(await inFlight).toMatchObject({ status: 200, body: expect.stringContaining("re blog-1") });
    const news = await message(url, "/wechat/news", "n1");
    expect(news).toMatchObject({ status: 200, body: expect.stringContaining("re n1") });
    expect((await message(url, "/wechat/blog", "b2")).status).toBe(404);
    await server.stop();
    const schemas = ((await sql`SELECT nspname FROM pg_namespace WHERE nspname LIKE 'replyd_acct_%' ORDER BY nspname`) as { nspname: string }[]).map((r) => r.nspname);
    expect(schemas).toEqual(["replyd_acct_blog", "replyd_acct_news", "replyd_acct_shop"]);
    const contents = async (schema: string) => ((await sql.unsafe(`SELECT content FROM ${schema}.messages ORDER BY seq`)) as { content: string }[]).map((r) => r.content);
    expect(await contents("replyd_acct_blog")).toEqual(["blog-1"]);
    expect(await contents("replyd_acct_news")).toEqual(["n1"]);
    expect(await contents("replyd_acct_shop")).toEqual([]);
  } finally {
    await server.stop();
    await sql.close();
  }
});
