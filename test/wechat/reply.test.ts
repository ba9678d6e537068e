/** Answering followers (issue 13 §3) through the admin routes, against the fake platform. */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { article, doc, READER, signedRequest } from "../helpers.ts";
import { startFakePlatform, type FakePlatform } from "../platform/fake.ts";
import { APPID, platformApp, SECRET, type Harness } from "../platform/harness.ts";
import { eventMsg, otherMsg, textMsg, wxPost } from "./helpers.ts";
import { CODE } from "../../src/base/errors.ts";

const FOLLOWER = "o_follower";
const HOUR = 3_600_000;

let h: Harness, fake: FakePlatform, t: Harness["t"];
beforeEach(async () => void ({ fake, t } = h = await platformApp()));
afterEach(() => h.close());
const age = (ms: number) => h.age(ms);
const call = (method: string, path: string, o: Parameters<typeof signedRequest>[2] = {}) => h.call(method, path, o);
/** The follower writes something nothing matches: it lands in the inbox, and their window opens on both sides. */
const followerWrites = async (text = "where is my order?") => {
  const now = Math.floor(t.clock.now() / 1000);
  await (await t.handle(wxPost(textMsg(text, now), now))).text();
  fake.interact(FOLLOWER);
  const inbox = await call("GET", "/api/cli", { fields: [["inbox", "unmatched"]] });
  return inbox.data.items[0] as { seq: number; reply_window: { open: boolean; left: number; until: string } };
};
const reply = (fields: [string, string][]) => call("POST", "/api/cli/reply", { fields });

