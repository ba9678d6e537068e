/**
 * What the message log keeps for `replyd report` and what each store answers of it
 * (store/log-kinds.ts, store/report-query.ts): the quarter hours' counts, follow-ups found where
 * they are logged, the bounds on what is read, pruning, and the messages logged before the upgrade.
 */
import { Database } from "bun:sqlite";
import { SQL } from "bun";
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { join } from "node:path";
import type { NewMessage } from "../../src/store/follower-log.ts";
import { asksAbout, periodOf, replyBucket } from "../../src/store/log-kinds.ts";
import { MIGRATIONS } from "../../src/store/model/db.ts";
import { openBackend } from "../../src/store/open.ts";
import { PG_MIGRATIONS } from "../../src/store/postgres/schema.ts";
import { dayPeriods, UNANSWERED_READ, UNMATCHED_READ, type ReportQuery } from "../../src/store/report-query.ts";
import { fixedClock } from "../../src/base/clock.ts";
import { T0, tempDir } from "../helpers.ts";
import { testDatabase } from "../pg.ts";
import { openTarget, STORES, type Target } from "./targets.ts";

const MIN = 60_000;
const DAY = 86_400_000;
const entry = (key: string, at: number, more: Partial<NewMessage> = {}): NewMessage => ({
  received_ms: at,
  msg_key: key,
  from_user: "o_1",
  type: "text",
  event: null,
  content: key,
  answer: "code",
  unmatched: false,
  ...more,
});
const day = (tz = 0): ReportQuery => ({ since: new Date(T0 - DAY).toISOString(), until: new Date(T0 + DAY).toISOString(), tz });

test("the quarter hour and the reply-time bucket a message is counted in", () => {
  expect(["2026-11-21T10:00:00.000Z", "2026-11-21T10:14:59.999Z", "2026-11-21T10:15:00.000Z", "2026-11-21T23:59:59.999Z"].map(periodOf)).toEqual([
    "2026-11-21T10:00",
    "2026-11-21T10:00",
    "2026-11-21T10:15",
    "2026-11-21T23:45",
  ]);
  // Two significant figures: exact below 100 ms, a tenth at most above; ten minutes at most.
  expect([0, 7, 99, 100, 109, 999, 1000, 1099, 4567, 12_345, 600_000, 9e9, -5].map(replyBucket)).toEqual([0, 7, 99, 100, 100, 990, 1000, 1000, 4500, 12_000, 600_000, 600_000, 0]);
});

