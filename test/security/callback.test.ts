/**
 * The callback's door (issue 12 D): a captured callback URL is not a key to the inbox. Each attack
 * is refused next to a valid control built the same way.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { createCipheriv } from "node:crypto";
import { wxSignature } from "../../src/wechat/door/crypto.ts";
import { SignatureLedger } from "../../src/wechat/door/ledger.ts";
import { parseXml } from "../../src/wechat/door/xml.ts";
import { serveOpts, T0, testApp } from "../helpers.ts";
import { AESKEY, APPID, openReply, peer, textMsg, TOKEN, wxPost } from "../wechat/helpers.ts";

const NOW = Math.floor(T0 / 1000);
let t: Awaited<ReturnType<typeof testApp>> | null = null;
afterEach(() => {
  t?.close();
  t = null;
});
const app = async (wechat: Record<string, unknown>) => (t = await testApp({ wechat: { token: TOKEN, ...wechat } }));

/** A captured request's URL with another body. */
const reuse = (captured: Request, body: string) => new Request(captured.url, { method: "POST", body });
const withQuery = (req: Request, set: Record<string, string | null>, body: string) => {
  const url = new URL(req.url);
  for (const [k, v] of Object.entries(set)) v === null ? url.searchParams.delete(k) : url.searchParams.set(k, v);
  return new Request(url.toString(), { method: "POST", body });
};

describe("one signature carries one message", () => {
  test("a captured URL with another message (another MsgId) is refused; a fresh signature is accepted", async () => {
    const a = await app({});
    const first = wxPost(textMsg("h", NOW, "5001"), NOW);
    expect((await a.handle(first)).status).toBe(200);
    expect((await a.handle(reuse(first, textMsg("pwned", NOW, "5002")))).status).toBe(401);
    expect((await a.handle(wxPost(textMsg("pwned", NOW, "5002"), NOW))).status).toBe(200);
  });
  test("a captured URL with another follower's message is refused, so a follower's MsgId cannot be pre-empted", async () => {
    const a = await app({});
    const first = wxPost(textMsg("h", NOW, "5003"), NOW);
    expect((await a.handle(first)).status).toBe(200);
    const victim = textMsg("s something", NOW, "5004").replace("o_follower", "o_victim");
    expect((await a.handle(withQuery(first, { openid: "o_victim" }, victim))).status).toBe(401);
    // The victim's real message, signed by the platform, is answered normally (nothing was pre-empted).
    const real = wxPost(victim, NOW);
    expect((await a.handle(withQuery(real, { openid: "o_victim" }, victim))).status).toBe(200);
  });
  test("the same message resent under its signature is a retry: the first answer, byte for byte", async () => {
    const a = await app({});
    const xml = textMsg("h", NOW, "5005");
    const first = wxPost(xml, NOW);
    const answer = await (await a.handle(first)).text();
    const again = await a.handle(reuse(first, xml));
    expect(again.status).toBe(200);
    expect(await again.text()).toBe(answer);
    expect((await a.log.list({ only: null, limit: 10, offset: 0 })).total).toBe(1);
  });
  test("events: a captured URL with another event key is refused; the same event again is a retry", async () => {
    const a = await app({});
    const click = (key: string) =>
      `<xml><ToUserName><![CDATA[gh_account]]></ToUserName><FromUserName><![CDATA[o_follower]]></FromUserName><CreateTime>${NOW}</CreateTime><MsgType><![CDATA[event]]></MsgType><Event><![CDATA[CLICK]]></Event><EventKey><![CDATA[${key}]]></EventKey></xml>`;
    const first = wxPost(click("A"), NOW);
    expect((await a.handle(first)).status).toBe(200);
    expect((await a.handle(reuse(first, click("B")))).status).toBe(401);
    expect((await a.handle(reuse(first, click("A")))).status).toBe(200);
  });
});

describe("the query's openid must be the body's sender", () => {
  test("openid ≠ FromUserName is refused; equal or absent is accepted", async () => {
    const a = await app({});
    const xml = (id: string) => textMsg("h", NOW, id);
    expect((await a.handle(withQuery(wxPost(xml("5101"), NOW), { openid: "o_someone_else" }, xml("5101")))).status).toBe(401);
    expect((await a.handle(withQuery(wxPost(xml("5102"), NOW), { openid: "o_follower" }, xml("5102")))).status).toBe(200);
    expect((await a.handle(withQuery(wxPost(xml("5103"), NOW), { openid: null }, xml("5103")))).status).toBe(200);
  });
  test("in safe mode the check is made against the decrypted sender", async () => {
    const a = await app({ aesKey: AESKEY, appid: APPID });
    const req = wxPost(textMsg("h", NOW, "5104"), NOW, { encrypt: true });
    const body = await req.text();
    expect((await a.handle(withQuery(req, { openid: "o_someone_else" }, body))).status).toBe(401);
    expect((await a.handle(withQuery(req, {}, body))).status).toBe(200);
  });
});

