/**
 * `GET /api/cli?inbox=lists` (replyd inbox --lists): the questions the ranking answered with a list and
 * the 换一个s that got more, with what each gets now only when that changed. Cases from a review.
 */
import { afterEach, beforeEach, expect, test } from "bun:test";
import { CONVERSATION } from "../../src/wechat/answering/conversation.ts";
import { doc, testApp } from "../helpers.ts";
import { textMsg, TOKEN, wxPost } from "../wechat/helpers.ts";

let t: Awaited<ReturnType<typeof testApp>>;
beforeEach(async () => (t = await testApp({ wechat: { token: TOKEN } })));
afterEach(() => t.close());
const call: (typeof t)["call"] = (...a) => t.call(...a);
const importDoc = async (articles: object[]) => {
  const r = await call("POST", "/api/cli", [["mode", "merge"]], { files: [{ name: "json", content: doc(articles, { matter: "articles" }) }] });
  expect(r.status).toBe(200);
};
/** The follower's text `after` ms after their last. */
async function say(content: string, after = 1000) {
  t.clock.advance(after);
  const at = Math.floor(t.clock.now() / 1000);
  return (await t.handle(wxPost(textMsg(content, at), at))).text();
}
type Entry = { seq: number; content: string; answer: string; answered_now?: string; asked_of?: number };
const lists = async () => {
  await t.log.settled();
  return (await call("GET", "/api/cli", [["inbox", "lists"]])).data as { items: Entry[]; total: number };
};
const url = (id: string) => `https://example.com/${id}`;
const HOURS = { id: "hours", title: "营业时间", url: url("hours"), body: "春熙路店每天11:00到次日2:00营业，东郊店11:00到23:00营业。全年无休，最后点单在打烊前半小时。" };
const VOUCHERS = { id: "vouchers", title: "团购券使用规则", url: url("vouchers"), body: "代金券每桌最多使用2张。周末和法定节假日是否可用，请看券面说明。团购券不和会员价同时使用。" };
const PARKING = { id: "parking", title: "停车说明", url: url("parking"), body: "春熙路店使用商场地下停车场，消费满200元免费停车2小时。周末车位紧张，建议坐地铁来。" };

test("a follow-up answered with a list is listed as it was read, and says nothing of what its words alone get now: nothing changed", async () => {
  await importDoc([HOURS, VOUCHERS, PARKING]);
  await say("营业到几点");
  await say("周末呢", CONVERSATION.windowMs - 1000);
  const entry = (await lists()).items.find((m) => m.content === "周末呢");
  expect(entry?.answer).toStartWith("followup:answers:hours,");
  // Its words alone get a list led by another article; the follower, in conversation, did not.
  expect((await call("GET", "/api/cli/ask", [["q", "周末呢"]])).data.choice).toBe("list");
  expect(entry).not.toHaveProperty("answered_now");
});

test("a 换一个 after one article sent alone is listed, naming the question it turned down; the question's own entry is not (an article alone)", async () => {
  const rooms = [1, 2, 3, 4, 5].map((i) => ({ id: `room${i}`, title: `包间${"甲乙丙丁戊"[i - 1]}`, url: url(`room${i}`), body: `包间可坐${6 + i}人，最低消费${500 + i * 100}元，需提前一天预订。`, ...(i === 1 ? { questions: ["包间怎么预订"] } : {}) }));
  await importDoc([...rooms, HOURS]);
  await say("包间怎么预订");
  await say("换一个");
  const page = await lists();
  expect(page.items.map((m) => [m.content, m.answer.split(":").slice(0, 2).join(":")])).toEqual([["换一个", "another:answers"]]);
  const all = (await call("GET", "/api/cli", [["inbox", "all"]])).data.items as Entry[];
  const question = all.find((m) => m.content === "包间怎么预订") as Entry;
  expect(question.answer).toBe("answer:room1");
  expect(page.items[0]?.asked_of).toBe(question.seq);
});

const ROOMS = [1, 2, 3].map((i) => ({ id: `room${i}`, title: `包间${"甲乙丙"[i - 1]}`, url: url(`room${i}`), body: `包间可坐${6 + i}人，最低消费${500 + i * 100}元，需提前一天预订。` }));