test("asking about the question before: a word of it and more than half of the message again (half of one of two units), not the phrasing questions share, nor a pair straddling it, nor one word of several, nor a follow-up on another side of it (那…呢, \"and …\", \"what about …\"), where \"but …\" and 那… asking the same do ask again", () => {
  const again: [string, string][] = [
    ["社保卡挂失", "社保卡丢了咋办"],
    ["社保卡补办要多久", "社保卡怎么补办"],
    ["cancel subscription", "how do i cancel sub"],
    ["how long does it take?", "how long does delivery take"],
    ["换一个", "营业时间"],
    ["泊車幾錢", "有冇得泊車"],
    // Opening as a follow-up, adding nothing of its own: asked again (a review).
    ["but i still cant reset my password", "how do i reset my password"],
    ["那社保卡补办到底要多久", "社保卡补办要多久"],
    // Where it is, or why not yet: asked again.
    ["我的退款呢", "退款多久到账"],
    ["退款怎么还没到呢", "退款多久到账"],
    // Its subject and 呢, every character asked before: chasing it (a review).
    ["退款呢", "退款多久到账"],
    ["快递呢？", "快递几天到"],
    ["发票呢", "发票什么时候开"],
    // A day alone, the day the question before named: chasing it (a review).
    ["saturday?", "are you open on saturday?"],
  ];
  const own: [string, string][] = [
    ["你好，请问停车场在哪", "你好，请问营业时间是几点"],
    ["我想咨询一下退款", "我想咨询一下会员卡"],
    ["怎么办理退款", "怎么办理会员卡"],
    ["我想问一下停车", "我想问一下营业时间"],
    ["电话多少", "办好了没有啊"],
    ["I want my money back", "how long does delivery take"],
    // Cantonese phrasing shared (the ranking's filler): 有冇 "is there", 點樣 "how".
    ["有冇泳池", "有冇得泊車"],
    ["點樣退會", "點樣入會"],
    // A new question on the same subject: one word shared of several.
    ["报到那天食堂几点开", "报到那天要带什么材料"],
    ["京东店铺能对接吗", "顺丰月结怎么对接"],
    ["周六可以装修吗", "装修押金多少钱 什么时候退"],
    // A follow-up on another side of it (a car dealer's walkthrough): 保养 shared, and most of what it is made of.
    ["那大保养呢", "小保养多少钱"],
    ["and the big service?", "how much is the small service"],
    // Words continuing it, another kind of its thing (two housekeeping companies' walkthroughs).
    ["就两个小时", "日常保洁最少约几个小时"],
    ["三室的呢", "深度保洁两室的多少钱"],
    // Another kind of it, named (a wedding studio's walkthrough).
    ["双机位呢", "单机位跟拍多少钱"],
    ["just for 2 hours", "how many hours is the minimum for a clean"],
  ];
  for (const [text, before] of again) expect({ text, before, again: asksAbout(text, before) }).toEqual({ text, before, again: true });
  for (const [text, before] of own) expect({ text, before, again: asksAbout(text, before) }).toEqual({ text, before, again: false });
  expect(asksAbout("社保卡挂失", null)).toBe(false);
});

test("a report's local days, each the quarter hours it holds: a local midnight starts one day only, the first and last cut to the time asked about", () => {
  const q = (tz: number) => ({ since: "2026-11-20T10:00:00.000Z", until: "2026-11-21T10:07:00.000Z", tz });
  expect(dayPeriods(q(480))).toEqual([
    { day: "2026-11-20", first: "2026-11-20T10:00", last: "2026-11-20T15:45" },
    { day: "2026-11-21", first: "2026-11-20T16:00", last: "2026-11-21T10:00" },
  ]);
  expect(dayPeriods(q(-330))).toEqual([
    { day: "2026-11-20", first: "2026-11-20T10:00", last: "2026-11-21T05:15" },
    { day: "2026-11-21", first: "2026-11-21T05:30", last: "2026-11-21T10:00" },
  ]);
  expect(dayPeriods({ since: "2026-11-20T16:00:00.000Z", until: "2026-11-20T16:00:00.000Z", tz: 480 })).toEqual([{ day: "2026-11-21", first: "2026-11-20T16:00", last: "2026-11-20T16:00" }]);
});

