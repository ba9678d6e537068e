import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { wxSignature } from "../../src/wechat/door/crypto.ts";
import { Responder } from "../../src/wechat/answering/responder.ts";
import { parseXml, type XmlNode } from "../../src/wechat/door/xml.ts";
import type { Inbound } from "../../src/wechat/door/message.ts";
import { article, body, doc, signedRequest, T0, testApp } from "../helpers.ts";
import { AESKEY, APPID, eventMsg, openReply, otherMsg, textMsg, TOKEN, wxPost } from "./helpers.ts";

const NOW = Math.floor(T0 / 1000);
let t: Awaited<ReturnType<typeof testApp>>;
// Compatible mode: the reply logic is exercised with plain and encrypted messages alike; safe mode's
// refusal of plaintext is tested in test/security/callback.test.ts.
const wechat = { token: TOKEN, aesKey: AESKEY, appid: APPID, mode: "compatible" as const };

async function load(app: typeof t) {
  const articles = [
    article(1, { code: "fv3", tag: "fv", title: "Founder's view 3", keywords: ["founder", "vision"], picurl: "https://example.com/p.png" }),
    article(2, { code: "fv4", tag: "fv", title: "Founder's view 4", body: "  The fourth letter: what we learned.\n\n" + "更多内容。".repeat(200) }),
    article(3, { code: "tip1", tag: "tips", title: "春节快乐 holiday tips", description: "how to rest" }),
    article(4, { code: "old", tag: "tips", title: "Removed", deleted: true }),
    ...Array.from({ length: 10 }, (_, i) => article(10 + i, { code: `m${i}`, tag: "many", title: `Many ${i}` })),
  ];
  const res = await app.handle(
    signedRequest("POST", "/api/cli", {
      files: [
        {
          name: "json",
          content: doc(articles, {
            tags: { fv: "Founder's view", tips: "Tips" },
            texts: { welcome: "Welcome aboard!", fallback: "Say h for help.", not_found: "Nothing found. Send h for help." },
            rules: [
              { id: "hi", match: "exact", pattern: "Hello", reply: { type: "text", text: "Hi there" } },
              { id: "pre", match: "prefix", pattern: "price", reply: { type: "articles", ids: ["a2"] } },
              { id: "con", match: "contains", pattern: "refund", reply: { type: "text", text: "Refunds: see the menu" } },
              { id: "hours", match: "contains", pattern: "營業時間", reply: { type: "text", text: "9:00-18:00" } },
              { id: "wifi", match: "exact", pattern: "ＷＩＦＩ密码", reply: { type: "text", text: "see the table card" } },
              { id: "re", match: "regex", pattern: "^order\\s*#?\\d{4,}$", reply: { type: "text", text: "Order received" } },
              { id: "slow", match: "regex", pattern: "^(a+)+$", reply: { type: "text", text: "never" } },
              { id: "fvtag", match: "exact", pattern: "founders", reply: { type: "tag", tag: "fv" } },
              { id: "menu", match: "exact", pattern: "MENU_MANY", reply: { type: "tag", tag: "many" } },
              { id: "gone", match: "exact", pattern: "ghost", reply: { type: "articles", ids: ["a4"] } },
              { id: "whats", match: "exact", pattern: "what's on", reply: { type: "text", text: "See the events page" } },
            ],
          }),
        },
      ],
      nowMs: app.clock.now(),
    }),
  );
  expect(res.status).toBe(200);
}

beforeEach(async () => {
  t = await testApp({ wechat });
  await load(t);
});
afterEach(() => t.close());

async function send(xml: string, o: Parameters<typeof wxPost>[2] = {}): Promise<{ status: number; text: string; xml: XmlNode | null }> {
  const res = await t.handle(wxPost(xml, Math.floor(t.clock.now() / 1000), o));
  const text = await res.text();
  if (res.status !== 200 || text === "success") return { status: res.status, text, xml: null };
  return { status: res.status, text, xml: o.encrypt ? openReply(text) : parseXml(text) };
}
const say = async (content: string, o: Parameters<typeof wxPost>[2] = {}) => (await send(textMsg(content, NOW), o)).xml as XmlNode;
const items = (x: XmlNode) => x.Articles as XmlNode;