test("the entry a follower picked from the list their question got is named beside it (picked), with the pick's seq; the pick's own entry is no list", async () => {
  await importDoc([...ROOMS, HOURS]);
  await say("包间怎么预订");
  await say("第二个");
  const page = await lists();
  const entry = page.items.find((m) => m.content === "包间怎么预订") as Entry & { picked?: { seq: number; article: string } };
  const listed = entry.answer.replace(/^answers:/, "").split(",");
  expect(listed.length).toBeGreaterThan(1);
  const all = (await call("GET", "/api/cli", [["inbox", "all"]])).data.items as Entry[];
  const pick = all.find((m) => m.content === "第二个") as Entry;
  expect(pick.answer).toBe(`pick:${listed[1]}`);
  expect(entry.picked).toEqual({ seq: pick.seq, article: listed[1] as string });
  // --all says it too.
  expect((all.find((m) => m.content === "包间怎么预订") as Entry & { picked?: object }).picked).toEqual({ seq: pick.seq, article: listed[1] as string });
});

test("no pick is named when the follower's next message asks something else: a pick after it picks from another list", async () => {
  await importDoc([...ROOMS, HOURS]);
  await say("包间怎么预订");
  await say("营业到几点");
  await say("第二个");
  const page = await lists();
  const entry = page.items.find((m) => m.content === "包间怎么预订") as Entry & { picked?: object };
  expect(entry.answer).toStartWith("answers:");
  expect(entry).not.toHaveProperty("picked");
});

test("a pick counts when another follower wrote between the list and it: the follower's own next message is read", async () => {
  await importDoc([...ROOMS, HOURS]);
  await say("包间怎么预订");
  // Another follower between the list and the pick: their message is not this follower's next.
  t.clock.advance(1000);
  const at = Math.floor(t.clock.now() / 1000);
  const other = await t.handle(wxPost(textMsg("营业到几点", at).replace("o_follower", "o_other"), at, { openid: "o_other" }));
  expect(await other.text()).toContain("营业时间");
  await say("第一个");
  const entry = (await lists()).items.find((m) => m.content === "包间怎么预订") as Entry & { picked?: { article: string } };
  expect(entry.picked?.article).toBe(entry.answer.replace(/^answers:/, "").split(",")[0] as string);
});

test("the entry kept is named: a 换一个 after a pick picks the next entry, and that one is named; thanks between are read past", async () => {
  await importDoc([...ROOMS, HOURS]);
  await say("包间怎么预订");
  await say("第一个");
  await say("换一个");
  let items = (await call("GET", "/api/cli", [["inbox", "all"]])).data.items as (Entry & { picked?: { article: string } })[];
  const next = items.find((m) => m.content === "换一个") as Entry;
  expect(next.answer).toStartWith("pick:");
  expect(items.find((m) => m.content === "包间怎么预订")?.picked?.article).toBe(next.answer.slice("pick:".length));
  // Thanks, then a pick: the conversation keeps the list past them, and so does the inbox.
  await say("包间怎么预订", CONVERSATION.windowMs + 1000);
  await say("好的谢谢");
  await say("第二个");
  items = (await lists()).items as (Entry & { picked?: { article: string } })[];
  const latest = items.find((m) => m.content === "包间怎么预订") as Entry & { picked?: { article: string } };
  expect(latest.picked?.article).toBe(latest.answer.replace(/^answers:/, "").split(",")[1] as string);
});

test("every entry picked and then turned down: no pick is named", async () => {
  await importDoc([...ROOMS.slice(0, 2), HOURS]);
  await say("包间怎么预订");
  const listed = ((await lists()).items.find((m) => m.content === "包间怎么预订") as Entry).answer.replace(/^answers:/, "").split(",");
  await say("第一个");
  for (let i = 1; i < listed.length; i++) await say("换一个");
  // Past the list's last entry, "another" is no pick: what was picked was turned down.
  await say("换一个");
  const all = (await call("GET", "/api/cli", [["inbox", "all"]])).data.items as Entry[];
  expect(all.filter((m) => m.content === "换一个").reverse().map((m) => m.answer.startsWith("pick:"))).toEqual([...Array(listed.length - 1).fill(true), false]);
  expect((await lists()).items.find((m) => m.content === "包间怎么预订")).not.toHaveProperty("picked");
});
