/** The follower message log and replies kept in it, on each store. */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { CODE } from "../../src/base/errors.ts";
import { T0 } from "../helpers.ts";
import { openTarget, STORES, type Target } from "./targets.ts";
import { LISTED, type NewMessage } from "../../src/store/follower-log.ts";
import { Database } from "bun:sqlite";
import { MIGRATIONS } from "../../src/store/model/db.ts";

const HOUR = 3_600_000;
/** As the reply route asks: once what arrived is written. */
const settledWindow = async (t: Target, openid: string, now: number) => {
  await t.log.settled();
  return t.log.window(openid, now);
};
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

describe.each(STORES)("%s", (kind) => {
  let t: Target;
  beforeEach(async () => void (t = await openTarget(kind)));
  afterEach(() => t.close());

  test("newest first, a message key logged once, the unmatched listed apart, times as ISO", async () => {
    t.log.add(entry("m:1", T0));
    t.log.add(entry("m:2", T0 + 1, { unmatched: true, answer: "fallback" }));
    t.log.add(entry("m:2", T0 + 2));
    const all = await t.log.list({ only: null, limit: 10, offset: 0 });
    expect(all.items.map((m) => [m.msg_key, m.unmatched, m.direction])).toEqual([
      ["m:2", true, "in"],
      ["m:1", false, "in"],
    ]);
    expect(all.items[1]?.received_at).toBe(new Date(T0).toISOString());
    expect(await t.log.list({ only: "unmatched", limit: 10, offset: 0 })).toMatchObject({ total: 1, items: [{ msg_key: "m:2" }] });
    expect((await t.log.list({ only: null, limit: 1, offset: 1 })).items.map((m) => m.msg_key)).toEqual(["m:1"]);
  });

  test("the questions the ranking answered with a list, apart: read with the question before too, and a 换一个 that got more; not an article alone, nor a 换一个 that got nothing (unmatched)", async () => {
    t.log.add(entry("l:1", T0, { answer: "answers:a,b" }));
    t.log.add(entry("l:2", T0 + 1, { answer: "followup:answers:c,d,e" }));
    t.log.add(entry("l:3", T0 + 2, { answer: "another:answers:f,g" }));
    t.log.add(entry("l:4", T0 + 3, { answer: "answer:a" }));
    t.log.add(entry("l:5", T0 + 4, { answer: "followup:answer:b" }));
    t.log.add(entry("l:6", T0 + 5, { unmatched: true, answer: "fallback:a,b" }));
    t.log.add(entry("l:7", T0 + 6, { answer: "rule:answers" }));
    t.log.add(entry("l:8", T0 + 7, { answer: "another:answer:h" }));
    t.log.add(entry("l:9", T0 + 8, { unmatched: true, answer: "another:not_found" }));
    const lists = await t.log.list({ only: "lists", limit: 10, offset: 0 });
    expect({ total: lists.total, keys: lists.items.map((m) => m.msg_key) }).toEqual({ total: 4, keys: ["l:8", "l:3", "l:2", "l:1"] });
    expect((await t.log.list({ only: "lists", limit: 1, offset: 3 })).items.map((m) => m.msg_key)).toEqual(["l:1"]);
  });

  test("the newest messages, uncounted: the last ones added, newest first, the unmatched among them, at most the limit", async () => {
    for (let i = 1; i <= 3; i++) t.log.add(entry(`m:${i}`, T0 + i, i === 2 ? { unmatched: true, answer: "fallback" } : {}));
    expect((await t.log.newest(2)).map((m) => [m.msg_key, m.unmatched])).toEqual([
      ["m:3", false],
      ["m:2", true],
    ]);
    expect((await t.log.newest(10)).map((m) => m.msg_key)).toEqual(["m:3", "m:2", "m:1"]);
  });

  test("pruned by the clock: a quiet log's entries past the days go, the newest included, model calls with them", async () => {
    const call = { openid: "o_1", question: "q", model: "m1", sources: [], output: null, answer: null, cited: [], outcome: "failed:timeout", detail: null, ms: null, tokens_prompt: null, tokens_completion: null, delivered_at: null };
    // Nothing logged for ten days (a quiet account), kept for one.
    for (let i = 0; i < 3; i++) t.log.add(entry(`m:${i}`, T0 - (10 + i) * 24 * HOUR));
    await t.generated.add({ ...call, msg_key: "m:0", at: new Date(T0 - 10 * 24 * HOUR).toISOString() });
    expect(await t.log.prune(1, T0)).toEqual({ removed: 3, removedCalls: 1, newest: null });
    expect((await t.log.list({ only: null, limit: 10, offset: 0 })).total).toBe(0);
    expect((await t.generated.list({ limit: 10, offset: 0 })).total).toBe(0);
    // One within the day stays, and goes once it is older than the day.
    t.log.add(entry("m:fresh", T0 - 23 * HOUR));
    await t.generated.add({ ...call, msg_key: "m:fresh", at: new Date(T0 - 23 * HOUR).toISOString() });
    expect(await t.log.prune(1, T0)).toEqual({ removed: 0, removedCalls: 0, newest: new Date(T0 - 23 * HOUR).toISOString() });
    expect(await t.log.prune(1, T0 + HOUR + 1)).toEqual({ removed: 1, removedCalls: 1, newest: null });
    expect((await t.generated.list({ limit: 10, offset: 0 })).total).toBe(0);
  });

  test("a reply window opens at a message or an opening event (not a link opened), counts replies, and marks what they answered", async () => {
    expect(await settledWindow(t, "o_1", T0)).toMatchObject({ open: false, closed: CODE.window_closed });
    t.log.add(entry("m:view", T0, { type: "event", event: "VIEW", content: null }));
    expect(await settledWindow(t, "o_1", T0)).toMatchObject({ open: false, closed: CODE.window_closed });
    t.log.add(entry("m:q", T0 + 1000, { unmatched: true, answer: "fallback" }));
    t.log.add(entry("m:q2", T0 + 2000, { unmatched: true, answer: "fallback" }));
    const open = await settledWindow(t, "o_1", T0 + 3000);
    expect(open).toMatchObject({ open: true, sent: 0, left: 5, opened_at: new Date(T0 + 2000).toISOString() });
    const inbox = await t.log.list({ only: "unmatched", limit: 10, offset: 0 });
    const first = inbox.items.find((m) => m.msg_key === "m:q")!;
    const seq = await t.log.record({ openid: "o_1", type: "text", content: "Answer", sentBy: "admin1", replyTo: first.seq, nowMs: T0 + 4000 });
    expect(await t.log.entry(seq)).toMatchObject({ direction: "out", reply_to: first.seq, sent_by: "admin1", content: "Answer" });
    expect((await t.log.entry(first.seq))?.answered_at).toBe(new Date(T0 + 4000).toISOString());
    // Not naming one answers every unanswered unmatched message of the window.
    await t.log.record({ openid: "o_1", type: "text", content: "Both", sentBy: "admin1", replyTo: null, nowMs: T0 + 5000 });
    const after = await t.log.list({ only: "unmatched", limit: 10, offset: 0 });
    expect(after.items.map((m) => [m.msg_key, m.answered_at])).toEqual([
      ["m:q2", new Date(T0 + 5000).toISOString()],
      ["m:q", new Date(T0 + 4000).toISOString()],
    ]);
    expect(await settledWindow(t, "o_1", T0 + 6000)).toMatchObject({ open: true, sent: 2, left: 3 });
    // The model's answer following late answers no entry (answers: false): the fallback's waits, open.
    t.log.add(entry("m:q3", T0 + 6000, { unmatched: true, answer: "fallback" }));
    await settledWindow(t, "o_1", T0 + 6500);
    const late = await t.log.record({ openid: "o_1", type: "text", content: "Generated", sentBy: "ai", replyTo: null, answers: false, nowMs: T0 + 7000 });
    expect(await t.log.entry(late)).toMatchObject({ direction: "out", sent_by: "ai", reply_to: null });
    const open3 = (await t.log.list({ only: "unmatched", limit: 10, offset: 0 })).items.find((m) => m.msg_key === "m:q3");
    expect(open3?.answered_at).toBeNull();
    expect(await settledWindow(t, "o_1", T0 + 6000 + 48 * HOUR)).toMatchObject({ open: false, closed: CODE.window_closed });
  });
});

test("SQLite: the questions answered with a list are read through their partial index, not the whole log", () => {
  const db = new Database(":memory:");
  for (const m of MIGRATIONS) db.exec(m);
  const plan = (db.query(`EXPLAIN QUERY PLAN SELECT * FROM messages WHERE ${LISTED.sqlite} ORDER BY seq DESC LIMIT 50`).all() as { detail: string }[]).map((r) => r.detail).join("\n");
  expect(plan).toContain("messages_lists");
  const count = (db.query(`EXPLAIN QUERY PLAN SELECT count(*) FROM messages WHERE ${LISTED.sqlite}`).all() as { detail: string }[]).map((r) => r.detail).join("\n");
  expect(count).toContain("messages_lists");
});
