/**
 * Every message and event shape the platform documents (test/fixtures/platform/) is answered 200
 * with a valid reply or "success", plain and encrypted: a 400 makes the platform retry and show
 * followers "this account cannot provide service right now".
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parseXml, type XmlNode } from "../../src/wechat/door/xml.ts";
import { T0, testApp } from "../helpers.ts";
import { AESKEY, APPID, openReply, TOKEN, wxPost } from "../wechat/helpers.ts";
import { DEFAULT_TEXTS } from "../../src/wechat/answering/texts.ts";

const DIR = join(import.meta.dir, "../fixtures/platform");
const fixtures = readdirSync(DIR).filter((f) => f.endsWith(".xml")).sort();
const NOW = Math.floor(T0 / 1000);

let plainApp: Awaited<ReturnType<typeof testApp>>;
let safeApp: Awaited<ReturnType<typeof testApp>>;
beforeAll(async () => {
  plainApp = await testApp({ wechat: { token: TOKEN } });
  safeApp = await testApp({ wechat: { token: TOKEN, aesKey: AESKEY, appid: APPID } });
});
afterAll(() => {
  plainApp.close();
  safeApp.close();
});

/** The reply, checked to be one the platform accepts: "success", or XML addressed back to the sender. */
function checkReply(text: string, open: (t: string) => XmlNode): string {
  if (text === "success") return "success";
  const reply = open(text);
  expect(reply.ToUserName).toBe("o_follower");
  expect(reply.FromUserName).toBe("gh_account");
  expect(["text", "news"]).toContain(reply.MsgType as string);
  return reply.MsgType as string;
}

test("the fixtures cover every documented message and event type", () => {
  const types = new Set(fixtures.map((f) => readFileSync(join(DIR, f), "utf8")).map((x) => {
    const node = parseXml(x);
    return node.MsgType === "event" ? `event:${node.Event}` : String(node.MsgType);
  }));
  for (const t of ["text", "image", "voice", "video", "shortvideo", "location", "link"]) expect(types).toContain(t);
  for (const e of ["subscribe", "unsubscribe", "SCAN", "LOCATION", "CLICK", "VIEW", "scancode_push", "scancode_waitmsg", "pic_sysphoto", "pic_photo_or_album", "pic_weixin", "location_select", "view_miniprogram", "MASSSENDJOBFINISH", "TEMPLATESENDJOBFINISH"])
    expect(types).toContain(`event:${e}`);
  expect(fixtures.length).toBeGreaterThanOrEqual(40);
});

describe.each(fixtures)("%s", (file) => {
  const xml = readFileSync(join(DIR, file), "utf8");
  test("plaintext: 200 with a valid reply or success, logged once", async () => {
    const before = (await plainApp.log.list({ only: null, limit: 1000, offset: 0 })).total;
    const res = await plainApp.handle(wxPost(xml, NOW));
    expect(res.status).toBe(200);
    checkReply(await res.text(), parseXml);
    expect((await plainApp.log.list({ only: null, limit: 1000, offset: 0 })).total).toBe(before + 1);
  });
  test("encrypted (safe mode): 200 with a valid sealed reply or success", async () => {
    const res = await safeApp.handle(wxPost(xml, NOW, { encrypt: true }));
    expect(res.status).toBe(200);
    checkReply(await res.text(), openReply);
  });
});

test("what some of them are answered with: welcome, help by voice recognition, the media text for an image", async () => {
  const app = await testApp({ wechat: { token: TOKEN } });
  try {
    const answer = async (file: string) => {
      const text = await (await app.handle(wxPost(readFileSync(join(DIR, file), "utf8"), NOW))).text();
      return text === "success" ? "success" : String(parseXml(text).Content);
    };
    expect(await answer("event-subscribe-qrscene.xml")).toBe("Welcome! Send h for help.");
    expect(await answer("voice-recognition.xml")).toStartWith(DEFAULT_TEXTS.en.help);
    expect(await answer("image.xml")).toBe("Received, thank you. To ask a question, send it as text; send h for help.");
    expect(await answer("event-masssendjobfinish.xml")).toBe("success");
    expect(await answer("text-web-client-stray-text.xml")).toBe("Sorry, I did not understand that. Send h for help.");
  } finally {
    app.close();
  }
});

test("the retry key includes the sender: two followers with the same MsgId each get their own answer", async () => {
  const app = await testApp({ wechat: { token: TOKEN } });
  try {
    const msg = (from: string, content: string) =>
      `<xml><ToUserName><![CDATA[gh_account]]></ToUserName><FromUserName><![CDATA[${from}]]></FromUserName><CreateTime>${NOW}</CreateTime><MsgType><![CDATA[text]]></MsgType><Content><![CDATA[${content}]]></Content><MsgId>777</MsgId></xml>`;
    const send = async (from: string, content: string) => {
      const req = wxPost(msg(from, content), NOW);
      const url = new URL(req.url);
      url.searchParams.set("openid", from);
      return parseXml(await (await app.handle(new Request(url.toString(), { method: "POST", body: await req.text() }))).text());
    };
    const a = await send("o_alice", "h");
    const b = await send("o_bob", "nothing like this");
    expect(a.ToUserName).toBe("o_alice");
    expect(b.ToUserName).toBe("o_bob");
    expect(a.Content).not.toBe(b.Content);
    // A retry of Alice's message (same sender, same MsgId) still gets her first answer.
    expect((await send("o_alice", "h")).Content).toBe(a.Content as string);
  } finally {
    app.close();
  }
});
