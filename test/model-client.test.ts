/** The OpenAI-compatible client against a local fake endpoint: answers as JSON and as streams, and every way a call fails. */
import { afterAll, beforeEach, expect, test } from "bun:test";
import { complete, endpointName, MAX_ANSWER_BYTES, ModelFailure, type ModelEndpoint } from "../src/llm/client.ts";
import { holdsSecret } from "../src/llm/output/secrets.ts";
import { startFakeModel } from "./model/fake.ts";

const KEY = "sk-test-0123456789abcdefghij";
const fake = startFakeModel(KEY);
afterAll(() => fake.stop());
beforeEach(() => {
  fake.mode = {};
  fake.requests.length = 0;
});

const endpoint = (o: Partial<ModelEndpoint> = {}): ModelEndpoint => ({ base: fake.base, model: "fake-1", key: KEY, timeoutMs: 2000, ...o });
const MESSAGES = [
  { role: "system" as const, content: "rules" },
  { role: "user" as const, content: "Sources:\n\n[1] T\nLink: https://e.x/1\n可以退款。\n\nq" },
];
const failure = async (p: Promise<unknown>) => {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(ModelFailure);
    return e as ModelFailure;
  }
  throw new Error("did not fail");
};

test("POSTs BASE/chat/completions with the model, the messages and the key as a bearer token; reads the answer and its usage", async () => {
  const c = await complete(endpoint(), MESSAGES);
  expect(c.text).toBe("可以退款。[1]");
  expect(c.usage?.completion).toBe("可以退款。[1]".length);
  expect(fake.requests[0]?.authorization).toBe(`Bearer ${KEY}`);
  expect(fake.requests[0]?.body).toEqual({ model: "fake-1", messages: MESSAGES });
});

test("a streamed answer is read whole: its pieces joined, its usage taken from the last event", async () => {
  fake.mode = { stream: true, chunk: 2 };
  const c = await complete(endpoint(), MESSAGES);
  expect(c.text).toBe("可以退款。[1]");
  expect(c.usage?.prompt).toBeGreaterThan(0);
  fake.mode = { stream: true, noUsage: true };
  expect((await complete(endpoint(), MESSAGES)).usage).toBeNull();
});

test("no key: no Authorization header (a local server)", async () => {
  const open = startFakeModel("");
  try {
    await complete({ base: open.base, model: "m", timeoutMs: 2000 }, MESSAGES);
    expect(open.requests[0]?.authorization).toBeNull();
  } finally {
    open.stop();
  }
});

test("failures by kind: refused, http_error (its message, never the key), not_json, empty, unfinished, too_large", async () => {
  const closed = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response("") });
  const port = closed.port;
  closed.stop(true);
  expect((await failure(complete(endpoint({ base: `http://127.0.0.1:${port}/v1` }), MESSAGES))).kind).toBe("refused");

  fake.mode = { status: 503 };
  const f503 = await failure(complete(endpoint(), MESSAGES));
  expect([f503.kind, f503.status, f503.message]).toEqual(["http_error", 503, "the endpoint answered HTTP 503: fake failure 503"]);

  // A wrong key: the endpoint's message repeats it; the failure's message never does.
  const wrong = "sk-wrong-key-abcdefghijklmnop";
  const f401 = await failure(complete(endpoint({ key: wrong }), MESSAGES));
  expect([f401.kind, f401.status]).toEqual(["http_error", 401]);
  expect(f401.message).toContain("Incorrect API key provided");
  expect(f401.message).not.toContain(wrong);

  fake.mode = { raw: "<html>bad gateway</html>" };
  expect((await failure(complete(endpoint(), MESSAGES))).kind).toBe("not_json");
  fake.mode = { answer: () => "" };
  expect((await failure(complete(endpoint(), MESSAGES))).kind).toBe("empty");
  // No choice at all (a content filter's answer) is empty too; JSON of another shape is not_json.
  fake.mode = { raw: JSON.stringify({ id: "x", choices: [] }) };
  expect((await failure(complete(endpoint(), MESSAGES))).kind).toBe("empty");
  fake.mode = { raw: JSON.stringify({ id: "x", result: "hello" }) };
  expect((await failure(complete(endpoint(), MESSAGES))).kind).toBe("not_json");
  fake.mode = { stream: true, cut: true };
  expect((await failure(complete(endpoint(), MESSAGES))).kind).toBe("unfinished");
  fake.mode = { answer: () => "x".repeat(MAX_ANSWER_BYTES) };
  expect((await failure(complete(endpoint(), MESSAGES))).kind).toBe("too_large");
  // Streamed, with no length declared: counted as it arrives.
  fake.mode = { stream: true, chunk: 65536, answer: () => "x".repeat(MAX_ANSWER_BYTES) };
  expect((await failure(complete(endpoint(), MESSAGES))).kind).toBe("too_large");
  // Just inside the bound the answer is read.
  fake.mode = { answer: () => "x".repeat(MAX_ANSWER_BYTES - 400) };
  expect((await complete(endpoint(), MESSAGES)).text.length).toBe(MAX_ANSWER_BYTES - 400);
});