describe("safe mode takes encrypted messages only", () => {
  test("with an EncodingAESKey a plaintext POST is refused; the same message encrypted is answered", async () => {
    const a = await app({ aesKey: AESKEY, appid: APPID });
    expect((await a.handle(wxPost(textMsg("h", NOW, "5201"), NOW))).status).toBe(401);
    const res = await a.handle(wxPost(textMsg("h", NOW, "5201"), NOW, { encrypt: true }));
    expect(res.status).toBe(200);
    expect(openReply(await res.text()).MsgType).toBe("text");
  });
  test("dropping encrypt_type and msg_signature from a captured safe-mode URL does not turn it into plaintext", async () => {
    const a = await app({ aesKey: AESKEY, appid: APPID });
    const captured = wxPost(textMsg("h", NOW, "5202"), NOW, { encrypt: true });
    expect((await a.handle(withQuery(captured, { encrypt_type: null, msg_signature: null }, textMsg("pwned", NOW, "5203")))).status).toBe(401);
  });
  test("two messages whose nonces meet within one second are both answered: the msg_signature covers each body", async () => {
    const a = await app({ aesKey: AESKEY, appid: APPID });
    const first = await a.handle(wxPost(textMsg("h", NOW, "5210"), NOW, { encrypt: true, nonce: "77001" }));
    expect(first.status).toBe(200);
    const second = await a.handle(wxPost(textMsg("h", NOW, "5211"), NOW, { encrypt: true, nonce: "77001" }));
    expect(second.status).toBe(200);
    expect(openReply(await second.text()).MsgType).toBe("text");
    // The same message resent under its signature is still a retry.
    expect((await a.handle(wxPost(textMsg("h", NOW, "5210"), NOW, { encrypt: true, nonce: "77001" }))).status).toBe(200);
    expect((await a.log.list({ only: null, limit: 10, offset: 0 })).total).toBe(2);
  });
  test("in compatible mode a plaintext message under an encrypted message's timestamp and nonce is refused: its signature covers no body", async () => {
    const a = await app({ aesKey: AESKEY, appid: APPID, mode: "compatible" });
    expect((await a.handle(wxPost(textMsg("h", NOW, "5212"), NOW, { encrypt: true, nonce: "77002" }))).status).toBe(200);
    expect((await a.handle(wxPost(textMsg("pwned", NOW, "5213"), NOW, { nonce: "77002" }))).status).toBe(401);
    // Nor, there, another encrypted one: a plaintext one under its signature could follow it.
    expect((await a.handle(wxPost(textMsg("h", NOW, "5214"), NOW, { encrypt: true, nonce: "77002" }))).status).toBe(401);
    // Control: a fresh nonce.
    expect((await a.handle(wxPost(textMsg("h", NOW, "5214"), NOW, { encrypt: true, nonce: "77003" }))).status).toBe(200);
  });
  test("compatible mode (documented as weaker) accepts both", async () => {
    const a = await app({ aesKey: AESKEY, appid: APPID, mode: "compatible" });
    expect((await a.handle(wxPost(textMsg("h", NOW, "5204"), NOW))).status).toBe(200);
    expect((await a.handle(wxPost(textMsg("h", NOW, "5205"), NOW, { encrypt: true }))).status).toBe(200);
  });
  test("the plain signature is checked before the encrypted body is parsed or decrypted", async () => {
    const a = await app({ aesKey: AESKEY, appid: APPID });
    const good = wxPost(textMsg("h", NOW, "5206"), NOW, { encrypt: true });
    const body = await good.clone().text();
    // A bad `signature` with a valid msg_signature and body: refused on the signature alone.
    expect((await a.handle(withQuery(good, { signature: "0".repeat(40) }, body))).status).toBe(401);
    // A bad `signature` with a body that is not XML: 401, not the 400 the parser would give.
    expect((await a.handle(withQuery(good, { signature: "0".repeat(40) }, "not xml at all"))).status).toBe(401);
    // Control: a valid signature with that body reaches the parser.
    expect((await a.handle(withQuery(wxPost("", NOW, { encrypt: true }), {}, "not xml at all"))).status).toBe(400);
    expect((await a.handle(good)).status).toBe(200);
  });
});

