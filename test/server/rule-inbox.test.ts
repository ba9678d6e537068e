/**
 * A rule kept for the inbox (doc/rule.ts `inbox`): it answers, and the message stays in `replyd inbox`
 * for someone to answer too — a parcel chain's operator acknowledged tracking numbers with a rule and
 * then never saw them (a walkthrough, 0.2.27).
 */
import { afterEach, beforeEach, expect, test } from "bun:test";
import { testApp } from "../helpers.ts";
import { textMsg, TOKEN, wxPost } from "../wechat/helpers.ts";

let t: Awaited<ReturnType<typeof testApp>>;
beforeEach(async () => (t = await testApp({ wechat: { token: TOKEN } })));
afterEach(() => t.close());
const rulesDoc = (rules: object[]) => JSON.stringify({ format: "replyd/1", matter: "rules", created_at: "2026-11-25T10:00:00.000Z", rules });
const importRules = (rules: object[]) => t.call("POST", "/api/cli", [["mode", "merge"]], { files: [{ name: "json", content: rulesDoc(rules) }] });
async function say(content: string) {
  t.clock.advance(1000);
  const at = Math.floor(t.clock.now() / 1000);
  return (await t.handle(wxPost(textMsg(content, at), at))).text();
}
const inbox = async () => {
  await t.log.settled();
  return ((await t.call("GET", "/api/cli", [["inbox", "unmatched"]])).data.items as { content: string; answer: string }[]).map((m) => [m.content, m.answer]);
};
const ACK = "收到您的运单号，店员会在营业时间内查询后回复您。";

test("a rule with inbox: true answers and keeps the message in the inbox; without it, the message leaves the inbox", async () => {
  expect((await importRules([
    { id: "tracking", match: "regex", pattern: "[A-Z]{2}\\d{10,}", reply: { type: "text", text: ACK }, inbox: true },
    { id: "hours", match: "contains", pattern: "几点开门", reply: { type: "text", text: "每天8:00开门。" } },
  ])).status).toBe(200);
  expect(await say("帮忙看下我的件 单号YT8812345678901")).toContain(ACK);
  expect(await say("你们几点开门")).toContain("每天8:00开门。");
  expect(await inbox()).toEqual([["帮忙看下我的件 单号YT8812345678901", "rule:tracking"]]);
  // Kept as written in the store (and so in a backup's rules); false is the same as leaving it out.
  expect(t.store.content.rules().map((r) => [r.id, r.inbox ?? false])).toEqual([["tracking", true], ["hours", false]]);
});

test("inbox must be true or false; the rule is refused otherwise, nothing written", async () => {
  const r = await importRules([{ id: "tracking", match: "contains", pattern: "单号", reply: { type: "text", text: ACK }, inbox: "yes" }]);
  expect(r.status).toBe(400);
  expect(r.error.problems).toEqual([{ section: "rules", index: 0, field: "inbox", reason: "must be true or false: true keeps the messages it answers in replyd inbox" }]);
  const off = await importRules([{ id: "tracking", match: "contains", pattern: "单号", reply: { type: "text", text: ACK }, inbox: false }]);
  expect(off.status).toBe(200);
  await say("我的单号是多少");
  expect(await inbox()).toEqual([]);
});

test("an entry a regex rule kept says nothing it gets now while the rule still answers it, and the rule answering now once its pattern no longer matches", async () => {
  // A bike share's walkthrough: "rule:ride-number → now answers:refunds,…", the ranking's, which no follower got.
  await t.call("POST", "/api/cli", [["mode", "merge"]], { files: [{ name: "json", content: JSON.stringify({ format: "replyd/1", matter: "articles", created_at: "2026-11-25T10:00:00.000Z", articles: [{ id: "refunds", title: "Refunds for a ride", url: "https://example.com/refunds", body: "Refunds for a ride reach your card in 5 days." }] }) }] });
  await importRules([{ id: "ride", match: "regex", pattern: "ride \\d{5}", reply: { type: "text", text: "We will look at ride numbers within a day." }, inbox: true }]);
  expect(await say("where is my refund for ride 88123")).toContain("ride numbers");
  const entry = async () => {
    await t.log.settled();
    const items = (await t.call("GET", "/api/cli", [["inbox", "unmatched"]])).data.items as { content: string; answer: string; answered_now?: string }[];
    return items.map((m) => [m.answer, m.answered_now ?? null]);
  };
  expect(await entry()).toEqual([["rule:ride", null]]);
  // A contains rule after it: the regex still answers first.
  await importRules([{ id: "refunds", match: "contains", pattern: "refund", reply: { type: "text", text: "Refunds take 5 days." } }]);
  expect(await entry()).toEqual([["rule:ride", null]]);
  // Its pattern changed so that it no longer matches: the contains rule answers now.
  await importRules([{ id: "ride", match: "regex", pattern: "trip \\d{5}", reply: { type: "text", text: "We will look at trip numbers within a day." }, inbox: true }]);
  expect(await entry()).toEqual([["rule:ride", "rule:refunds"]]);
});