describe("replies", () => {
  test("to an inbox entry: sent as a text, logged as direction out with the admin key, the entry marked answered", async () => {
    const entry = await followerWrites();
    expect(entry.reply_window).toMatchObject({ open: true, left: 5 });
    const r = await reply([["inbox", String(entry.seq)], ["text", "It ships tomorrow.\nSorry for the wait."]]);
    expect(r.status).toBe(200);
    expect(fake.sent).toEqual([{ touser: FOLLOWER, msgtype: "text", text: { content: "It ships tomorrow.\nSorry for the wait." } }]);
    expect(r.data).toMatchObject({ openid: FOLLOWER, reply_to: entry.seq, window: { open: true, left: 4 } });
    const all = await call("GET", "/api/cli", { fields: [["inbox", "all"]] });
    const [out, answered] = all.data.items;
    expect(out).toMatchObject({ direction: "out", from_user: FOLLOWER, sent_by: "admin1", reply_to: entry.seq, content: "It ships tomorrow.\nSorry for the wait.", unmatched: false });
    expect(answered).toMatchObject({ seq: entry.seq, answered_at: expect.any(String), reply_window: { left: 4 } });
  });
  test("a photo, a location, a link, a video, a voice message unrecognised: the media text, in the inbox with what lets the operator see it, answerable; logged as media", async () => {
    const now = Math.floor(t.clock.now() / 1000);
    const send = async (type: string, fields: Record<string, string>) => (await t.handle(wxPost(otherMsg(type, now, fields), now))).text();
    const says = (text: string) => `<Content><![CDATA[${text}]]></Content>`;
    expect(await send("image", { PicUrl: "http://mmbiz.qpic.cn/mmbiz_jpg/abc/0", MediaId: "m1" })).toContain(says("Received, thank you. To ask a question, send it as text; send h for help."));
    await send("location", { Location_X: "23.134521", Location_Y: "113.358803", Scale: "20", Label: "广州市天河区" });
    await send("link", { Title: "停车场地图", Description: "d", Url: "https://example.com/map" });
    await send("video", { MediaId: "m3", ThumbMediaId: "t3" });
    await send("voice", { MediaId: "m2", Format: "amr" });
    fake.interact(FOLLOWER);
    const inbox = await call("GET", "/api/cli", { fields: [["inbox", "unmatched"]] });
    expect(inbox.data.items.map((m: { type: string; content: string | null; answer: string }) => [m.type, m.content, m.answer])).toEqual([
      ["voice", null, "media"],
      ["video", null, "media"],
      ["link", "停车场地图 https://example.com/map", "media"],
      ["location", "广州市天河区 (23.134521, 113.358803)", "media"],
      ["image", "http://mmbiz.qpic.cn/mmbiz_jpg/abc/0", "media"],
    ]);
    // The operator's fallback text when they wrote no media text; their media text once they do.
    const texts = async (o: object) => expect((await call("POST", "/api/cli", { fields: [["mode", "merge"]], files: [{ name: "json", content: JSON.stringify({ format: "replyd/1", matter: "texts", texts: o }) }] })).status).toBe(200);
    await texts({ fallback: "抱歉，没找到答案" });
    expect(await send("image", { PicUrl: "http://mmbiz.qpic.cn/mmbiz_jpg/abc/1", MediaId: "m4" })).toContain(says("抱歉，没找到答案"));
    await texts({ media: "已收到图片，工作人员会尽快查看" });
    expect(await send("image", { PicUrl: "http://mmbiz.qpic.cn/mmbiz_jpg/abc/2", MediaId: "m5" })).toContain(says("已收到图片，工作人员会尽快查看"));
    const photo = inbox.data.items[4] as { seq: number };
    expect((await reply([["inbox", String(photo.seq)], ["text", "Thanks for the photo: we will send a technician."]])).status).toBe(200);
    expect(fake.sent).toEqual([{ touser: FOLLOWER, msgtype: "text", text: { content: "Thanks for the photo: we will send a technician." } }]);
  });
  test("to an openid with an article: a 1-article news; the follower's unanswered messages are marked", async () => {
    await call("POST", "/api/cli", { files: [{ name: "json", content: doc([article(1, { picurl: "https://example.com/p.jpg", body: "Switch off the mains, then ring 0800 123 456." }), article(2, { description: "How to book a visit." })]) }] });
    // Two questions nothing answers ("second" alone would be a pick of nothing, not in the inbox).
    await followerWrites("my boiler broke");
    await followerWrites("it is leaking too");
    const r = await reply([["openid", FOLLOWER], ["code", "c1"]]);
    expect(r.status).toBe(200);
    // No description: the body's opening, as the callback's card shows it (a title alone had been sent: a gym's walkthrough).
    expect(fake.sent[0]).toEqual({ touser: FOLLOWER, msgtype: "news", news: { articles: [{ title: "Article 1", description: "Switch off the mains, then ring 0800 123 456.", url: "https://example.com/1", picurl: "https://example.com/p.jpg" }] } });
    const inbox = await call("GET", "/api/cli", { fields: [["inbox", "unmatched"]] });
    expect(inbox.data.items.map((m: { answered_at: string | null }) => m.answered_at !== null)).toEqual([true, true]);
    // A description written is the card's.
    expect((await reply([["openid", FOLLOWER], ["code", "c2"]])).status).toBe(200);
    expect((fake.sent[1] as { news: { articles: { description: string }[] } }).news.articles[0]?.description).toBe("How to book a visit.");
  });
  test("article= names the article by its id — one with no code too — or by its live code; code= only by its code", async () => {
    // An imported help centre's articles have no codes: code= could send none of them (a theatre's walkthrough).
    await call("POST", "/api/cli", { files: [{ name: "json", content: doc([article(1), article(2, { code: null })]) }] });
    await followerWrites("my boiler broke");
    expect((await reply([["openid", FOLLOWER], ["article", "a2"]])).status).toBe(200);
    expect((await reply([["openid", FOLLOWER], ["article", "c1"]])).status).toBe(200);
    expect(fake.sent.map((m) => (m as { news: { articles: { title: string }[] } }).news.articles[0]?.title)).toEqual(["Article 2", "Article 1"]);
    const missing = await reply([["openid", FOLLOWER], ["article", "a9"]]);
    expect(missing.status).toBe(404);
    expect(missing.error.message).toContain('no live article with id or code "a9"');
    expect((await reply([["openid", FOLLOWER], ["code", "a1"]])).status).toBe(404);
    // The log names an article with no code by its id, not "null".
    const sent = await call("GET", "/api/cli", { fields: [["inbox", "all"]] });
    expect(sent.data.items.map((m: { content: string }) => m.content)).toContain("a2: Article 2");
  });
  test("the count: the limit's replies go out, the next is refused before the platform is asked; a new message opens it again", async () => {
    const entry = await followerWrites();
    for (let i = 0; i < 5; i++) expect((await reply([["inbox", String(entry.seq)], ["text", `reply ${i}`]])).status).toBe(200);
    const refused = await reply([["inbox", String(entry.seq)], ["text", "one more"]]);
    expect(refused.status).toBe(409);
    expect(refused.error.code).toBe(CODE.reply_limit);
    expect(refused.error.message).toContain("the 5 replies allowed since the follower's last message");
    expect(fake.sent).toHaveLength(5);
    await followerWrites("hello again");
    expect((await reply([["openid", FOLLOWER], ["text", "hi"]])).status).toBe(200);
  });
  test("the window: open until 48 hours after the follower's last message, refused beforehand from then on", async () => {
    const entry = await followerWrites();
    age(48 * HOUR - 5000);
    expect((await reply([["inbox", String(entry.seq)], ["text", "just in time"]])).status).toBe(200);
    age(5000);
    const late = await reply([["inbox", String(entry.seq)], ["text", "too late"]]);
    expect(late.status).toBe(409);
    expect(late.error.code).toBe(CODE.window_closed);
    expect(late.error.message).toContain("the 48-hour reply window closed at");
    expect(fake.sent).toHaveLength(1);
    const inbox = await call("GET", "/api/cli", { fields: [["inbox", "unmatched"]] });
    expect(inbox.data.items[0].reply_window.open).toBe(false);
  });
  test("what opens the window: messages, follows, scans and menu clicks; not opening a link or a location report", async () => {
    /** Sends the event now; answers the time it was received. */
    const send = async (event: string, key?: string) => {
      const at = t.clock.now();
      const now = Math.floor(at / 1000);
      await (await t.handle(wxPost(eventMsg(event, now, key), now))).text();
      return new Date(at).toISOString();
    };
    const openedAt = async () => (await call("GET", "/api/cli", { fields: [["inbox", "all"]] })).data.items[0].reply_window.opened_at;
    const followed = await send("subscribe");
    expect(await openedAt()).toBe(followed);
    age(HOUR);
    await send("VIEW", "https://example.com/");
    age(1000);
    await send("LOCATION");
    expect(await openedAt()).toBe(followed);
    age(HOUR);
    const clicked = await send("CLICK", "K");
    expect(await openedAt()).toBe(clicked);
  });
  test("a follower with nothing in the log cannot be answered; a reply entry cannot be answered", async () => {
    const r = await reply([["openid", "o_stranger"], ["text", "hi"]]);
    expect(r.error.code).toBe(CODE.window_closed);
    expect(r.error.message).toContain("no message from this follower is in the log");
    const entry = await followerWrites();
    const sent = await reply([["inbox", String(entry.seq)], ["text", "hi"]]);
    expect((await reply([["inbox", String(sent.data.seq)], ["text", "hi"]])).error.code).toBe(CODE.not_a_follower_message);
    expect((await reply([["inbox", "999999"], ["text", "hi"]])).error.code).toBe(CODE.no_message);
  });
  test("the platform's refusals are one-line reasons with its code: 45015, 45047, 43004, 40003, 48001", async () => {
    const entry = await followerWrites();
    const send = () => reply([["inbox", String(entry.seq)], ["text", "hi"]]);
    const expectRefusal = async (errcode: number, words: string) => {
      const r = await send();
      expect(r.status).toBe(502);
      expect(r.error).toMatchObject({ code: CODE.platform_refused, errcode });
      expect(r.error.message).toContain(words);
      expect(r.error.message).not.toContain("\n");
      expect(r.error.message).toEndWith("; nothing was sent");
    };
    fake.advance(49 * HOUR); // the platform's clock alone: replyd still counts the window open
    await expectRefusal(45015, "48-hour reply window is closed");
    fake.advance(-49 * HOUR);
    for (let i = 0; i < 5; i++) fake.sent.push({ touser: "x", msgtype: "text" });
    fake.interact(FOLLOWER);
    fake.unfollow(FOLLOWER);
    await expectRefusal(43004, "does not follow the account");
    // A refusal of one call on a working link leaves the link ok in health.
    expect((await call("GET", "/api/cli")).data.platform.link).toBe("ok");
    fake.interact(FOLLOWER);
    fake.deny("/cgi-bin/message/custom/send");
    await expectRefusal(48001, "lacks the permission");
    // The missing permission is the account's: health shows it.
    expect((await call("GET", "/api/cli")).data.platform).toMatchObject({ link: "error", errcode: 48001 });
    // A refused reply is not logged and marks nothing.
    const all = await call("GET", "/api/cli", { fields: [["inbox", "all"]] });
    expect(all.data.items.filter((m: { direction: string }) => m.direction === "out")).toHaveLength(0);
  });
  test("40003 and 45047 as the platform words them", async () => {
    await followerWrites();
    const fresh = startFakePlatform(APPID, SECRET);
    try {
      await h.use(fresh);
      const platform = h.platform;
      const r = await reply([["openid", FOLLOWER], ["text", "hi"]]);
      expect(r.error).toMatchObject({ code: CODE.platform_refused, errcode: 40003 });
      expect(r.error.message).toContain("does not know this openid");
      fresh.interact(FOLLOWER);
      for (let i = 0; i < 5; i++) await platform.call("/cgi-bin/message/custom/send", { touser: FOLLOWER, msgtype: "text", text: { content: "elsewhere" } });
      const spent = await reply([["openid", FOLLOWER], ["text", "hi"]]);
      expect(spent.error).toMatchObject({ code: CODE.platform_refused, errcode: 45047 });
      expect(spent.error.message).toContain("replies allowed since the follower's last message are spent");
    } finally {
      fresh.stop();
    }
  });
  test("bad requests: both or neither of openid/inbox, text/code/article; text past 2048 bytes; a read key; no platform", async () => {
    const entry = await followerWrites();
    expect((await reply([["text", "hi"]])).status).toBe(400);
    expect((await reply([["openid", FOLLOWER], ["inbox", String(entry.seq)], ["text", "hi"]])).status).toBe(400);
    expect((await reply([["openid", FOLLOWER], ["text", "hi"], ["code", "c1"]])).status).toBe(400);
    expect((await reply([["openid", FOLLOWER], ["article", "a1"], ["code", "c1"]])).status).toBe(400);
    expect((await reply([["openid", FOLLOWER], ["text", "x".repeat(2048)]])).status).toBe(200);
    expect((await reply([["openid", FOLLOWER], ["text", "x".repeat(2049)]])).error.code).toBe(CODE.text_too_long);
    expect((await reply([["openid", FOLLOWER], ["text", "bell\u0007"]])).status).toBe(400);
    expect((await call("POST", "/api/cli/reply", { key: READER, fields: [["openid", FOLLOWER], ["text", "hi"]] })).status).toBe(403);
    await h.withoutPlatform();
    expect((await reply([["openid", FOLLOWER], ["text", "hi"]])).error.code).toBe(CODE.platform_not_configured);
    expect(fake.sent).toHaveLength(1);
  });
  test("two replies at once when one is left: one goes out, the other is refused", async () => {
    const entry = await followerWrites();
    for (let i = 0; i < 4; i++) await reply([["inbox", String(entry.seq)], ["text", `r${i}`]]);
    age(1000);
    const both = await Promise.all(
      ["a", "b"].map(async (x) => (await t.handle(signedRequest("POST", "/api/cli/reply", { nowMs: t.clock.now(), fields: [["inbox", String(entry.seq)], ["text", x]] }))).status),
    );
    expect(both.sort()).toEqual([200, 409]);
    expect(fake.sent).toHaveLength(5);
  });
});