test("an answer that is not UTF-8 fails as not_utf8, never read as text with U+FFFD in it", async () => {
  const json = (content: string) => new TextEncoder().encode(JSON.stringify({ choices: [{ message: { content } }] }));
  const bytes = json("可以退款。[1] XX");
  // "XX" becomes a lone continuation byte and an overlong form.
  bytes.set([0x80, 0xc0], bytes.length - 6);
  fake.mode = { raw: bytes };
  const f = await failure(complete(endpoint(), MESSAGES));
  expect([f.kind, f.message]).toEqual(["not_utf8", "the answer is not UTF-8 text"]);
  // The same answer in UTF-8 is read.
  fake.mode = { raw: json("可以退款。[1] ok") };
  expect((await complete(endpoint(), MESSAGES)).text).toBe("可以退款。[1] ok");
});

test("a failure quoting the key, in any spelling, never carries it: a body that is not JSON, a bad stream event", async () => {
  const spellings = [KEY, KEY.toUpperCase(), KEY.split("").join(" "), KEY.split("").join("\u200b"), KEY.slice(0, 12)];
  for (const spelled of spellings) {
    for (const raw of [`<html>upstream said: ${spelled}</html>`, `data: {oops ${spelled}\n\n`]) {
      fake.mode = { raw };
      const f = await failure(complete(endpoint(), MESSAGES));
      expect(f.kind).toBe("not_json");
      expect(holdsSecret(f.message, [KEY])).toBe(false);
    }
  }
});

test("time-outs: a slow answer and a stream that never ends are cut at the call's time-out", async () => {
  fake.mode = { delayMs: 1000 };
  let started = performance.now();
  expect((await failure(complete(endpoint({ timeoutMs: 300 }), MESSAGES))).kind).toBe("timeout");
  expect(performance.now() - started).toBeLessThan(900);
  fake.mode = { stream: true, stall: true };
  started = performance.now();
  expect((await failure(complete(endpoint({ timeoutMs: 300 }), MESSAGES))).kind).toBe("timeout");
  expect(performance.now() - started).toBeLessThan(900);
});

test("a redirect is not followed (it would carry the key elsewhere)", async () => {
  const elsewhere = startFakeModel(KEY);
  try {
    fake.mode = { redirect: `${elsewhere.base}/chat/completions` };
    const f = await failure(complete(endpoint(), MESSAGES));
    expect([f.kind, f.status]).toEqual(["http_error", 307]);
    expect(elsewhere.requests.length).toBe(0);
  } finally {
    elsewhere.stop();
  }
});

test("the endpoint's name for health and logs: host and path, never credentials or a query", () => {
  expect(endpointName("https://user:pw@api.example.com/v1?key=sk-1")).toBe("api.example.com/v1");
});
