/**
 * How followers were answered (issue 35 C; docs/operations.md "The report"), through the app on
 * each store: follower messages through the callback, then GET /api/cli/report — the kinds per day
 * and the share answered, the questions nothing answered grouped, close calls, follow-ups asked
 * right after, reply times, and who may ask.
 */
import { afterEach, beforeEach, expect, test } from "bun:test";
import { CODE } from "../../src/base/errors.ts";
import type { Report } from "../../src/server/report/figures.ts";
import type { Param } from "../../src/sign.ts";
import { wxSignature } from "../../src/wechat/door/crypto.ts";
import { doc, READER, testApp } from "../helpers.ts";
import { TOKEN } from "../wechat/helpers.ts";

let t: Awaited<ReturnType<typeof testApp>>;
beforeEach(async () => (t = await testApp({ wechat: { token: TOKEN } })));
afterEach(() => t.close());

/** A signed admin request, answered as status and body (helpers.ts testApp.call). */
const call: (typeof t)["call"] = (...a) => t.call(...a);
const report = async (fields: Param[] = [["since", "24h"], ["tz", "480"]]) => {
  const r = await call("GET", "/api/cli/report", fields);
  expect(r.status).toBe(200);
  return r.data as Report;
};

let msgIds = 5000;
/** A follower's message through the callback, `after` ms after the one before (the platform's request, signed for that follower). */
async function say(from: string, what: string | { event: string } | { type: string }, after = 1000): Promise<string> {
  t.clock.advance(after);
  const now = Math.floor(t.clock.now() / 1000);
  const head = `<ToUserName><![CDATA[gh_account]]></ToUserName><FromUserName><![CDATA[${from}]]></FromUserName><CreateTime>${now}</CreateTime>`;
  const xml =
    typeof what === "string"
      ? `<xml>${head}<MsgType><![CDATA[text]]></MsgType><Content><![CDATA[${what}]]></Content><MsgId>${++msgIds}</MsgId></xml>`
      : "event" in what
        ? `<xml>${head}<MsgType><![CDATA[event]]></MsgType><Event><![CDATA[${what.event}]]></Event></xml>`
        : `<xml>${head}<MsgType><![CDATA[${what.type}]]></MsgType><MsgId>${++msgIds}</MsgId></xml>`;
  const nonce = String(1e9 + Math.floor(Math.random() * 9e9));
  const q = new URLSearchParams({ timestamp: String(now), nonce, openid: from, signature: wxSignature(TOKEN, String(now), nonce) });
  return (await t.handle(new Request(`http://localhost/wechat?${q}`, { method: "POST", body: xml, headers: { "content-type": "text/xml" } }))).text();
}

// A shop's FAQ account: "how long does delivery take" ranks Delivery times alone, Express delivery close behind (0.39 of it).
const SHOP = [
  { id: "returns", code: "r1", tag: "shop", title: "Returns and refunds", url: "https://shop.example/returns", body: "You can return any item within 30 days of delivery. Refunds are paid to the original payment method within 5 working days." },
  { id: "delivery", tag: "shop", title: "Delivery times", url: "https://shop.example/delivery", body: "Orders ship within 2 days. Standard delivery takes 3 to 5 working days; express delivery arrives the next day." },
  { id: "password", title: "Reset your password", url: "https://shop.example/password", body: "Click forgot password on the sign-in page and follow the link we email you." },
  { id: "payment", title: "Ways to pay", url: "https://shop.example/payment", body: "We accept credit cards and bank transfers. Invoices are sent by email." },
  { id: "express", title: "Express delivery", url: "https://shop.example/express", body: "Express delivery costs 10 euros and arrives the next working day." },
];
async function shop(): Promise<void> {
  const rules = [{ id: "hours", match: "exact", pattern: "hours", reply: { type: "text", text: "We are open 9 to 6." } }];
  const r = await call("POST", "/api/cli", [["mode", "merge"]], { files: [{ name: "json", content: doc(SHOP, { matter: "all", rules }) }] });
  expect(r.status).toBe(200);
  await t.store.indexed();
}