describe.each(STORES)("%s", (kind) => {
  let t: Target;
  beforeEach(async () => void (t = await openTarget(kind)));
  afterEach(() => t.close());

  test("counts per kind and local day: a message sent twice counted once, a reply as a send, the close calls of articles sent alone", async () => {
    // Each from another follower: none asks again after another's answer.
    t.log.add(entry("m:1", T0, { answer: "answer:a1", margin: 0.6, from_user: "o_1" }));
    t.log.add(entry("m:1", T0 + 1, { answer: "answer:a1", margin: 0.6, from_user: "o_1" }));
    t.log.add(entry("m:2", T0 + MIN, { answer: "answer:a2", margin: 0.349, from_user: "o_2" }));
    t.log.add(entry("m:3", T0 + 2 * MIN, { answer: "fallback:a1,a2", unmatched: true, from_user: "o_3" }));
    t.log.add(entry("m:4", T0 + 3 * MIN, { type: "image", content: null, answer: "fallback", from_user: "o_4" }));
    // 23:59 UTC is the next day at UTC+8.
    t.log.add(entry("m:5", Date.parse("2026-11-21T23:59:00.000Z"), { answer: "rule:hours", from_user: "o_5" }));
    // Sent again in a later batch (another instance logging the message it answered too): counted once still.
    await t.log.settled();
    t.log.add(entry("m:1", T0 + 2, { answer: "answer:a1", margin: 0.6, from_user: "o_1" }));
    await t.log.record({ openid: "o_1", type: "text", content: "hi", sentBy: "ai", replyTo: null, nowMs: T0 + 4 * MIN });
    await t.log.record({ openid: "o_1", type: "text", content: "hi", sentBy: "admin1", replyTo: null, nowMs: T0 + 5 * MIN });
    const utc = await t.log.figures(day());
    expect(utc.kinds).toEqual([
      { day: "2026-11-21", kind: "answer", n: 2, close: 1, again: 0 },
      { day: "2026-11-21", kind: "fallback", n: 1, close: 0, again: 0 },
      { day: "2026-11-21", kind: "media", n: 1, close: 0, again: 0 },
      { day: "2026-11-21", kind: "reply", n: 1, close: 0, again: 0 },
      { day: "2026-11-21", kind: "reply_ai", n: 1, close: 0, again: 0 },
      { day: "2026-11-21", kind: "rule", n: 1, close: 0, again: 0 },
    ]);
    const east = await t.log.figures(day(480));
    expect(east.kinds.filter((k) => k.day === "2026-11-22")).toEqual([{ day: "2026-11-22", kind: "rule", n: 1, close: 0, again: 0 }]);
    // Only the article sent alone at CLOSE_MARGIN (0.35) or more is an example, the newest first.
    expect(utc.closeCalls).toEqual([{ seq: expect.any(Number), at: new Date(T0).toISOString(), text: "m:1", answer: "answer:a1", margin: 0.6 }]);
  });

  test("asked again: after a chosen answer earlier in the same batch and in an earlier one (the followers table); a non-opening event between changes nothing, a menu click does", async () => {
    t.log.add(entry("m:a1", T0, { answer: "answers:a1,a2" }));
    t.log.add(entry("m:a2", T0 + MIN, { answer: "fallback", unmatched: true }));
    await t.log.settled();
    t.log.add(entry("m:b1", T0 + 10 * MIN, { answer: "ai:a1" }));
    await t.log.settled();
    // A link opened from the menu (VIEW) opens no reply window and is not what the follower asked after.
    t.log.add(entry("m:b2", T0 + 11 * MIN, { type: "event", event: "VIEW", content: "https://e.com/", answer: "none" }));
    t.log.add(entry("m:b3", T0 + 12 * MIN, { answer: "fallback", unmatched: true }));
    t.log.add(entry("m:c1", T0 + 20 * MIN, { answer: "answer:a1" }));
    t.log.add(entry("m:c2", T0 + 21 * MIN, { type: "event", event: "CLICK", content: "menu", answer: "rule:menu" }));
    t.log.add(entry("m:c3", T0 + 22 * MIN, { answer: "help" }));
    // Another follower's text right after is theirs alone.
    t.log.add(entry("m:d1", T0 + 30 * MIN, { answer: "search" }));
    t.log.add(entry("m:d2", T0 + 30 * MIN + 1000, { from_user: "o_2", answer: "help" }));
    t.log.add(entry("m:d3", T0 + 32 * MIN, { answer: "help" }));
    t.log.add(entry("m:d4", T0 + 32 * MIN + 1, { answer: "help" }));
    const f = await t.log.figures(day());
    expect(f.askedAgain.map((a) => [a.text, a.after?.text])).toEqual([
      ["m:d3", "m:d1"],
      ["m:b3", "m:b1"],
      ["m:a2", "m:a1"],
    ]);
    expect(f.kinds.reduce((s, k) => s + k.again, 0)).toBe(3);
    const logged = (await t.log.list({ only: null, limit: 20, offset: 0 })).items;
    const seqOf = (key: string) => logged.find((m) => m.msg_key === key)?.seq;
    expect(logged.find((m) => m.msg_key === "m:a2")?.again_of).toBe(seqOf("m:a1") as number);
    expect(logged.filter((m) => m.again_of !== null).map((m) => m.msg_key)).toEqual(["m:d3", "m:b3", "m:a2"]);
  });

  test("asked again: a word of the question again, or \"another\"; not thanks, an acknowledgement, a greeting, a pick from the list just sent, nor a question of its own", async () => {
    let at = T0;
    const said = ["谢谢！", "ok thx", "👍", "在吗", "2", "第二个", "换一个", "how long does it take?", "where is my invoice", "社保卡挂失", "电话多少", "那周末呢"];
    const asked = (i: number) => (i >= 9 ? "社保卡丢了咋办" : "how long does delivery take");
    for (const [i, text] of said.entries()) {
      t.log.add(entry(`m:q${i}`, (at += 10 * MIN), { content: asked(i), answer: "answers:a1,a2" }));
      t.log.add(entry(`m:s${i}`, at + 1000, { content: text, answer: "fallback", unmatched: true }));
    }
    // Asked again in a later batch than the question: the question as the followers table has it.
    t.log.add(entry("m:late", (at += 10 * MIN), { content: "社保卡怎么补办", answer: "answer:a1" }));
    await t.log.settled();
    t.log.add(entry("m:late-again", at + 1000, { content: "社保卡补办要多久", answer: "fallback", unmatched: true }));
    const f = await t.log.figures(day());
    expect(f.askedAgain.map((a) => [a.text, a.after?.text])).toEqual([
      ["社保卡补办要多久", "社保卡怎么补办"],
      ["社保卡挂失", "社保卡丢了咋办"],
      ["how long does it take?", "how long does delivery take"],
      ["换一个", "how long does delivery take"],
    ]);
    expect(f.kinds.reduce((s, k) => s + k.again, 0)).toBe(4);
  });

  test("reply times per local day by bucket; the messages without one are not in them", async () => {
    for (const [i, ms] of [5, 120, 121, 4567, null].entries()) t.log.add(entry(`m:${i}`, T0 + i, ms === null ? {} : { reply_ms: ms }));
    const f = await t.log.figures(day());
    expect(f.replyTimes).toEqual([
      { day: "2026-11-21", ms: 5, n: 1 },
      { day: "2026-11-21", ms: 120, n: 2 },
      { day: "2026-11-21", ms: 4500, n: 1 },
    ]);
  });

  test("failed sends by code and sender, the most first; pruned with the log, as the counts are", async () => {
    const fail = (code: string, sentBy: string, at: number) => t.log.sendFailed({ openid: "o_1", sentBy, code, detail: `the platform answered ${code}`, nowMs: at });
    await fail("45015", "admin1", T0);
    await fail("45015", "admin2", T0 + 1);
    await fail("48001", "ai", T0 + 2);
    await fail("window_closed", "admin1", T0 - 3 * DAY);
    t.log.add(entry("m:old", T0 - 3 * DAY, { reply_ms: 10 }));
    t.log.add(entry("m:new", T0, { reply_ms: 10 }));
    const wide: ReportQuery = { since: new Date(T0 - 4 * DAY).toISOString(), until: new Date(T0 + DAY).toISOString(), tz: 0 };
    const before = await t.log.figures(wide);
    expect(before.failures).toEqual([
      { code: "45015", by: "operator", n: 2 },
      { code: "48001", by: "ai", n: 1 },
      { code: "window_closed", by: "operator", n: 1 },
    ]);
    expect(before.kinds.map((k) => k.day)).toEqual(["2026-11-18", "2026-11-21"]);
    await t.log.prune(2, T0);
    const after = await t.log.figures(wide);
    expect(after.failures.map((x) => x.code)).toEqual(["45015", "48001"]);
    expect(after.kinds.map((k) => k.day)).toEqual(["2026-11-21"]);
    expect(after.replyTimes.map((k) => k.day)).toEqual(["2026-11-21"]);
  });

  test("answers made in a conversation count as what the ranking gave (followup:, another:), a pick as pick; a follow-up's unanswered text is read, not another's", async () => {
    t.log.add(entry("m:1", T0, { answer: "followup:answer:a1", margin: 0.7, from_user: "o_1" }));
    t.log.add(entry("m:2", T0 + 1, { answer: "another:answers:a2,a3", from_user: "o_2" }));
    t.log.add(entry("m:3", T0 + 2, { answer: "pick:a3", from_user: "o_3" }));
    t.log.add(entry("m:4", T0 + 3, { answer: "followup:fallback:a1", unmatched: true, from_user: "o_4" }));
    t.log.add(entry("m:5", T0 + 4, { answer: "another:not_found", unmatched: true, from_user: "o_5" }));
    const f = await t.log.figures(day());
    expect(f.kinds.map((k) => [k.kind, k.n, k.close])).toEqual([
      ["answer", 1, 1],
      ["answers", 1, 0],
      ["fallback", 1, 0],
      ["not_found", 1, 0],
      ["pick", 1, 0],
    ]);
    // 换一个 with nothing left is not answered, but no question to teach.
    expect(f.unanswered.map((u) => [u.text, u.answer])).toEqual([["m:4", "followup:fallback:a1"]]);
    expect(f.closeCalls.map((c) => c.answer)).toEqual(["followup:answer:a1"]);
  });

  test(`the unanswered texts read: the newest ${UNANSWERED_READ} of them, among the newest ${UNMATCHED_READ} unmatched entries`, async () => {
    const text = (i: number) => entry(`m:t${i}`, T0 + i, { answer: i % 2 ? "fallback:a1" : "not_found", unmatched: true, content: `question ${i}`, from_user: `o_${i % 7}` });
    for (let i = 0; i <= UNANSWERED_READ; i++) t.log.add(text(i));
    const f = await t.log.figures(day());
    expect(f.unanswered).toHaveLength(UNANSWERED_READ);
    expect(f.unanswered[0]).toEqual({ seq: expect.any(Number), at: new Date(T0 + UNANSWERED_READ).toISOString(), from: `o_${UNANSWERED_READ % 7}`, text: `question ${UNANSWERED_READ}`, answer: "not_found" });
    expect(f.unanswered.at(-1)?.text).toBe("question 1");
  });

  test("unmatched entries that are not texts (menu keys, busy searches) are read but not grouped; past the entries read, older texts are not reached", async () => {
    t.log.add(entry("m:q", T0, { answer: "fallback", unmatched: true, content: "the one question" }));
    const click = (i: number) => entry(`m:k${i}`, T0 + 1 + i, { type: "event", event: "CLICK", content: `key${i}`, answer: "fallback", unmatched: true });
    for (let i = 0; i < UNMATCHED_READ - 2; i++) t.log.add(click(i));
    t.log.add(entry("m:busy", T0 + UNMATCHED_READ, { answer: "search_busy", unmatched: true }));
    expect((await t.log.figures(day())).unanswered.map((u) => u.text)).toEqual(["the one question"]);
    t.log.add(click(UNMATCHED_READ));
    expect((await t.log.figures(day())).unanswered).toEqual([]);
  }, 120_000);
});