describe("URL verification (GET)", () => {
  const verify = (sig: string, ts = String(NOW)) =>
    t.handle(new Request(`http://localhost/wechat?signature=${sig}&timestamp=${ts}&nonce=42&echostr=hello123`));
  test("echoes echostr only for a correct signature", async () => {
    const ok = await verify(wxSignature(TOKEN, String(NOW), "42"));
    expect(ok.status).toBe(200);
    expect(await ok.text()).toBe("hello123");
    const bad = await verify("0".repeat(40));
    expect(bad.status).toBe(401);
    expect(await bad.text()).not.toContain("hello123");
  });
  test("a correctly signed but stale verification is refused", async () => {
    const ts = String(NOW - 600);
    expect((await verify(wxSignature(TOKEN, ts, "42"), ts)).status).toBe(401);
  });
});

describe("plain-mode replies", () => {
  test("an article code gets a 1-article news reply, To/From swapped, CreateTime in seconds", async () => {
    const x = await say("FV3");
    expect(x).toMatchObject({ ToUserName: "o_follower", FromUserName: "gh_account", MsgType: "news", ArticleCount: "1", CreateTime: String(NOW) });
    expect(items(x).item).toEqual({ Title: "Founder's view 3", Description: "", PicUrl: "https://example.com/p.png", Url: "https://example.com/1" });
  });
  test("回复FV3, 'reply fv3', 回复h or 回复 a tag, as a welcome text puts them, are the code, help or the tag; 回复 and a number no article has is no question", async () => {
    for (const said of ["回复FV3", "回复：fv3", "回覆 FV3", "reply fv3", "回复FV3。"]) expect({ said, title: items(await say(said)).item }).toMatchObject({ said, title: { Title: "Founder's view 3" } });
    expect((await say("回复h")).Content).toContain("fv — Founder's view");
    expect((await say("回复fv")).Content).toStartWith("Founder's view (fv):");
    // A number no article has: no question, the not_found text, as the number alone gets — not whatever article holds 回复.
    expect((await say("回复99")).Content).toBe("Nothing found. Send h for help.");
    expect((await say("99")).Content).toBe("Nothing found. Send h for help.");
    expect((await say("回复zz9")).MsgType).toBe("text");
  });
  test("an article without a description shows its body's opening, cut at 1,024 bytes; one with a description shows that", async () => {
    const d = (items(await say("fv4")).item as XmlNode).Description as string;
    expect(d.startsWith("The fourth letter: what we learned.\n\n更多内容。")).toBe(true);
    expect(Buffer.byteLength(d)).toBeLessThanOrEqual(1024);
    expect(Buffer.byteLength(d)).toBeGreaterThan(1000);
    expect((items(await say("tip1")).item as XmlNode).Description).toBe("how to rest");
  });
  test("help lists the tags with descriptions and counts; 帮助 asks for it too", async () => {
    for (const word of ["h", "help", "?", "帮助", "幫助"]) {
      const x = await say(word);
      expect(x.MsgType).toBe("text");
      expect(x.Content).toContain("fv — Founder's view (2)");
      expect(x.Content).toContain("tips — Tips (1)");
    }
  });
  test("help with the mark a phone ends it with, and question marks alone, ask for help too — not the fallback that says to send h", async () => {
    for (const word of ["h?", "h。", "Help!", "帮助？", "帮助呀", "？？", "??", "?!", "？。"]) expect({ word, help: (await say(word)).Content?.toString().includes("fv — Founder's view (2)") }).toEqual({ word, help: true });
    // Not a question with a mark in it, nor a word ending in h.
    expect((await say("h?x")).Content).not.toContain("fv — Founder's view (2)");
  });
  test("a code copied from a welcome text or typed on a keycap: brackets, quotes, a keycap's marks, a # before digits", async () => {
    await t.handle(signedRequest("POST", "/api/cli", { files: [{ name: "json", content: doc([article(30, { code: "8", title: "Opening hours" }), article(31, { title: "Many 8" })]) }], nowMs: t.clock.now() }));
    for (const said of ["8", "【8】", "“8”", "「8」", "8️⃣", "#8", "＃8", "回复【8】", "回复“8”"]) expect({ said, title: items(await say(said)).item }).toMatchObject({ said, title: { Title: "Opening hours" } });
  });
  test("a code written in full width is kept as followers' typing is read (ＦＶ７ as FV7) and reached however typed; one in non-ASCII capitals, typed as written", async () => {
    const res = await t.handle(signedRequest("POST", "/api/cli", { files: [{ name: "json", content: doc([article(40, { code: "ＦＶ７", title: "Wide code" }), article(41, { code: "É1", title: "Accented code" })]) }], nowMs: t.clock.now() }));
    expect(res.status).toBe(200);
    for (const said of ["FV7", "fv7", "ＦＶ７", "ｆｖ７", "fv7。"]) expect({ said, title: items(await say(said)).item }).toMatchObject({ said, title: { Title: "Wide code" } });
    expect(items(await say("É1")).item).toMatchObject({ Title: "Accented code" });
  });
  test("a tag with the mark a phone ends it with lists it too", async () => {
    expect((await say("fv?")).Content).toStartWith("Founder's view (fv):");
    expect((await say("ＦＶ！")).Content).toStartWith("Founder's view (fv):");
  });
  test("a tag's description sent as help shows it (any case, width or traditional form, a phone's end mark, 回复 before it) lists the tag; a description two tags share lists neither; a message holding more than the description is a question", async () => {
    for (const said of ["Founder's view", "founder's view", "FOUNDER'S VIEW?", "Ｆｏｕｎｄｅｒ's ｖｉｅｗ"]) expect({ said, got: (await say(said)).Content }).toEqual({ said, got: "Founder's view (fv):\nfv3  Founder's view 3\nfv4  Founder's view 4" });
    expect((await say("Tips")).Content).toStartWith("Tips (tips):");
    const res = await t.handle(signedRequest("POST", "/api/cli", { files: [{ name: "json", content: doc([article(50, { code: "s1", tag: "shop", title: "Our shop" }), article(51, { code: "s2", tag: "store", title: "Our store" }), article(52, { code: "c1", tag: "card", title: "储值卡" })], { tags: { shop: "门店", store: "門店", card: "会员卡" } }) }], nowMs: t.clock.now() }));
    expect(res.status).toBe(200);
    // Traditional characters and 回复 before it, as a welcome text puts it.
    // A Chinese description is what followers send: its Latin key is not shown them (a parcel chain's
    // walkthrough: "干洗 (gx)", "gx — 干洗"); beside a Latin one the key is the short word to send.
    for (const said of ["会员卡", "會員卡？", "回复会员卡"]) expect({ said, got: (await say(said)).Content }).toEqual({ said, got: "会员卡:\nc1  储值卡" });
    const help = String((await say("帮助")).Content);
    expect(help).toContain("\n会员卡 (1)");
    expect(help).not.toContain("card —");
    expect(help).toContain("fv — Founder's view (2)");
    // 門店 and 门店 read alike: two tags, neither listed — the message is ranked as a question.
    expect((await say("门店")).Content ?? "").not.toMatch(/^门店[ :(]|^門店[ :(]/);
    expect((await say("Founder's view of the holiday tips")).Content ?? "").not.toStartWith("Founder's view (fv):");
    // A description left behind by a tag no live article carries (a merge keeps it) does not hide the live tag's.
    const left = await t.handle(signedRequest("POST", "/api/cli", { files: [{ name: "json", content: doc([article(53, { code: "d1", tag: "desk", title: "Front desk" })], { tags: { counter: "服务台", desk: "服务台" } }) }], nowMs: t.clock.now() }));
    expect(left.status).toBe(200);
    expect((await say("服务台")).Content).toBe("服务台:\nd1  Front desk");
  });
  test("a tag's description that asks for another answer ('others') lists the tag unless a list was just sent, which it continues; one that thanks is thanks", async () => {
    const res = await t.handle(
      signedRequest("POST", "/api/cli", {
        files: [{ name: "json", content: doc([article(60, { code: "r1", title: "Returns of class passes", body: "Cancel a class 24 hours ahead and the pass is returned." }), article(61, { code: "r2", title: "Returns of memberships", body: "Memberships are returned pro rata." }), article(62, { code: "r3", title: "Returns of gift cards", body: "Gift cards are returned within 14 days." }), article(63, { code: "lp1", tag: "misc", title: "Lost property" }), article(64, { code: "ty1", tag: "ty", title: "Thank-you cards" })], { tags: { misc: "Others", ty: "Thanks" } }) }],
        nowMs: t.clock.now(),
      }),
    );
    expect(res.status).toBe(200);
    // With no list before it, the description lists its tag ("回复Others" too); after a ranked list, "others" asks for the next articles.
    expect((await say("Others"))?.Content).toStartWith("Others (misc):");
    expect((await say("回复Others"))?.Content).toStartWith("Others (misc):");
    expect((await say("returns")).Content).toStartWith("r");
    expect((await say("others"))?.Content ?? "").not.toStartWith("Others (misc):");
    // Thanks get no reply at all (courtesy), not the tag's list.
    expect((await say("Thanks"))?.Content).toBeUndefined();
  });
  test("a tag lists its live articles' codes and titles", async () => {
    const x = await say("fv");
    expect(x.Content).toBe("Founder's view (fv):\nfv3  Founder's view 3\nfv4  Founder's view 4");
  });
  test("free text and s <words> find the best article by title, keywords, description", async () => {
    expect(items(await say("vision")).item).toMatchObject({ Title: "Founder's view 3" });
    expect(items(await say("s holiday")).item).toMatchObject({ Title: "春节快乐 holiday tips" });
    expect(items(await say("春节")).item).toMatchObject({ Title: "春节快乐 holiday tips" }); // 2-character Chinese word
    expect(items(await say("s rest")).item).toMatchObject({ Title: "春节快乐 holiday tips" });
  });
  test("a follower's 'ho' or 's ti' finds no title that holds it only inside a word ('holiday', 'tips')", async () => {
    expect((await say("ho")).Content).toBe("Say h for help.");
    expect((await say("s ti")).Content).toBe("Nothing found. Send h for help.");
  });
  test("a CreateTime in milliseconds (as some tools send it) is answered like any other", async () => {
    expect(items((await send(textMsg("FV3", NOW * 1000))).xml as XmlNode).item).toMatchObject({ Title: "Founder's view 3" });
    expect((await send(textMsg("FV3", NOW * 10000))).status).toBe(400);
  });
  test("keywords are searched as words, not as their JSON text: quotes, commas and brackets find nothing", async () => {
    for (const probe of ['s ","', 's ["', 's "]', 's der","vis']) expect({ probe, reply: (await say(probe)).Content }).toEqual({ probe, reply: "Nothing found. Send h for help." });
    // Punctuation alone asks nothing: no reply (docs/answers.md "What followers get").
    expect((await send(textMsg('","', NOW))).text).toBe("success");
    // Anger without a word is no thanks: the fallback, and the inbox (it had been logged as courtesy, unseen).
    expect((await say("😡😡😡")).Content).toBe("Say h for help.");
    t.clock.advance(1000);
    const inbox = await body(await t.handle(signedRequest("GET", "/api/cli", { fields: [["inbox", "unmatched"]], nowMs: t.clock.now() })));
    expect((inbox.data.items as { content: string }[]).map((i) => i.content)).toContain("😡😡😡");
    // Both titles hold the words, neither clearly ahead: a list, labelled by their codes.
    const both = (await say("s founder view")).Content as string;
    for (const entry of ["fv3  Founder's view 3\n", "fv4  Founder's view 4\n"]) expect(both).toContain(entry);
    // The keyword alone is that article's (wechat/answering/taught.ts).
    expect(items(await say("s founder")).item).toMatchObject({ Title: "Founder's view 3" });
    expect(items(await say("s vision")).item).toMatchObject({ Title: "Founder's view 3" });
    // The operator's listing too.
    t.clock.advance(1000);
    const listed = await body(await t.handle(signedRequest("GET", "/api/cli", { fields: [["q", '","']], nowMs: t.clock.now() })));
    expect(listed.data.items).toEqual([]);
  });
  test("nothing found: not_found for s <words>, the fallback text otherwise; deleted articles are never served", async () => {
    expect((await say("s zzzzzz")).Content).toBe("Nothing found. Send h for help.");
    expect((await say("qqqqqq")).Content).toBe("Say h for help.");
    expect((await say("old")).Content).toBe("Say h for help.");
  });
  test("subscribe gets the welcome text, with or without a qrscene key", async () => {
    expect((await send(eventMsg("subscribe", NOW))).xml?.Content).toBe("Welcome aboard!");
    expect((await send(eventMsg("subscribe", NOW + 1, "qrscene_123"))).xml?.Content).toBe("Welcome aboard!");
  });
  test("unknown types, unknown events and unsubscribe get success; media messages the fallback", async () => {
    expect((await send(otherMsg("miniprogrampage", NOW))).text).toBe("success");
    expect((await send(eventMsg("TEMPLATESENDJOBFINISH", NOW))).text).toBe("success");
    expect((await send(eventMsg("unsubscribe", NOW))).text).toBe("success");
    expect((await send(eventMsg("VIEW", NOW, "https://example.com"))).text).toBe("success");
    expect((await send(otherMsg("image", NOW))).xml?.Content).toBe("Say h for help.");
  });
});

describe("operator rules (first match wins, before the built-ins)", () => {
  test("exact, prefix, contains and regex", async () => {
    expect((await say("hello")).Content).toBe("Hi there");
    expect(items(await say("price list")).item).toMatchObject({ Title: "Founder's view 4" });
    expect((await say("I want a refund now")).Content).toBe("Refunds: see the menu");
    expect((await say("order #12345")).Content).toBe("Order received");
  });
  test("exact, prefix and contains read the message and the pattern alike in case, width, traditional characters and apostrophes", async () => {
    expect((await say("请问营业时间是几点")).Content).toBe("9:00-18:00");
    expect((await say("營業時間")).Content).toBe("9:00-18:00");
    expect((await say("wifi密码")).Content).toBe("see the table card");
    expect((await say("WiFi密碼")).Content).toBe("see the table card");
    // An iPhone's apostrophe is the keyboard's (a Leeds library's walkthrough: "what’s on" got the fallback).
    for (const said of ["what’s on", "What’s on?", "what's on"]) expect({ said, reply: (await say(said)).Content }).toEqual({ said, reply: "See the events page" });
    expect((await say("HELLO")).Content).toBe("Hi there");
    expect((await say("ＰＲＩＣＥ list")).MsgType).toBe("news");
    // Still the whole message for exact.
    expect((await say("wifi密码在哪")).Content).not.toBe("see the table card");
  });
  test("exact reads the message without the punctuation and emoji a phone ends it with; not without its words", async () => {
    for (const said of ["WiFi密碼？", "wifi密码?!", "wifi密码。。。", "wifi密码 🙏", "wifi密码呀", "WiFi密碼呢？", "Hello!", "hello~"]) expect({ said, reply: (await say(said)).Content }).toEqual({ said, reply: said.startsWith("wifi") || said.startsWith("WiFi") ? "see the table card" : "Hi there" });
    for (const said of ["¿wifi密码", "wifi密码呀呀", "Hello!!x", "Hello#", "Hello+", "Hello%"]) expect({ said, reply: (await say(said)).Content }).not.toEqual({ said, reply: said.includes("wifi") ? "see the table card" : "Hi there" });
  });
  test("an exact rule matches a message ending in an emoji with a skin tone, a family's joiners, a flag or a keycap", async () => {
    for (const said of ["Hello👋🏻", "Hello🙏🏽", "Hello👨\u200d👩\u200d👧", "Hello🇨🇳", "wifi密码👍🏻"]) expect({ said, reply: (await say(said)).Content }).toEqual({ said, reply: said.includes("wifi") ? "see the table card" : "Hi there" });
  });
  test("a message is read without the invisible format characters a pasted or right-to-left text ends it with (zero-width space, direction marks, word joiner, byte-order mark)", async () => {
    for (const said of ["Hello\u200b", "\u200eHello\u200f", "\ufeffwifi密码\u2060", "wifi密码？\u200b"]) expect({ said, reply: (await say(said)).Content }).toEqual({ said, reply: said.includes("wifi") ? "see the table card" : "Hi there" });
    // Inside the text it stays as typed: the rule is for the whole message.
    expect((await say("Hel\u200blo")).Content).not.toBe("Hi there");
  });
  test("exact rules whose patterns differ by a mark are each their own: C#, C++ and C; hours? before hours", async () => {
    const rules = [
      { id: "cs", match: "exact", pattern: "C#", reply: { type: "text", text: "C# course" } },
      { id: "cpp", match: "exact", pattern: "C++", reply: { type: "text", text: "C++ course" } },
      { id: "c", match: "exact", pattern: "C", reply: { type: "text", text: "C course" } },
      { id: "pct", match: "exact", pattern: "50%", reply: { type: "text", text: "half off" } },
      { id: "h1", match: "exact", pattern: "hours", reply: { type: "text", text: "9 to 5" } },
      { id: "h2", match: "exact", pattern: "hours?", reply: { type: "text", text: "asked: 9 to 5" } },
    ];
    const put = await t.call("POST", "/api/cli", [["mode", "merge"]], { files: [{ name: "json", content: JSON.stringify({ format: "replyd/1", matter: "rules", rules }) }] });
    expect(put.status).toBe(200);
    const got = async (said: string) => (await say(said)).Content;
    expect([await got("C++"), await got("c#"), await got("c"), await got("c!"), await got("C？")]).toEqual(["C++ course", "C# course", "C course", "C course", "C course"]);
    expect(await got("50")).not.toBe("half off");
    expect([await got("hours?"), await got("hours"), await got("hours!")]).toEqual(["asked: 9 to 5", "9 to 5", "9 to 5"]);
  });
  test("a tag reply to a message: more than 1 article becomes a text list", async () => {
    expect((await say("founders")).Content).toBe("Founder's view (fv):\nfv3  Founder's view 3\nfv4  Founder's view 4");
  });
  test("a tag reply to an event (menu click): up to 8 articles as news", async () => {
    const x = (await send(eventMsg("CLICK", NOW, "MENU_MANY"))).xml as XmlNode;
    expect(x.MsgType).toBe("news");
    expect(x.ArticleCount).toBe("8");
  });
  test("a rule whose articles are all gone is passed over", async () => {
    expect((await say("ghost")).Content).toBe("Say h for help.");
  });
  test("a catastrophic regex is cut off and treated as not matching", async () => {
    expect((await say("a".repeat(40) + "!")).Content).toBe("Say h for help.");
  });
});

describe("safe mode (encrypted)", () => {
  test("text → news and event → text round trips, opened and verified by the peer implementation", async () => {
    const x = await say("fv3", { encrypt: true });
    expect(x).toMatchObject({ MsgType: "news", ArticleCount: "1" });
    expect((await send(eventMsg("subscribe", NOW + 5), { encrypt: true })).xml?.Content).toBe("Welcome aboard!");
  });
  test("the encrypted reply carries TimeStamp in seconds and a fresh nonce", async () => {
    const a = await t.handle(wxPost(textMsg("help", NOW), NOW, { encrypt: true }));
    const b = await t.handle(wxPost(textMsg("help", NOW), NOW, { encrypt: true }));
    const [oa, ob] = [parseXml(await a.text()), parseXml(await b.text())];
    expect(oa.TimeStamp).toBe(String(NOW));
    expect(oa.Nonce).not.toBe(ob.Nonce);
    expect(oa.Encrypt).not.toBe(ob.Encrypt); // fresh random prefix
  });
  test("a bad msg_signature or a wrong appid is refused", async () => {
    expect((await send(textMsg("fv3", NOW), { encrypt: true, badSignature: true })).status).toBe(401);
    // @ts-expect-error: untyped peer
    const { default: WX } = await import("wechat-crypto");
    const other = new WX(TOKEN, AESKEY, "wx0000000000000000");
    const encrypted = other.encrypt(textMsg("fv3", NOW));
    const q = new URLSearchParams({ timestamp: String(NOW), nonce: "1", encrypt_type: "aes", msg_signature: other.getSignature(String(NOW), "1", encrypted) });
    const res = await t.handle(new Request(`http://localhost/wechat?${q}`, { method: "POST", body: `<xml><Encrypt><![CDATA[${encrypted}]]></Encrypt></xml>` }));
    expect(res.status).toBe(401);
  });
});

describe("fail-closed checks on every POST", () => {
  test("bad signature and stale timestamp are refused", async () => {
    expect((await send(textMsg("fv3", NOW), { badSignature: true })).status).toBe(401);
    t.clock.advance(6 * 60_000);
    const res = await t.handle(wxPost(textMsg("fv3", NOW), NOW));
    expect(res.status).toBe(401);
  });
  test("each refusal's reason is in the server's log, one line per reason per 10 s with the count meanwhile", async () => {
    const logged: string[] = [];
    const app = await testApp({ wechat, logError: (m) => void logged.push(m) });
    try {
      const at = Math.floor(app.clock.now() / 1000);
      for (let i = 0; i < 4; i++) expect((await app.handle(wxPost(textMsg("fv3", at), at, { badSignature: true }))).status).toBe(401);
      expect(logged).toEqual([expect.stringContaining("wechat callback refused (bad_signature): the signature does not match the wx-token (--wx-token, or the account's in the config file)")]);
      expect((await app.handle(wxPost(textMsg("fv3", at - 3600), at - 3600))).status).toBe(401);
      expect(logged[1]).toContain("refused (stale_timestamp)");
      expect(logged[1]).toContain("3600 s behind this server's clock");
      app.clock.advance(10_000);
      await app.handle(wxPost(textMsg("fv3", at + 10), at + 10, { badSignature: true }));
      expect(logged[2]).toContain("(3 more refused for this since the last line)");
      expect(logged.join("\n")).not.toContain(TOKEN);
    } finally {
      app.close();
    }
  });
  test("hostile and malformed XML gets 400 or 413, never a 5xx; the server stays up", async () => {
    const cases: [string, number][] = [
      ['<!DOCTYPE x [<!ENTITY a "b">]><xml><A>&a;</A></xml>', 400],
      ["<xml><ToUserName>x</ToUserName><Content>&xxe;</Content></xml>", 400],
      ["<xml><unclosed></xml>", 400],
      ["not xml at all", 400],
      ["<xml></xml>", 400],
      ["<xml>" + "<a>".repeat(1000) + "</a>".repeat(1000) + "</xml>", 400], // too deep, under the size cap
      ["<xml>" + "<a>".repeat(10_000) + "</a>".repeat(10_000) + "</xml>", 413],
      ["<xml><Content><![CDATA[" + "x".repeat(70_000) + "]]></Content></xml>", 413],
    ];
    for (const [xml, status] of cases) expect((await send("", { body: xml })).status).toBe(status);
    const invalidUtf8 = new Request(wxPost("", NOW).url, { method: "POST", body: new Uint8Array([0x3c, 0x78, 0x6d, 0x6c, 0x3e, 0xff, 0xfe, 0x3c]) });
    expect((await t.handle(invalidUtf8)).status).toBe(400);
    expect((await t.handle(new Request("http://localhost/healthz"))).status).toBe(200);
  });
  test("the body cap holds with a declared length and with a streamed body of no declared length", async () => {
    // A fresh signature per message: one signature carries one message.
    const signedUrl = () => wxPost("", NOW).url;
    const declared = (xml: string, length: number) =>
      new Request(signedUrl(), { method: "POST", body: xml, headers: { "content-length": String(length) } });
    const streamed = (xml: string, pieces: number) => {
      const bytes = new TextEncoder().encode(xml);
      const step = Math.ceil(bytes.length / pieces);
      return new Request(signedUrl(), {
        method: "POST",
        body: new ReadableStream({
          start(c) {
            for (let at = 0; at < bytes.length; at += step) c.enqueue(bytes.subarray(at, at + step));
            c.close();
          },
        }),
      });
    };
    const big = `<xml><Content><![CDATA[${"x".repeat(70_000)}]]></Content></xml>`;
    expect((await t.handle(declared(textMsg("fv3", NOW), 70_000))).status).toBe(413); // refused on the header alone
    expect((await t.handle(streamed(big, 9))).status).toBe(413);
    // Under the cap, both ways are answered: the news reply for the code.
    for (const res of [await t.handle(declared(textMsg("fv3", NOW), Buffer.byteLength(textMsg("fv3", NOW)))), await t.handle(streamed(textMsg("fv4", NOW), 3))]) {
      expect(res.status).toBe(200);
      expect(parseXml(await res.text()).MsgType).toBe("news");
    }
  });
  test("without a token the callback answers 503 and the admin interface still works", async () => {
    const bare = await testApp();
    try {
      expect((await bare.handle(wxPost(textMsg("fv3", NOW), NOW))).status).toBe(503);
      expect((await bare.handle(new Request("http://localhost/wechat?echostr=x"))).status).toBe(503);
      expect((await bare.handle(signedRequest("GET", "/api/cli"))).status).toBe(200);
    } finally {
      bare.close();
    }
  });
  test("the callback path follows --wx-path", async () => {
    const custom = await testApp({ wechat: { ...wechat, path: "/cb/wx" } });
    try {
      const res = await custom.handle(wxPost(textMsg("h", NOW), NOW, { path: "/cb/wx" }));
      expect(parseXml(await res.text()).MsgType).toBe("text");
    } finally {
      custom.close();
    }
  });
});

describe("retries and the deadline", () => {
  async function slowApp(delayMs: number, deadlineMs = 4500) {
    let calls = 0;
    const app = await testApp({
      wechat: { ...wechat, deadlineMs },
      responder: {
        async respond(m: Inbound) {
          calls++;
          await Bun.sleep(delayMs);
          return new Responder(app.store, { match: async () => new Set<number>() } as never).respond(m);
        },
      },
    });
    await load(app);
    return { app, calls: () => calls };
  }

  test("concurrent duplicates wait for the first answer, get it byte for byte, and are processed and logged once", async () => {
    const { app, calls } = await slowApp(100);
    try {
      const xml = textMsg("fv3", NOW, "777");
      const replies = await Promise.all([0, 1, 2].map(() => app.handle(wxPost(xml, NOW, { encrypt: true })).then((r) => r.text())));
      expect(new Set(replies).size).toBe(1);
      expect(openReply(replies[0] as string).MsgType).toBe("news");
      const later = await (await app.handle(wxPost(xml, NOW, { encrypt: true }))).text();
      expect(later).toBe(replies[0] as string);
      expect(calls()).toBe(1);
      expect((await app.log.list({ only: null, limit: 10, offset: 0 })).items.filter((m) => m.msg_key === "m:o_follower:777")).toHaveLength(1);
    } finally {
      app.close();
    }
  });

  test("events are deduplicated by sender + CreateTime + event + key", async () => {
    const { app, calls } = await slowApp(0);
    try {
      await app.handle(wxPost(eventMsg("subscribe", NOW), NOW));
      await app.handle(wxPost(eventMsg("subscribe", NOW), NOW));
      await app.handle(wxPost(eventMsg("subscribe", NOW + 1), NOW));
      expect(calls()).toBe(2);
    } finally {
      app.close();
    }
  });

  test("an answer not ready by the deadline becomes success, for the retries too", async () => {
    const { app, calls } = await slowApp(400, 100);
    try {
      const xml = textMsg("fv3", NOW, "888");
      expect(await (await app.handle(wxPost(xml, NOW))).text()).toBe("success");
      expect(await (await app.handle(wxPost(xml, NOW))).text()).toBe("success");
      expect(calls()).toBe(1);
      await Bun.sleep(450); // the slow work still finishes and is logged once
      expect((await app.log.list({ only: null, limit: 10, offset: 0 })).items.map((m) => m.msg_key)).toContain("m:o_follower:888");
    } finally {
      app.close();
    }
  });
});

describe("inbox", () => {
  test("messages that matched nothing are listed newest first through the signed API", async () => {
    await say("first unknown thing");
    await say("fv3");
    t.clock.advance(1000);
    await send(textMsg("second unknown thing", NOW + 1));
    await say("s nothing-like-this");
    const res = await t.handle(signedRequest("GET", "/api/cli", { fields: [["inbox", "unmatched"]], nowMs: t.clock.now() }));
    const data = (await body(res)).data;
    expect(data.items.map((m: { content: string }) => m.content)).toEqual(["s nothing-like-this", "second unknown thing", "first unknown thing"]);
    expect(data.items[0]).toMatchObject({ answer: "not_found", unmatched: true, from_user: "o_follower" });
    const all = await body(await t.handle(signedRequest("GET", "/api/cli", { fields: [["inbox", "all"]], nowMs: t.clock.now() })));
    expect(all.data.total).toBe(4);
  });
});
