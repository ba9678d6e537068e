/**
 * What a model writes cannot hurt (issue 33) through the app on each store (the harness's app is
 * testApp()'s): refusals counted and listed, the key hidden from every log and listing, the
 * budget per minute and the calls in flight, `ask --generate` an admin's and logged.
 */
import { expect, test } from "bun:test";
import { holdsSecret } from "../../src/llm/output/secrets.ts";
import { READER } from "../helpers.ts";
import { call, calls, loggedCalls, contentOf, deliver, GENERATED, health, KEY, logged, model, newsTitle, QUESTION, setup, t, until } from "./generated-harness.ts";

test("an answer giving a contact or a figure the articles do not hold: the retrieval reply; refused as ungrounded, counted and listed with why", async () => {
  await setup();
  for (const [answer, what] of [
    ["可以退款，请拨打 400-820-1234 办理。[1]", "the phone 400-820-1234"],
    ["可以退款，添加客服微信 evil_refund_888。[1]", "the app id 微信 evil_refund_888"],
    ["本店支持三十天无理由退货。[1]", "the figure 三十天"],
  ]) {
    model.mode = { answer: () => answer as string };
    const before = (await calls()).total;
    const r = await deliver(QUESTION);
    expect(newsTitle(r)).toBe("售后政策");
    // This call's entry, not the one before it (listed first until this one is logged).
    await until(async () => {
      const c = await calls();
      return c.total > before && c.items[0]?.outcome === "refused:ungrounded";
    });
    expect((await calls()).items[0]?.detail).toContain(what);
  }
  expect((await health()).generated_answers.refused.ungrounded).toBe(3);
  // The same answer restating the article's own figure goes out.
  model.mode = { answer: () => "支持7天无理由退货。[1]" };
  expect(contentOf(await deliver(QUESTION))).toBe("支持7天无理由退货。[1]\n\n[1] 售后政策\nhttps://example.com/refund");
});

test("the key in any spelling is in no log line, no listed output and no listed detail: a refused answer, a body that is not JSON", async () => {
  await setup();
  model.mode = { answer: () => `密钥 ${KEY.split("").join(" ")} [1]` };
  await deliver(QUESTION);
  await until(async () => (await calls()).items[0]?.outcome === "refused:secret");
  model.mode = { raw: `<html>proxy error for key ${KEY.toUpperCase()}</html>` };
  await deliver(QUESTION);
  await until(async () => (await calls()).items[0]?.outcome === "failed:not_json");
  const listed = JSON.stringify((await calls()).items);
  expect(listed).toContain("proxy error for key");
  expect(holdsSecret(listed.replace(/\\u200b|\s/g, ""), [KEY])).toBe(false);
  expect(holdsSecret(logged.join("\n"), [KEY])).toBe(false);
});

test("the budget per minute: past --ai-per-minute calls in any 60 s, the retrieval reply without a call; counted; free again a minute later", async () => {
  await setup({ caps: { perMinute: 3 } });
  for (const from of ["o_1", "o_2", "o_3"]) expect(contentOf(await deliver(QUESTION, { from }))).toBe(GENERATED);
  // Three more followers, one more call: the fourth in the minute is over the budget, whoever sends it.
  expect(newsTitle(await deliver(QUESTION, { from: "o_4" }))).toBe("售后政策");
  expect(model.requests.length).toBe(3);
  expect((await health()).generated_answers).toMatchObject({ capped: { minute: 1, follower: 0, daily: 0, concurrency: 0 }, caps: { per_minute: 3, used_minute: 3 } });
  t.clock.advance(60_000);
  expect(contentOf(await deliver(QUESTION, { from: "o_4" }))).toBe(GENERATED);
  expect(model.requests.length).toBe(4);
});

test("the calls in flight: past --ai-concurrency at once, the retrieval reply at once; a place is free again when a call ends, failed or not", async () => {
  await setup({ caps: { concurrency: 2 } });
  model.mode = { delayMs: 800 };
  const slow = [deliver(QUESTION, { from: "o_1" }), deliver(QUESTION, { from: "o_2" })];
  await until(() => model.requests.length === 2);
  const third = await deliver(QUESTION, { from: "o_3" });
  expect(newsTitle(third)).toBe("售后政策");
  expect(third.ms).toBeLessThan(600);
  expect(model.requests.length).toBe(2);
  expect((await health()).generated_answers).toMatchObject({ capped: { concurrency: 1 }, caps: { concurrency: 2, in_flight: 2 } });
  await Promise.all(slow);
  await until(async () => (await health()).generated_answers.caps.in_flight === 0);
  // A failed call frees its place too.
  model.mode = { status: 500 };
  for (const from of ["o_4", "o_5", "o_6"]) await deliver(QUESTION, { from });
  expect(model.requests.length).toBe(5);
  expect((await health()).generated_answers.caps.in_flight).toBe(0);
});

test("ask --generate takes an admin key (a read key is refused before any call) and is logged with the followers' calls", async () => {
  await setup();
  const refused = await call("GET", "/api/cli/ask", [["q", QUESTION], ["generate", "1"]], undefined, READER);
  expect([refused.status, refused.error?.code]).toEqual([403, "forbidden"]);
  expect(model.requests.length).toBe(0);
  // Without generate=1 a read key still sees what the model would be given.
  expect((await call("GET", "/api/cli/ask", [["q", QUESTION]], undefined, READER)).status).toBe(200);
  const asked = await call("GET", "/api/cli/ask", [["q", QUESTION], ["generate", "1"]]);
  expect(asked.data.model).toMatchObject({ outcome: "reply", answer: GENERATED });
  const entry = (await calls()).items[0];
  expect(entry).toMatchObject({ openid: "replyd-ask:admin1", question: QUESTION, outcome: "ask", answer: GENERATED, cited: ["refund"] });
  expect(entry?.msg_key).toStartWith("ask:");
  expect((await health()).generated_answers).toMatchObject({ calls: 1, delivered: { ask: 1 }, caps: { used_24h: 1 } });
});

test("health's model counts add up (every call in one bucket, ask --generate included) and say whether the endpoint answers now", async () => {
  await setup();
  await deliver(QUESTION);
  await call("GET", "/api/cli/ask", [["q", QUESTION], ["generate", "1"]]);
  model.mode = { answer: () => "当然可以退款。" };
  await deliver(QUESTION, { from: "o_2" });
  model.mode = { status: 500 };
  await deliver(QUESTION, { from: "o_3" });
  await loggedCalls(4);
  const g = (await health()).generated_answers;
  const buckets = g.delivered.reply + g.delivered.customer_service + g.delivered.pending + g.delivered.ask + Object.values(g.failed as Record<string, number>).reduce((a, b) => a + b, 0) + Object.values(g.refused as Record<string, number>).reduce((a, b) => a + b, 0);
  expect({ calls: g.calls, buckets, ask: g.delivered.ask }).toEqual({ calls: 4, buckets: 4, ask: 1 });
  expect(g.endpoint_now).toMatchObject({ state: "up" });
});

test("with the endpoint down now, health says so (looked at again after 15 s, not on every health request)", async () => {
  await setup();
  model.stop();
  const g = (await health()).generated_answers;
  expect(g.endpoint_now).toMatchObject({ state: "down", detail: expect.stringContaining("cannot be reached") });
  expect(JSON.stringify(g)).not.toContain(KEY);
});