/** A message of each kind as an older replyd logged it, at the schema before the report's. */
const OLD_ROWS = [
  ["2026-11-21T09:00:00.000Z", "m:1", "in", null, "rule:hours", 0],
  ["2026-11-21T09:01:00.000Z", "m:2", "in", null, "fallback:a1", 1],
  ["2026-11-21T09:02:00.000Z", "m:3", "in", null, "fallback", 0],
  ["2026-11-21T09:16:00.000Z", "m:4", "in", null, "answers:a1,a2", 0],
  ["2026-11-21T09:17:00.000Z", "m:5", "out", "ai", "reply", 0],
  ["2026-11-21T09:18:00.000Z", "m:6", "out", "admin1", "reply", 0],
  // Read in a conversation (issue 34 E): counted as what the ranking gave.
  ["2026-11-21T09:19:00.000Z", "m:7", "in", null, "followup:answer:a1", 0],
  ["2026-11-21T09:20:00.000Z", "m:8", "in", null, "another:not_found", 1],
  ["2026-11-21T09:21:00.000Z", "m:9", "in", null, "pick:a2", 0],
] as const;
const OLD_KINDS = [
  { day: "2026-11-21", kind: "answer", n: 1, close: 0, again: 0 },
  { day: "2026-11-21", kind: "answers", n: 1, close: 0, again: 0 },
  { day: "2026-11-21", kind: "fallback", n: 1, close: 0, again: 0 },
  { day: "2026-11-21", kind: "media", n: 1, close: 0, again: 0 },
  { day: "2026-11-21", kind: "not_found", n: 1, close: 0, again: 0 },
  { day: "2026-11-21", kind: "pick", n: 1, close: 0, again: 0 },
  { day: "2026-11-21", kind: "reply", n: 1, close: 0, again: 0 },
  { day: "2026-11-21", kind: "reply_ai", n: 1, close: 0, again: 0 },
  { day: "2026-11-21", kind: "rule", n: 1, close: 0, again: 0 },
];
const opts = { clock: fixedClock(T0), keep: 5, extraKeys: [], firstKey: false, logError: () => {} };