describe("a decryption failure is one refusal", () => {
  test("bad padding and a wrong appid answer the same status and body", async () => {
    const a = await app({ aesKey: AESKEY, appid: APPID });
    const key = Buffer.from(AESKEY + "=", "base64");
    const seal = (plain: Buffer) => {
      const c = createCipheriv("aes-256-cbc", key, key.subarray(0, 16)).setAutoPadding(false);
      return Buffer.concat([c.update(plain), c.final()]).toString("base64");
    };
    const msg = Buffer.from(textMsg("h", NOW, "5301"));
    const length = Buffer.alloc(4);
    length.writeUInt32BE(msg.length);
    const content = (appid: string) => Buffer.concat([Buffer.alloc(16, 7), length, msg, Buffer.from(appid)]);
    const pad = (b: Buffer, value?: number) => {
      const n = 32 - (b.length % 32);
      return Buffer.concat([b, Buffer.alloc(n, value ?? n)]);
    };
    const send = async (encrypted: string) => {
      const ts = String(NOW);
      const nonce = String(Math.random()).slice(2);
      const q = new URLSearchParams({ timestamp: ts, nonce, signature: wxSignature(TOKEN, ts, nonce), encrypt_type: "aes", msg_signature: peer.getSignature(ts, nonce, encrypted) });
      const res = await a.handle(new Request(`http://localhost/wechat?${q}`, { method: "POST", body: `<xml><Encrypt><![CDATA[${encrypted}]]></Encrypt></xml>` }));
      return { status: res.status, body: await res.text() };
    };
    const badPadding = await send(seal(pad(content(APPID), 0)));
    const wrongAppid = await send(seal(pad(content("wx0000000000000000"))));
    expect(badPadding.status).toBe(400);
    expect(wrongAppid).toEqual(badPadding);
    // Control: the same construction with the right appid and padding is answered.
    expect((await send(seal(pad(content(APPID))))).status).toBe(200);
  });
});

describe("the signature ledger, on its own", () => {
  test("remembers the message a signature carried, within its capacity; a full ledger refuses what it can no longer tell", () => {
    const ledger = new SignatureLedger(300_000, 4);
    const now = NOW * 1000;
    expect(ledger.admit(String(NOW - 10), "n1", "m:a:1", now)).toBe(true);
    expect(ledger.admit(String(NOW - 10), "n1", "m:a:1", now)).toBe(true); // a resend
    expect(ledger.admit(String(NOW - 10), "n1", "m:a:2", now)).toBe(false);
    for (let i = 2; i <= 4; i++) expect(ledger.admit(String(NOW - 5), `n${i}`, `m:a:${i + 10}`, now)).toBe(true);
    // A fifth signature pushes the oldest out: its timestamp becomes the floor.
    expect(ledger.admit(String(NOW), "n5", "m:a:20", now)).toBe(true);
    expect(ledger.size).toBe(4);
    expect(ledger.floor).toBe(NOW - 10);
    expect(ledger.admit(String(NOW - 10), "n1", "m:a:2", now)).toBe(false); // forgotten, and too old to take
    expect(ledger.admit(String(NOW - 10), "n9", "m:a:30", now)).toBe(false);
    expect(ledger.admit(String(NOW - 5), "n2", "m:a:12", now)).toBe(true); // still known: a resend passes
    // Full again: n2 (NOW - 5) leaves and raises the floor; a signature newer than that is taken.
    expect(ledger.admit(String(NOW - 4), "n10", "m:a:31", now)).toBe(true);
    expect(ledger.floor).toBe(NOW - 5);
    expect(ledger.admit(String(NOW - 5), "n11", "m:a:32", now)).toBe(false);
  });
  test("entries leave once their timestamp is past the skew window, so the ledger never fills from old traffic", () => {
    const ledger = new SignatureLedger(1000, 4);
    for (let i = 0; i < 100; i++) expect(ledger.admit(String(NOW + i * 2), `n${i}`, `m:${i}`, (NOW + i * 2) * 1000)).toBe(true);
    expect(ledger.floor).toBe(-Infinity);
    expect(ledger.size).toBeLessThanOrEqual(2);
  });
});

test("a replayed signature with another message is refused through the listening server too", async () => {
  const { startServer } = await import("../../src/server/serve.ts");
  const { tempDir } = await import("../helpers.ts");
  const { dir, cleanup } = tempDir();
  const server = await startServer(serveOpts(dir, { wechat: { token: TOKEN } }));
  try {
    const now = Math.floor(Date.now() / 1000);
    const first = wxPost(textMsg("h", now, "5401"), now);
    const url = server.url + new URL(first.url).pathname + new URL(first.url).search;
    expect((await fetch(url, { method: "POST", body: textMsg("h", now, "5401") })).status).toBe(200);
    expect((await fetch(url, { method: "POST", body: textMsg("x", now, "5402") })).status).toBe(401);
    expect(parseXml(await (await fetch(url, { method: "POST", body: textMsg("h", now, "5401") })).text()).MsgType).toBe("text");
  } finally {
    await server.stop();
    cleanup();
  }
});
