/**
 * The report's model calls (issue 35 C), against the fake endpoint on each store: calls by outcome,
 * failures by kind, refusals by check, tokens; a generated answer counted as generated, never as a
 * close call of the article the ranking chose for it.
 */
import { expect, test } from "bun:test";
import type { Report } from "../../src/server/report/figures.ts";
import { call, deliver, inboxAll, loggedCalls, model, QUESTION, setup, until } from "./generated-harness.ts";

test("model calls by outcome, failures by kind, refusals by check and tokens; the generated answer is of kind ai, with no margin", async () => {
  await setup();
  await deliver(QUESTION);
  model.mode = { status: 500 };
  await deliver("还能退款吗？退货怎么办");
  model.mode = { answer: () => "请加微信 abc12345 退款[1]" };
  await deliver("七天无理由退货怎么申请退款");
  await loggedCalls(3);
  const r = (await call("GET", "/api/cli/report", [["since", "24h"], ["tz", "0"]])).data as Report;
  expect(r.model.calls).toBe(3);
  expect(r.model.outcomes.reply).toBe(1);
  expect(Object.keys(r.model.failed)).toHaveLength(1);
  expect(Object.values(r.model.failed)).toEqual([1]);
  expect(Object.keys(r.model.refused)).toHaveLength(1);
  expect(r.model.tokens.prompt).toBeGreaterThan(0);
  expect(r.totals.kinds.ai).toBe(1);
  expect(r.days.reduce((s, d) => s + d.model_calls, 0)).toBe(3);
  // The follower got the model's answer: no close call, whatever the ranking's margin was.
  const row = (await inboxAll()).find((m) => m.content === QUESTION);
  expect(row).toMatchObject({ answer: "ai:refund", margin: null });
  expect(r.close_calls.count).toBe(0);
});

test("messages the caps kept from the model are counted apart, by cap: not calls, not an outcome", async () => {
  await setup({ caps: { perFollower: 1 } });
  await deliver(QUESTION);
  await deliver("还能退款吗？退货怎么办");
  await deliver("七天无理由退货怎么申请退款");
  const report = async () => (await call("GET", "/api/cli/report", [["since", "24h"], ["tz", "0"]])).data as Report;
  // Logged beside the calls as they happen: waited for, not raced.
  await until(async () => (await report()).model.capped.follower === 2);
  await loggedCalls(3);
  const r = await report();
  expect(r.model.calls).toBe(1);
  expect(r.model.capped).toEqual({ follower: 2 });
  expect(Object.keys(r.model.outcomes)).toEqual(["reply"]);
  expect(r.days.reduce((s, d) => s + d.model_calls, 0)).toBe(1);
});