test("sqlite: the messages logged before the upgrade are counted by it, with the kinds the writer gives, and the report says from when the details are known", async () => {
  const tmp = tempDir();
  try {
    const before = MIGRATIONS.findIndex((m) => m.includes("CREATE TABLE log_counts"));
    const db = new Database(join(tmp.dir, "replyd.db"), { create: true });
    for (const m of MIGRATIONS.slice(0, before)) db.exec(m as string);
    db.exec(`PRAGMA user_version = ${before}`);
    for (const [at, key, direction, sentBy, answer, unmatched] of OLD_ROWS)
      db.run("INSERT INTO messages (received_at, msg_key, from_user, type, content, answer, unmatched, direction, sent_by) VALUES (?, ?, 'o_1', 'text', 'x', ?, ?, ?, ?)", [at, key, answer, unmatched, direction, sentBy]);
    db.close();
    const backend = await openBackend(tmp.dir, opts);
    const f = await backend.write.log.figures(day());
    expect(f.kinds).toEqual(OLD_KINDS);
    expect(f.replyTimes).toEqual([]);
    expect(Date.parse(f.detailsSince as string)).toBeGreaterThan(Date.parse("2026-01-01"));
    await backend.close();
  } finally {
    tmp.cleanup();
  }
});

test("postgres: the messages logged before the upgrade are counted by it, as on SQLite", async () => {
  const db = await testDatabase();
  try {
    const before = PG_MIGRATIONS.findIndex((m) => m.includes("CREATE TABLE log_counts"));
    const sql = new SQL(db.url);
    try {
      await sql.begin(async (tx) => {
        for (const m of PG_MIGRATIONS.slice(0, before)) await tx.unsafe(m as string);
        await tx`CREATE TABLE replyd_schema (version integer NOT NULL)`;
        await tx`INSERT INTO replyd_schema (version) VALUES (${before})`;
        for (const [at, key, direction, sentBy, answer, unmatched] of OLD_ROWS)
          await tx`INSERT INTO messages (received_at, msg_key, from_user, type, content, answer, unmatched, direction, sent_by) VALUES (${at}, ${key}, 'o_1', 'text', 'x', ${answer}, ${unmatched === 1}, ${direction}, ${sentBy})`;
      });
    } finally {
      await sql.close();
    }
    const tmp = tempDir();
    const backend = await openBackend(db.url, opts);
    try {
      const f = await backend.write.log.figures(day());
      expect(f.kinds).toEqual(OLD_KINDS);
      expect(f.detailsSince).not.toBeNull();
    } finally {
      await backend.close();
      tmp.cleanup();
    }
  } finally {
    await db.drop();
  }
});

test("a new store has no details_since: everything it logs has its details", async () => {
  const t = await openTarget("sqlite");
  try {
    expect((await t.log.figures(day())).detailsSince).toBeNull();
  } finally {
    await t.close();
  }
});
