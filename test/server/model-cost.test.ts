/**
 * The output check holds no follower up, through a listening server: while a model's answer at
 * the read limit — of each shape that froze the old check, and random ones — is checked, another
 * follower's article code is answered within 50 ms. A check's cost is the same every time and a
 * loaded machine's pauses are not: each answer is tried up to three times, and the best of them
 * must be under 50 ms (the old check held other followers for seconds every time).
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { MAX_ANSWER_BYTES } from "../../src/llm/client.ts";
import { startServer, type RunningServer } from "../../src/server/serve.ts";
import { ADMIN_ENV, doc, serveOpts, signedRequest, tempDir } from "../helpers.ts";
import { randomAnswers, SHAPES } from "../model-output/shapes.ts";
import { startFakeModel, type FakeModel } from "../model/fake.ts";
import { TOKEN, wxPost } from "../wechat/helpers.ts";

const KEY = "sk-test-0123456789abcdefghij";
const REFUND = { id: "refund", code: "rf", title: "售后政策", url: "https://example.com/refund", body: "本店支持七天无理由退货。签收后七天内在订单页面申请退款。" };
const QUESTION = "不想要了，还能申请退款吗？";

let model: FakeModel;
let server: RunningServer;
let dir: { dir: string; cleanup(): void };
beforeAll(async () => {
  model = startFakeModel(KEY);
  dir = tempDir();
  server = await startServer(
    serveOpts(dir.dir, {
      env: ADMIN_ENV,
      wechat: { token: TOKEN },
      ai: { endpoint: { base: model.base, model: "fake-1", key: KEY, timeoutMs: 10_000 }, caps: { perFollower: 1000, perMinute: 1000, daily: 10_000, concurrency: 100 } },
    }),
  );
  const req = signedRequest("POST", "/api/cli", { nowMs: Date.now(), fields: [["mode", "merge"]], files: [{ name: "json", content: doc([REFUND], { matter: "articles" }) }] });
  expect((await fetch(server.url + "/api/cli", { method: "POST", headers: req.headers, body: await req.arrayBuffer() })).status).toBe(200);
});
afterAll(async () => {
  await server.stop();
  model.stop();
  dir.cleanup();
});

let msgId = 880_000;
async function deliver(content: string, from: string): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const xml = `<xml><ToUserName><![CDATA[gh_account]]></ToUserName><FromUserName><![CDATA[${from}]]></FromUserName><CreateTime>${now}</CreateTime><MsgType><![CDATA[text]]></MsgType><Content><![CDATA[${content}]]></Content><MsgId>${++msgId}</MsgId></xml>`;
  const url = new URL(wxPost(xml, now).url);
  url.searchParams.delete("openid");
  return (await fetch(server.url + url.pathname + url.search, { method: "POST", body: xml })).text();
}

/** The longest another follower waited while `answer` was checked: the best of up to three tries. */
async function othersWait(answer: string): Promise<number> {
  let best = Infinity;
  for (let i = 0; i < 3 && best >= 50; i++) best = Math.min(best, await waitedOnce(answer));
  return best;
}

/** The longest another follower waited for the article code while `answer` was written and checked, once. */
async function waitedOnce(answer: string): Promise<number> {
  model.mode = { answer: () => answer };
  let done = false;
  const asked = deliver(QUESTION, "o_asker").finally(() => (done = true));
  let longest = 0;
  while (!done) {
    const started = performance.now();
    expect(await deliver("rf", "o_other")).toContain("售后政策");
    longest = Math.max(longest, performance.now() - started);
  }
  await asked;
  return longest;
}

/** `unit` repeated to the longest answer the client reads whole: its JSON body within MAX_ANSWER_BYTES. */
function atReadLimit(unit: string): string {
  const room = MAX_ANSWER_BYTES - 512;
  let s = unit.repeat(Math.ceil(room / unit.length));
  while (Buffer.byteLength(JSON.stringify(s)) > room) s = s.slice(0, Math.floor(s.length * 0.95));
  return s;
}

test("another follower's reply takes under 50 ms while an answer at the read limit of each shape is checked", async () => {
  const before = model.requests.length;
  for (const shape of SHAPES) {
    const waited = await othersWait(atReadLimit(shape));
    if (waited >= 50) throw new Error(`another follower waited ${waited.toFixed(1)} ms while 256 KiB of ${JSON.stringify(shape)} was checked`);
  }
  // Each answer was written by the model, read whole and checked (none failed as too large).
  expect(model.requests.length - before).toBeGreaterThanOrEqual(SHAPES.length);
});

test("another follower's reply takes under 50 ms while random answers at the read limit are checked", async () => {
  for (const answer of randomAnswers(6, MAX_ANSWER_BYTES, 7)) {
    const waited = await othersWait(atReadLimit(answer));
    if (waited >= 50) throw new Error(`another follower waited ${waited.toFixed(1)} ms`);
  }
});