test("messages per day by how they were answered, the share answered and the sends, in the days of the offset asked", async () => {
  await shop();
  await say("o_a", "hours"); // rule
  await say("o_a", "h"); // help
  await say("o_a", "r1"); // code
  await say("o_a", "shop"); // tag
  await say("o_b", "how long does delivery take"); // ranked article alone
  await say("o_b", "delivery"); // ranked list
  await say("o_c", "I want my money back"); // fallback
  await say("o_c", "s zzzz"); // an explicit search that found nothing
  await say("o_d", { event: "subscribe" }); // welcome
  await say("o_d", { type: "image" }); // media: the fallback text, in the inbox, counted apart from texts
  await t.log.record({ openid: "o_c", type: "text", content: "We will look into it.", sentBy: "admin1", replyTo: null, nowMs: t.clock.now() });
  const r = await report();
  expect(r.totals.kinds).toEqual({ rule: 1, help: 1, code: 1, tag: 1, answer: 1, answers: 1, fallback: 1, not_found: 1, welcome: 1, media: 1 });
  expect(r.totals).toMatchObject({ messages: 10, answered: 6, unanswered: 2, share: 0.75, sent: { operator: 1, ai: 0 } });
  // T0 is 10:00 UTC, 18:00 at UTC+8: the day of the messages there; since 24h back, the day before starts the report.
  expect(r.tz).toBe("+08:00");
  expect(r.days.map((d) => [d.day, d.messages])).toEqual([
    ["2026-11-20", 0],
    ["2026-11-21", 10],
  ]);
  // In UTC-11 the same time is the day before.
  const west = await report([["since", "24h"], ["tz", "-660"]]);
  expect(west.days.find((d) => d.messages)?.day).toBe("2026-11-20");
  // A day one quarter hour wide: since the quarter hour the messages fell in.
  expect((await report([["since", "2026-11-21"], ["tz", "0"]])).totals.messages).toBe(10);
  // At UTC+14 T0 is the next day's first minute.
  expect((await report([["since", "2026-11-22"], ["tz", "840"]])).totals.messages).toBe(10);
});

test("the route: admin keys only (a read key 403), since and tz checked with what to send, 92 days at most", async () => {
  const refused = await call("GET", "/api/cli/report", [], { key: READER });
  expect(refused).toMatchObject({ status: 403, error: { code: CODE.forbidden } });
  expect(refused.error.message).toContain("needs an admin key");
  for (const [field, value, says] of [
    ["since", "8x", "7d, 24h"],
    ["since", "93d", "at most 92 days"],
    ["since", `${92 * 24 + 1}h`, "at most 92 days"],
    ["since", "2026-11-22", "after now"],
    ["since", "2026-02-30", "a day (2026-11-01)"],
    ["tz", "481", "a multiple of 15"],
    ["tz", "855", "from -720 to 840"],
    ["tz", "-735", "from -720 to 840"],
  ] as const) {
    const r = await call("GET", "/api/cli/report", [[field, value]]);
    expect(r).toMatchObject({ status: 400, error: { code: CODE.bad_request } });
    expect(r.error.message).toContain(says);
  }
  expect((await call("GET", "/api/cli/report", [["until", "x"]])).error.code).toBe(CODE.unknown_field);
  // The limits themselves are taken.
  for (const fields of [[["since", "92d"]], [["since", `${92 * 24}h`]], [["tz", "840"]], [["tz", "-720"]], []] as Param[][]) expect((await call("GET", "/api/cli/report", fields)).status).toBe(200);
  // Without since, the last 7 days.
  const week = await report([]);
  expect(week.since).toBe(new Date(Math.floor((t.clock.now() - 7 * 86_400_000) / 900_000) * 900_000).toISOString());
});

test("the questions nothing answered, grouped: the same question in other words counts once, with its followers, last time and a SEQ teach takes", async () => {
  await shop();
  await say("o_a", "I want my money back");
  await say("o_b", "i want my MONEY back!!");
  await say("o_c", "Can I have my money back please?");
  await say("o_a", "I want my money back");
  const lastAsked = new Date(t.clock.now()).toISOString();
  await say("o_d", "怎么开发票");
  await say("o_e", "如何开发票？");
  await say("o_f", "is the store open on sunday");
  const r = await report();
  const groups = r.unanswered_questions.groups;
  expect(groups.map((g) => [g.text, g.count, g.followers])).toEqual([
    ["I want my money back", 4, 3],
    // Asked as often: the newest wording.
    ["如何开发票？", 2, 2],
    ["is the store open on sunday", 1, 1],
  ]);
  expect(r.unanswered_questions).toMatchObject({ groups_total: 3, grouped: 7 });
  expect(groups[0]?.last_at).toBe(lastAsked);
  // Its SEQ is the newest message of that wording: teach it, and the paraphrases are answered with the article.
  const taught = await call("POST", "/api/cli/teach", [["inbox", String(groups[0]?.seq)], ["id", "returns"]]);
  expect(taught).toMatchObject({ status: 200, data: { question: "I want my money back" } });
  await t.store.indexed();
  expect(await say("o_g", "can I have my money back?")).toContain("Returns and refunds");
  // The followers' ids are counted, never shown.
  expect(JSON.stringify(r)).not.toContain("o_a");
  expect(groups.map((g) => g.answered_now)).toEqual([undefined, undefined, undefined]);
  // Asked again: the taught question is said to be answered now, with its article titled; the others are not.
  const after = await report();
  const now = new Map(after.unanswered_questions.groups.map((g) => [g.text, g.answered_now]));
  expect(now.get("I want my money back")).toBe("answer:returns");
  expect(after.articles.returns).toBe("Returns and refunds");
  expect([now.get("如何开发票？"), now.get("is the store open on sunday")]).toEqual([undefined, undefined]);
});

