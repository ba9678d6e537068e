/** The model calls' log (store/generated-log.ts) on each store: kept whole, pending answers handed out once, pruned with the messages. */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { PENDING_MS, type NewGenerated } from "../../src/store/generated-log.ts";
import { T0 } from "../helpers.ts";
import { openTarget, STORES, type Target } from "./targets.ts";

const iso = (ms: number) => new Date(ms).toISOString();
const call = (openid: string, at: number, more: Partial<NewGenerated> = {}): NewGenerated => ({
  at: iso(at),
  msg_key: `m:${openid}:${at}`,
  openid,
  question: "还能退款吗",
  model: "m1",
  sources: [{ id: "refund", title: "售后政策", url: "https://example.com/refund", passages: ["七天无理由退货。"] }],
  output: "可以。[1]",
  answer: "可以。[1]\n\n[1] 售后政策\nhttps://example.com/refund",
  cited: ["refund"],
  outcome: "reply",
  detail: null,
  ms: 812,
  tokens_prompt: 300,
  tokens_completion: 12,
  delivered_at: iso(at + 900),
  ...more,
});

describe.each(STORES)("%s", (kind) => {
  let t: Target;
  beforeEach(async () => void (t = await openTarget(kind)));
  afterEach(() => t.close());

  test("a call kept whole and listed newest first; the calls since a time, oldest first", async () => {
    const first = await t.generated.add(call("o_1", T0));
    const second = await t.generated.add(call("o_2", T0 + 1000, { outcome: "failed:timeout", output: null, answer: null, cited: [], detail: "no answer within 30000 ms", ms: null, tokens_prompt: null, tokens_completion: null, delivered_at: null }));
    expect(second).toBeGreaterThan(first);
    const page = await t.generated.list({ limit: 10, offset: 0 });
    expect(page.total).toBe(2);
    expect(page.items[0]).toEqual({ seq: second, ...call("o_2", T0 + 1000, { outcome: "failed:timeout", output: null, answer: null, cited: [], detail: "no answer within 30000 ms", ms: null, tokens_prompt: null, tokens_completion: null, delivered_at: null }) });
    expect(page.items[1]).toEqual({ seq: first, ...call("o_1", T0) });
    expect(await t.generated.calls(iso(T0 + 1))).toEqual([{ openid: "o_2", at: iso(T0 + 1000) }]);
    expect((await t.generated.list({ limit: 1, offset: 1 })).items.map((g) => g.seq)).toEqual([first]);
    // A message the caps kept from the model is logged beside the calls, and is no call: the caps do not count it.
    await t.generated.add(call("o_3", T0 + 2000, { outcome: "capped:minute", output: null, answer: null, cited: [], ms: null, tokens_prompt: null, tokens_completion: null, delivered_at: null }));
    expect(await t.generated.calls(iso(T0 + 1))).toEqual([{ openid: "o_2", at: iso(T0 + 1000) }]);
  });

  test("a pending answer is taken once, the newest; older ones expire; one past its day is not sent", async () => {
    const older = await t.generated.add(call("o_1", T0, { outcome: "pending", delivered_at: null }));
    const newer = await t.generated.add(call("o_1", T0 + 5000, { outcome: "pending", delivered_at: null, answer: "newer" }));
    await t.generated.add(call("o_2", T0, { outcome: "pending", delivered_at: null }));
    expect((await t.generated.pendingFollowers(iso(T0 - 1))).sort()).toEqual(["o_1", "o_2"]);
    // Two takers at once (two instances): one gets it.
    const both = await Promise.all([t.generated.takePending("o_1", iso(T0 - 1), iso(T0 + 9000)), t.generated.takePending("o_1", iso(T0 - 1), iso(T0 + 9000))]);
    const got = both.filter((x) => x !== null);
    expect(got.map((g) => [g?.seq, g?.answer, g?.outcome, g?.delivered_at])).toEqual([[newer, "newer", "next_message", iso(T0 + 9000)]]);
    const outcomes = Object.fromEntries((await t.generated.list({ limit: 10, offset: 0 })).items.map((g) => [g.seq, g.outcome]));
    expect([outcomes[older], outcomes[newer]]).toEqual(["expired", "next_message"]);
    expect(await t.generated.pendingFollowers(iso(T0 - 1))).toEqual(["o_2"]);
    // o_2's answer is older than the day it may wait.
    expect(await t.generated.takePending("o_2", iso(T0 + 1), iso(T0 + PENDING_MS + 2))).toBeNull();
    expect(await t.generated.pendingFollowers(iso(T0 - 1))).toEqual([]);
  });

  test("a pending answer waits for the follower's next message only: once they said something else since (the model off meanwhile), it expires", async () => {
    const said = (openid: string, key: string, at: number) =>
      t.log.add({ received_ms: at, msg_key: key, from_user: openid, type: "text", event: null, content: key, answer: "fallback", unmatched: true });
    // o_3's question, its call pending, logged with its own message: the next message gets it.
    await t.generated.add(call("o_3", T0, { outcome: "pending", delivered_at: null, answer: "for o_3" }));
    said("o_3", `m:o_3:${T0}`, T0 + 20_000);
    // o_4 asked, then said something else that was answered without the model.
    await t.generated.add(call("o_4", T0, { outcome: "pending", delivered_at: null, answer: "for o_4" }));
    said("o_4", `m:o_4:${T0}`, T0 + 20_000);
    said("o_4", "m:o_4:wifi", T0 + 60_000);
    // o_5 asked something else while the model took 20 s, answered (by the model too) before the
    // first question was logged with its late answer: their last message logged is the first
    // question's own, yet they spoke since its call began (a grocery's walkthrough: 还在吗 two
    // turns on had got the answer to the question before last).
    said("o_5", "m:o_5:other", T0 + 12_000);
    await t.generated.add(call("o_5", T0, { outcome: "pending", delivered_at: null, answer: "for o_5", ms: 20_000 }));
    said("o_5", `m:o_5:${T0}`, T0 + 20_000);
    // o_6 asked twice, 3 s apart, both answered late (each question logged with its late answer, the
    // first before the second's call ended): the newer answer goes out, the older expires — a review
    // found each had expired the other, the follower getting neither.
    await t.generated.add(call("o_6", T0, { outcome: "pending", delivered_at: null, answer: "first for o_6", ms: 20_000 }));
    said("o_6", `m:o_6:${T0}`, T0 + 20_000);
    await t.generated.add(call("o_6", T0 + 3_000, { outcome: "pending", delivered_at: null, answer: "second for o_6", ms: 20_000 }));
    said("o_6", `m:o_6:${T0 + 3_000}`, T0 + 23_000);
    await t.log.settled();
    expect((await t.generated.takePending("o_3", iso(T0 - 1), iso(T0 + 90_000)))?.answer).toBe("for o_3");
    expect(await t.generated.takePending("o_4", iso(T0 - 1), iso(T0 + 90_000))).toBeNull();
    expect(await t.generated.takePending("o_5", iso(T0 - 1), iso(T0 + 90_000))).toBeNull();
    expect((await t.generated.takePending("o_6", iso(T0 - 1), iso(T0 + 90_000)))?.answer).toBe("second for o_6");
    const outcomes = (await t.generated.list({ limit: 10, offset: 0 })).items.map((g) => [g.openid, g.outcome]);
    expect(outcomes).toEqual([["o_6", "next_message"], ["o_6", "expired"], ["o_5", "expired"], ["o_4", "expired"], ["o_3", "next_message"]]);
  });

  test("settle moves an outcome, from a given one only when asked", async () => {
    const seq = await t.generated.add(call("o_1", T0, { outcome: "pending", delivered_at: null }));
    expect(await t.generated.settle(seq, "customer_service", iso(T0 + 5), "reply")).toBe(false);
    expect(await t.generated.settle(seq, "customer_service", iso(T0 + 5), "pending")).toBe(true);
    expect((await t.generated.list({ limit: 1, offset: 0 })).items[0]).toMatchObject({ outcome: "customer_service", delivered_at: iso(T0 + 5) });
  });

  test("pruned with the message log: calls older than the days kept go", async () => {
    await t.generated.add(call("o_1", T0 - 40 * 86_400_000));
    await t.generated.add(call("o_1", T0));
    t.log.add({ received_ms: T0, msg_key: "m:x", from_user: "o_1", type: "text", event: null, content: "x", answer: "code", unmatched: false });
    await t.log.prune(30, T0);
    expect((await t.generated.list({ limit: 10, offset: 0 })).items.map((g) => g.at)).toEqual([iso(T0)]);
  });
});
