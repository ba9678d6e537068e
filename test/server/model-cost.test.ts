/**
 * A model's answer at the read limit — of each shape that froze the old check, and random ones —
 * is read whole, checked and refused through a listening server (the asker gets the article), and
 * another follower's article codes sent until then are answered with their article. That the check
 * holds no follower up — how long that follower waits, target 50 ms — is a time, measured by
 * bench/model-check.ts: a timed unit test fails on a loaded machine.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { MAX_ANSWER_BYTES } from "../../src/llm/client.ts";
import { startServer, type RunningServer } from "../../src/server/serve.ts";
import { ADMIN_ENV, doc, serveOpts, signedRequest, tempDir } from "../helpers.ts";
import { atReadLimit, randomAnswers, SHAPES } from "../model-output/shapes.ts";
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

/** Asks the question the model answers with `answer` and, until its reply comes, sends another follower's article code (each must get its article): what the asker got. */
async function askBeside(answer: string): Promise<{ asked: string }> {
  model.mode = { answer: () => answer };
  let done = false;
  const asked = deliver(QUESTION, "o_asker").finally(() => (done = true));
  do expect(await deliver("rf", "o_other")).toContain("售后政策");
  while (!done);
  return { asked: await asked };
}

test("an answer at the read limit of each shape is read whole, checked and refused: the asker gets the article, and the codes another follower sent until then get theirs", async () => {
  const before = model.requests.length;
  for (const shape of SHAPES) {
    const { asked } = await askBeside(atReadLimit(shape, MAX_ANSWER_BYTES));
    // Nothing of these shapes is a grounded answer: the check refuses it and the asker gets the article.
    expect(asked).toContain("<MsgType><![CDATA[news]]></MsgType>");
    expect(asked).toContain("售后政策");
  }
  // Each answer was written by the model, read whole and checked (none failed as too large).
  expect(model.requests.length - before).toBeGreaterThanOrEqual(SHAPES.length);
});

test("random answers at the read limit are checked and refused: the asker gets the article, and another follower's codes get theirs", async () => {
  for (const answer of randomAnswers(6, MAX_ANSWER_BYTES, 7)) {
    const { asked } = await askBeside(atReadLimit(answer, MAX_ANSWER_BYTES));
    expect(asked).toContain("<MsgType><![CDATA[news]]></MsgType>");
    expect(asked).toContain("售后政策");
  }
});