test("messages naming nothing to teach (emoji alone, only how long or what to bring) are counted, not listed among the questions to teach; a question after many emoji is one", async () => {
  await shop();
  await say("o_a", "😡😡😡");
  await say("o_b", "😤😤");
  await say("o_d", "要多久");
  await say("o_e", "要带啥");
  await say("o_c", "is the store open on sunday");
  await say("o_f", `${"😡".repeat(100)} why is the store closed on sunday`);
  const u = (await report()).unanswered_questions;
  expect(u.groups.map((g) => g.text).sort()).toEqual([`${"😡".repeat(100)} why is the store closed on sunday`, "is the store open on sunday"].sort());
  expect(u).toMatchObject({ grouped: 2, nothing_named: 4 });
  // Teach refuses them: what the report no longer offers.
  const all = (await call("GET", "/api/cli", [["inbox", "unmatched"]])).data.items as { seq: number; content: string }[];
  const angry = all.find((m) => m.content === "😡😡😡") as { seq: number };
  expect((await call("POST", "/api/cli/teach", [["inbox", String(angry.seq)], ["id", "returns"]])).error.code).toBe("not_a_question");
});

test("the questions are grouped with the operator's synonyms: their phrasings are one question", async () => {
  await shop();
  await say("o_a", "怎么转人工");
  await say("o_b", "怎么转客服");
  expect((await report()).unanswered_questions.groups_total).toBe(2);
  const r = await call("POST", "/api/cli", [["mode", "merge"]], { files: [{ name: "json", content: JSON.stringify({ format: "replyd/1", matter: "synonyms", synonyms: [["人工", "客服"]] }) }] });
  expect(r.status).toBe(200);
  expect((await report()).unanswered_questions.groups.map((g) => [g.text, g.count])).toEqual([["怎么转客服", 2]]);
});

test("close calls: an article sent alone whose runner-up scored 35% of it or more, with the article's title", async () => {
  await shop();
  // Returns and refunds alone, Delivery times at 0.31 of it; Delivery times alone, Express delivery at 0.39.
  await say("o_a", "return within 30 days");
  await say("o_b", "how long does delivery take");
  const r = await report();
  expect(r.close_calls).toMatchObject({ count: 1, alone: 2, margin_from: 0.35, list_from: 0.5 });
  expect(r.close_calls.examples).toEqual([{ seq: expect.any(Number), at: expect.any(String), text: "how long does delivery take", answer: "answer:delivery", margin: expect.closeTo(0.393, 2) }]);
  expect(r.articles).toEqual({ delivery: "Delivery times" });
  expect(r.days.find((d) => d.day === "2026-11-21")?.close).toBe(1);
});

test("asked again: a follower's text asking about the question again within 120 s of an answer the ranking chose counts, with what it followed; not at 121 s, nor after the fallback, nor a question of its own", async () => {
  await shop();
  await say("o_a", "how long does delivery take");
  await say("o_a", "no, how long does express delivery take", 120_000);
  await say("o_b", "how long does delivery take");
  await say("o_b", "delivery to Canada?", 121_000);
  await say("o_f", "how long does delivery take");
  await say("o_f", "I want my money back", 5000);
  await say("o_c", "I want my money back");
  await say("o_c", "hello?", 5000);
  // A follower's message right after another's answer is not theirs.
  await say("o_d", "delivery express");
  await say("o_e", "thanks", 1000);
  const r = await report();
  expect(r.asked_again).toMatchObject({ count: 1, within_s: 120 });
  expect(r.asked_again.chosen).toBe((r.totals.kinds.answer ?? 0) + (r.totals.kinds.answers ?? 0) + (r.totals.kinds.search ?? 0));
  expect(r.asked_again.examples).toEqual([
    { seq: expect.any(Number), at: expect.any(String), text: "no, how long does express delivery take", answer: expect.any(String), after: { seq: expect.any(Number), at: expect.any(String), text: "how long does delivery take", answer: "answer:delivery" } },
  ]);
  expect(r.articles.delivery).toBe("Delivery times");
});

test("reply times: from the message's arrival to its answer, p50 and p99 per day; messages logged without one are counted apart", async () => {
  await shop();
  // The ranking takes the time the test says (the clock moves while it runs).
  const searcher = t.store.searcher;
  const rank = searcher.rank.bind(searcher);
  const delays = [100, 200, 300, 2500];
  searcher.rank = async (q, asking) => {
    t.clock.advance(delays.shift() ?? 0);
    return rank(q, asking);
  };
  await say("o_a", "h");
  for (const q of ["how long does delivery take", "password", "can I pay by card", "refund"]) await say("o_a", q);
  // As a message logged before replyd kept reply times.
  t.log.add({ received_ms: t.clock.now(), msg_key: "old:1", from_user: "o_z", type: "text", event: null, content: "old", answer: "help", unmatched: false });
  const r = await report();
  const day = r.days.find((d) => d.day === "2026-11-21");
  expect(day?.reply_ms).toEqual({ n: 5, p50: 200, p99: 2500 });
  expect(day?.no_reply_time).toBe(1);
  expect(r.totals.reply_ms).toEqual({ n: 5, p50: 200, p99: 2500 });
  await t.log.settled();
  const logged = (await t.log.list({ only: null, limit: 10, offset: 0 })).items.map((m) => m.reply_ms);
  expect(logged).toEqual([null, 2500, 300, 200, 100, 0]);
});
