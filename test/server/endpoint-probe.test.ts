/**
 * Health's look at the model endpoint (wechat/ai/endpoint-probe.ts, docs/answers.md "Health")
 * through the app on each store (the harness's app is testApp()'s), on the injected clock: how many
 * GET /v1/models the fake endpoint receives however often health is asked, and which look health
 * shows (its `checked_at` is the clock's time when the look began).
 */
import { expect, test } from "bun:test";
import { health, KEY, model, setup, t, until } from "./generated-harness.ts";

const iso = (ms: number) => new Date(ms).toISOString();
const endpointNow = async () => (await health()).generated_answers.endpoint_now as { state: string; checked_at: string };

/** Health asked with the clock `ms` after `from` when the request is handled (the harness's call() moves it 1 ms first). */
async function endpointNowAt(from: number, ms: number) {
  t.clock.advance(from + ms - 1 - t.clock.now());
  const found = await endpointNow();
  expect(t.clock.now()).toBe(from + ms);
  return found;
}

/** Health asked until it shows a look other than the one begun at `was`; that look. */
async function nextLook(was: number) {
  let found = await endpointNow();
  await until(async () => (found = await endpointNow()).checked_at !== iso(was), 20_000);
  return found;
}

test("health looks at the endpoint once however often it is asked within 15 s, and again once 15 s have passed", async () => {
  await setup();
  const first = await endpointNow();
  const t1 = t.clock.now();
  expect(first).toMatchObject({ state: "up", checked_at: iso(t1) });
  expect(model.probes).toEqual([`Bearer ${KEY}`]);
  // Asked again and again within 15 s, the last just short of it: the first look, and no other begun.
  for (const ms of [1, 2, 5_000, 10_000, 14_999]) expect((await endpointNowAt(t1, ms)).checked_at).toBe(iso(t1));
  // At 15 s a new look begins; an endpoint that answers at once is shown on that very request.
  expect(await endpointNowAt(t1, 15_000)).toMatchObject({ state: "up", checked_at: iso(t1 + 15_000) });
  expect(model.probes.length).toBe(2);
});

test("an endpoint gone down since the last look is shown down on the request that looks again, not on the one after", async () => {
  await setup();
  await endpointNow();
  const t1 = t.clock.now();
  model.stop();
  expect(await endpointNowAt(t1, 15_000)).toMatchObject({ state: "down", checked_at: iso(t1 + 15_000) });
});

test("an endpoint that hangs holds health up a second at most: the last look is shown meanwhile", async () => {
  await setup();
  await endpointNow();
  const t1 = t.clock.now();
  model.mode = { probeDelayMs: 10_000 };
  const started = performance.now();
  expect(await endpointNowAt(t1, 15_000)).toMatchObject({ state: "up", checked_at: iso(t1) });
  const waited = performance.now() - started;
  // It waited for the new look (a second), and not for the probe's own 3 s.
  expect(waited).toBeGreaterThanOrEqual(900);
  expect(waited).toBeLessThan(2800);
});

test("the 15 s are measured on the monotonic clock: the wall clock stepped back an hour does not hold the next look off", async () => {
  await setup();
  await endpointNow();
  const t1 = t.clock.now();
  t.clock.set(t1 - 3_600_000);
  const stepped = t.clock.now();
  t.clock.advance(15_000);
  await endpointNow();
  // The new look's checked_at is the wall clock's, as stepped: 15 s (and the 1 ms of the request) after the step.
  expect(await nextLook(t1)).toMatchObject({ state: "up", checked_at: iso(stepped + 15_000 + 1) });
  expect(model.probes.length).toBe(2);
});
