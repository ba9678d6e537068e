/**
 * The callbacks of a server with several accounts (issue 36 B): each at /wechat/NAME, answered
 * from its own account's content only; with wx-id set, another account's message is refused; the
 * same MsgId at two accounts is two messages.
 */
import { afterEach, expect, test } from "bun:test";
import { parseXml, type XmlNode } from "../../src/wechat/door/xml.ts";
import { article, testApp } from "../helpers.ts";
import { textMsg, TOKEN, wxPost } from "../wechat/helpers.ts";
import { NOW, SHOP_ID, twoAccounts } from "./harness.ts";

let t: Awaited<ReturnType<typeof twoAccounts>> | null = null;
afterEach(async () => {
  await t?.close();
  t = null;
});

const TEXTS = (who: string) => ({ texts: { fallback: `${who} does not know that` }, rules: [{ id: "hi", match: "exact", pattern: "hello", reply: { type: "text", text: `hello from ${who}` } }] });

async function loaded(o: Parameters<typeof twoAccounts>[0] = {}) {
  t = await twoAccounts(o);
  expect((await t.load("shop", [article(1, { code: "c1", title: "Shop returns" })], TEXTS("shop"))).status).toBe(200);
  expect((await t.load("blog", [article(2, { code: "c2", title: "Blog post" })], TEXTS("blog"))).status).toBe(200);
  return t;
}

/** A follower's text posted to `path`, its reply read (null when not 200 or "success"). */
async function say(path: string, content: string, msgId?: string): Promise<{ status: number; xml: XmlNode | null }> {
  const res = await (t as NonNullable<typeof t>).app.handle(wxPost(textMsg(content, NOW, msgId), NOW, { path }));
  const text = await res.text();
  return { status: res.status, xml: res.status === 200 && text !== "success" ? parseXml(text) : null };
}
const content = (x: XmlNode | null) => JSON.stringify(x);

test("each callback answers from its own account's articles, rules and texts only", async () => {
  await loaded();
  expect(content((await say("/wechat/shop", "c1")).xml)).toContain("Shop returns");
  expect(content((await say("/wechat/blog", "c1")).xml)).toContain("blog does not know that");
  expect(content((await say("/wechat/blog", "c2")).xml)).toContain("Blog post");
  expect(content((await say("/wechat/shop", "c2")).xml)).toContain("shop does not know that");
  expect(content((await say("/wechat/shop", "hello")).xml)).toContain("hello from shop");
  expect(content((await say("/wechat/blog", "hello")).xml)).toContain("hello from blog");
  // No account answers at the single account's path.
  expect((await say("/wechat", "c1")).status).toBe(404);
});

test("with wx-id set, a message to another account's id is refused and logged, and nothing is logged as a message", async () => {
  await loaded({ shopId: SHOP_ID, blogId: "gh_blog0000000" });
  // textMsg is addressed to SHOP_ID: shop answers it, blog refuses it.
  expect(content((await say("/wechat/shop", "c1")).xml)).toContain("Shop returns");
  const refused = await say("/wechat/blog", "c2");
  expect(refused.status).toBe(403);
  expect(t?.logged.join("\n")).toContain("account blog: wechat callback refused (wrong_account)");
  await t?.blog.write.log.settled();
  expect((await t?.blog.write.log.list({ only: null, limit: 10, offset: 0 }))?.total).toBe(0);
});

test("without wx-id, the account answers whatever ToUserName says (as a single account does)", async () => {
  await loaded();
  expect((await say("/wechat/blog", "c2")).status).toBe(200);
});

test("the same MsgId at two accounts is two messages, each answered and logged by its account", async () => {
  await loaded();
  const a = await say("/wechat/shop", "c1", "777000");
  const b = await say("/wechat/blog", "c2", "777000");
  expect(content(a.xml)).toContain("Shop returns");
  expect(content(b.xml)).toContain("Blog post");
  // Sent again, each account answers its own first answer (the platform's resend), not the other's.
  expect(content((await say("/wechat/blog", "c2", "777000")).xml)).toContain("Blog post");
  for (const [store, n] of [
    [t?.shop, 1],
    [t?.blog, 1],
  ] as const) {
    await store?.write.log.settled();
    expect((await store?.write.log.list({ only: null, limit: 10, offset: 0 }))?.total).toBe(n);
  }
});

test("--wx-id on a server without accounts: its one account refuses a message to another id", async () => {
  const logged: string[] = [];
  const one = await testApp({ wechat: { token: TOKEN, id: "gh_other000000" }, logError: (m) => logged.push(m) });
  try {
    const res = await one.handle(wxPost(textMsg("c1", NOW), NOW));
    expect(res.status).toBe(403);
    expect(logged.join("\n")).toContain("wechat callback refused (wrong_account)");
    const right = await testApp({ wechat: { token: TOKEN, id: SHOP_ID } });
    expect((await right.handle(wxPost(textMsg("c1", NOW), NOW))).status).toBe(200);
    right.close();
  } finally {
    one.close();
  }
});

test("a callback at the bare wx-path or an undeclared account's is 404 and logged, a line per interval per reason; a path no account could have is not logged", async () => {
  const s = await loaded();
  const noted = (code: string) => s.logged.filter((l) => l.includes(`(${code})`));
  for (const path of ["/wechat", "/wechat/nope", "/wechat/%1b%5b2J", "/wechat/favicon.ico"]) expect({ path, status: (await say(path, "hello")).status }).toEqual({ path, status: 404 });
  expect(noted("bare_path")).toEqual(["wechat callback refused (bare_path): a callback at the wx-path itself: a server of several accounts answers each at wx-path/NAME (/wechat/shop) — is the console's URL still the one of the server before it took several accounts? — /wechat"]);
  expect(noted("no_account")).toEqual(["wechat callback refused (no_account): no account of that name is declared: is the console's URL the account's, and the account in [accounts] (reloaded)? — /wechat/nope"]);
  s.clock.advance(10_001);
  expect((await say("/wechat/other", "hello")).status).toBe(404);
  expect(noted("no_account")[1]).toBe("wechat callback refused (no_account): no account of that name is declared: is the console's URL the account's, and the account in [accounts] (reloaded)? — /wechat/other");
  expect(s.logged.join("\n")).not.toContain("\u001b");
  expect(s.logged.join("\n")).not.toContain("favicon");
});
