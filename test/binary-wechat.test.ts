/** dist/replyd as the platform sees it: a real socket, a numeric token, safe mode; media and inbox from the binary client. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { wxSignature } from "../src/wechat/door/crypto.ts";
import { BIN, buildIfMissing, runCleanups, spawnServer, type Cleanups } from "./binary-server.ts";
import { article, tempDir } from "./helpers.ts";
import { AESKEY, APPID, openReply, textMsg } from "./wechat/helpers.ts";
// @ts-expect-error: untyped peer
import WXBizMsgCrypt from "wechat-crypto";

const TOKEN = "20261121"; // digits only: must reach the server as text, not as a number
const ENV = { REPLYD_APPKEY: "ops", REPLYD_SECRET: "0123456789abcdef0123" };
let tmp: ReturnType<typeof tempDir>;
let url = "";
const cleanups: Cleanups = [];

const run = (args: string[]) => {
  const p = Bun.spawnSync([BIN, ...args], { cwd: tmp.dir, env: { PATH: process.env.PATH ?? "", REPLYD_URL: url, ...ENV } });
  return { code: p.exitCode, out: p.stdout.toString(), err: p.stderr.toString() };
};

beforeAll(async () => {
  buildIfMissing();
  tmp = tempDir("replyd-binwx-");
  cleanups.push(tmp.cleanup);
  url = (await spawnServer(["--data", "data", "--host", "127.0.0.1", "--port", "0", "--wx-token", TOKEN, "--wx-aeskey", AESKEY, "--wx-appid", APPID], { cwd: tmp.dir, env: ENV, cleanups, ms: 15_000 })).url;
  writeFileSync(join(tmp.dir, "a.json"), JSON.stringify([article(1, { code: "fv3", title: "Founder's view 3" })]));
  expect(run(["import", "a.json"]).code).toBe(0);
});

afterAll(() => runCleanups(cleanups));

describe("dist/replyd as the callback server", () => {
  test("URL verification with a digits-only token", async () => {
    const ts = String(Math.floor(Date.now() / 1000));
    const res = await fetch(`${url}/wechat?signature=${wxSignature(TOKEN, ts, "9")}&timestamp=${ts}&nonce=9&echostr=abc`);
    expect(await res.text()).toBe("abc");
  });

  test("an encrypted message over a real socket gets an encrypted news reply the peer can open", async () => {
    const peer = new WXBizMsgCrypt(TOKEN, AESKEY, APPID);
    const ts = String(Math.floor(Date.now() / 1000));
    const encrypted = peer.encrypt(textMsg("fv3", Number(ts)));
    const q = new URLSearchParams({ timestamp: ts, nonce: "5", signature: wxSignature(TOKEN, ts, "5"), encrypt_type: "aes", msg_signature: peer.getSignature(ts, "5", encrypted) });
    const res = await fetch(`${url}/wechat?${q}`, { method: "POST", body: `<xml><Encrypt><![CDATA[${encrypted}]]></Encrypt></xml>` });
    const inner = openReply(await res.text(), peer);
    expect(inner).toMatchObject({ MsgType: "news", ArticleCount: "1" });
  });

  test("a regex rule and a search run on the binary's worker threads; the search finds by a word of the title", async () => {
    writeFileSync(join(tmp.dir, "r.json"), JSON.stringify({ format: "replyd/1", matter: "rules", rules: [{ id: "order", match: "regex", pattern: "^order\\s*#?\\d{4,}$", reply: { type: "text", text: "Order received" } }] }));
    expect(run(["import", "r.json"]).code).toBe(0);
    const peer = new WXBizMsgCrypt(TOKEN, AESKEY, APPID);
    const say = async (text: string, nonce: string) => {
      const ts = String(Math.floor(Date.now() / 1000));
      const encrypted = peer.encrypt(textMsg(text, Number(ts)));
      const q = new URLSearchParams({ timestamp: ts, nonce, signature: wxSignature(TOKEN, ts, nonce), encrypt_type: "aes", msg_signature: peer.getSignature(ts, nonce, encrypted) });
      const res = await fetch(`${url}/wechat?${q}`, { method: "POST", body: `<xml><Encrypt><![CDATA[${encrypted}]]></Encrypt></xml>` });
      return openReply(await res.text(), peer);
    };
    expect(await say("order #12345", "71")).toMatchObject({ MsgType: "text", Content: "Order received" });
    expect(await say("s founder", "72")).toMatchObject({ MsgType: "news", ArticleCount: "1" });
    // A question in plain words, answered from a body given as a file, ranked on the worker.
    writeFileSync(join(tmp.dir, "ship.html"), "<p>全国包邮，新疆西藏除外。</p><p>下单后四十八小时内发货，顺丰快递配送，一般三天送达。</p>");
    expect(run(["add", "id=ship", "title=配送说明", "url=https://example.com/ship", "body=@ship.html"]).code).toBe(0);
    const answer = await say("多久能送到？是顺丰吗", "73");
    expect(answer).toMatchObject({ MsgType: "news", ArticleCount: "1" });
    expect(JSON.stringify(answer)).toContain("顺丰快递配送");
    const asked = run(["ask", "多久能送到？是顺丰吗", "--json"]);
    expect(asked.code).toBe(0);
    expect(JSON.parse(asked.out)).toMatchObject({ answer: "answer:ship", articles: [{ id: "ship" }] });
    // The terminal form says what decides relevance: the share held, and the head's (配送 is in the title).
    const shown = run(["ask", "配送要多久"]);
    expect(shown.out).toMatch(/1\. 配送说明  \[ship\]  score [\d.]+ \([\d.]+ of it from the title, keywords and questions\), holds \d+% of the question, its title, keywords and questions [1-9]\d*%/);
  });

  test("safe mode refuses a plaintext message; the same message encrypted shows up in replyd inbox", async () => {
    const ts = String(Math.floor(Date.now() / 1000));
    const plainQ = new URLSearchParams({ timestamp: ts, nonce: "6", signature: wxSignature(TOKEN, ts, "6") });
    expect((await fetch(`${url}/wechat?${plainQ}`, { method: "POST", body: textMsg("where is my parcel", Number(ts)) })).status).toBe(401);
    const peer = new WXBizMsgCrypt(TOKEN, AESKEY, APPID);
    const encrypted = peer.encrypt(textMsg("where is my parcel", Number(ts)));
    const q = new URLSearchParams({ timestamp: ts, nonce: "7", signature: wxSignature(TOKEN, ts, "7"), encrypt_type: "aes", msg_signature: peer.getSignature(ts, "7", encrypted) });
    const res = await fetch(`${url}/wechat?${q}`, { method: "POST", body: `<xml><Encrypt><![CDATA[${encrypted}]]></Encrypt></xml>` });
    expect(openReply(await res.text(), peer).MsgType).toBe("text");
    const inbox = run(["inbox", "--json"]);
    expect(inbox.code).toBe(0);
    expect(JSON.parse(inbox.out).items[0]).toMatchObject({ content: "where is my parcel", unmatched: true });
  });

  test("a follower's C1 control character (allowed by XML) is printed escaped by replyd inbox, never raw", async () => {
    const ts = String(Math.floor(Date.now() / 1000));
    const peer = new WXBizMsgCrypt(TOKEN, AESKEY, APPID);
    const encrypted = peer.encrypt(textMsg("csi \u009b2J here", Number(ts)));
    const q = new URLSearchParams({ timestamp: ts, nonce: "8", signature: wxSignature(TOKEN, ts, "8"), encrypt_type: "aes", msg_signature: peer.getSignature(ts, "8", encrypted) });
    expect((await fetch(`${url}/wechat?${q}`, { method: "POST", body: `<xml><Encrypt><![CDATA[${encrypted}]]></Encrypt></xml>` })).status).toBe(200);
    const human = run(["inbox"]);
    expect(human.code).toBe(0);
    expect(human.out).toContain("csi \\u009b2J here");
    expect(human.out).not.toContain("\u009b");
    const json = run(["inbox", "--json"]);
    expect(json.out).not.toContain("\u009b");
    expect(JSON.parse(json.out).items[0].content).toBe("csi \u009b2J here");
  });

  test("a follow-up of a few words is ranked with the follower's question before it; replyd inbox says so", async () => {
    const link = (id: string) => `https://example.com/${id}`;
    const shop = [
      { id: "hours", title: "营业时间", url: link("hours"), body: "春熙路店每天11:00到次日2:00营业，东郊店11:00到23:00营业。全年无休，最后点单在打烊前半小时。" },
      { id: "vouchers", title: "团购券使用规则", url: link("vouchers"), body: "代金券每桌最多使用2张。周末和法定节假日是否可用，请看券面说明。团购券不和会员价同时使用。" },
      { id: "parking", title: "停车说明", url: link("parking"), body: "春熙路店使用商场地下停车场，消费满200元免费停车2小时。周末车位紧张，建议坐地铁来。" },
    ];
    writeFileSync(join(tmp.dir, "shop.json"), JSON.stringify(shop));
    expect(run(["import", "shop.json"]).code).toBe(0);
    const peer = new WXBizMsgCrypt(TOKEN, AESKEY, APPID);
    const say = async (text: string, nonce: string) => {
      const ts = String(Math.floor(Date.now() / 1000));
      const encrypted = peer.encrypt(textMsg(text, Number(ts)));
      const q = new URLSearchParams({ timestamp: ts, nonce, signature: wxSignature(TOKEN, ts, nonce), encrypt_type: "aes", msg_signature: peer.getSignature(ts, nonce, encrypted) });
      const res = await fetch(`${url}/wechat?${q}`, { method: "POST", body: `<xml><Encrypt><![CDATA[${encrypted}]]></Encrypt></xml>` });
      return JSON.stringify(openReply(await res.text(), peer));
    };
    expect(await say("营业到几点", "81")).toContain("https://example.com/hours");
    expect(await say("周末呢", "82")).toContain("https://example.com/hours");
    const inbox = JSON.parse(run(["inbox", "--all", "--json"]).out).items as { content: string; answer: string }[];
    // The opening hours first, in a list: on three articles not sure enough to go alone (issue 34 C).
    expect(inbox.find((m) => m.content === "周末呢")?.answer).toBe("followup:answers:hours,parking,vouchers");
  });

  test("media put prints a URL that serves the image over the socket", async () => {
    const png = Uint8Array.from(atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="), (c) => c.charCodeAt(0));
    writeFileSync(join(tmp.dir, "cover.png"), png);
    const r = run(["media", "put", "cover.png", "--json"]);
    expect(r.code).toBe(0);
    const media = JSON.parse(r.out);
    // This server has no --public-url: its address is loopback, which followers' phones cannot load.
    expect(new URL(media.url).hostname).toBe("127.0.0.1");
    expect(media.public).toBe(false);
    expect(r.err).toContain("is the address the server listens on, not one on the internet (no --public-url)");
    const res = await fetch(media.url);
    expect(res.status).toBe(200);
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(png);
    expect((await fetch(`${url}/media/..%2fkeys.json`)).status).toBe(404);
    expect((await fetch(`${url}/media/%2e%2e/replyd.db`)).status).toBe(404);
  });
});
