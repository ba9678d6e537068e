/**
 * What the model output check costs (issue 31's targets, moved here from the unit tests: the
 * machines are shared and a timed unit test fails on a loaded one). Two measures:
 *
 * 1. Each step of the check on 256 KiB (the read limit) of every shape that froze the old check and
 *    of random mixes: target 400 ms a step (a square cost takes minutes), and the whole check on
 *    256 KiB under 100 ms (it reads only RAW_CHARS).
 * 2. Through a listening server: while an answer at the read limit of each shape is written by a
 *    fake model and checked, another follower's article code is answered; the longest that
 *    follower waited, best of three tries: target 50 ms (the old check held followers for seconds).
 *
 *   bun bench/model-check.ts [--json FILE]
 *
 * Prints one line per measure, the worst case of each, and exits 1 when a target is missed.
 */
import { writeFileSync } from "node:fs";
import { MAX_ANSWER_BYTES } from "../src/llm/client.ts";
import { startServer } from "../src/server/serve.ts";
import { ADMIN_ENV, doc, serveOpts, signedRequest, tempDir } from "../test/helpers.ts";
import { atReadLimit, fill, randomAnswers, SHAPES } from "../test/model-output/shapes.ts";
import { check, KEY, STEPS } from "../test/model-output/steps.ts";
import { startFakeModel } from "../test/model/fake.ts";
import { TOKEN, wxPost } from "../test/wechat/helpers.ts";

const args = process.argv.slice(2);
const JSON_OUT = args.includes("--json") ? args[args.indexOf("--json") + 1] : undefined;
const TARGET = { stepMs: 400, checkMs: 100, othersWaitMs: 50 };
const MEASURED: [string, (s: string) => unknown][] = [...STEPS, ["checkOutput", check]];

/** The time of `f` on its second run (the first warms the code up). */
function warmMs(f: () => unknown): number {
  f();
  const t = performance.now();
  f();
  return performance.now() - t;
}

const worst = { step: { ms: 0, what: "" }, check: { ms: 0, what: "" }, othersWait: { ms: 0, what: "" } };
const inputs: [string, string][] = [...SHAPES.map((s): [string, string] => [JSON.stringify(s), fill(s, MAX_ANSWER_BYTES)]), ...randomAnswers(8, MAX_ANSWER_BYTES).map((s, i): [string, string] => [`random #${i + 1}`, s])];
for (const [what, input] of inputs)
  for (const [name, step] of MEASURED) {
    const ms = warmMs(() => step(input));
    const slot = name === "checkOutput" ? worst.check : worst.step;
    if (ms > slot.ms) Object.assign(slot, { ms, what: `${name} on 256 KiB of ${what}` });
  }
console.log(`slowest step: ${worst.step.ms.toFixed(1)} ms (${worst.step.what}; target ${TARGET.stepMs})`);
console.log(`slowest whole check: ${worst.check.ms.toFixed(1)} ms (${worst.check.what}; target ${TARGET.checkMs})`);

// Through a listening server, the fake model answering with what each try sets.
const model = startFakeModel(KEY);
const dir = tempDir("replyd-bench-");
const server = await startServer(
  serveOpts(dir.dir, {
    env: ADMIN_ENV,
    wechat: { token: TOKEN },
    ai: { endpoint: { base: model.base, model: "fake-1", key: KEY, timeoutMs: 10_000 }, caps: { perFollower: 1000, perMinute: 1000, daily: 10_000, concurrency: 100 } },
  }),
);
try {
  const refund = { id: "refund", code: "rf", title: "售后政策", url: "https://example.com/refund", body: "本店支持七天无理由退货。签收后七天内在订单页面申请退款。" };
  const req = signedRequest("POST", "/api/cli", { nowMs: Date.now(), fields: [["mode", "merge"]], files: [{ name: "json", content: doc([refund], { matter: "articles" }) }] });
  const imported = await fetch(server.url + "/api/cli", { method: "POST", headers: req.headers, body: await req.arrayBuffer() });
  if (imported.status !== 200) throw new Error(`import failed: ${imported.status}`);

  let msgId = 880_000;
  const deliver = async (content: string, from: string): Promise<string> => {
    const now = Math.floor(Date.now() / 1000);
    const xml = `<xml><ToUserName><![CDATA[gh_account]]></ToUserName><FromUserName><![CDATA[${from}]]></FromUserName><CreateTime>${now}</CreateTime><MsgType><![CDATA[text]]></MsgType><Content><![CDATA[${content}]]></Content><MsgId>${++msgId}</MsgId></xml>`;
    const url = new URL(wxPost(xml, now).url);
    url.searchParams.delete("openid");
    return (await fetch(server.url + url.pathname + url.search, { method: "POST", body: xml })).text();
  };
  /** The longest another follower waited for the article code while `answer` was written and checked, once. */
  const waitedOnce = async (answer: string): Promise<number> => {
    model.mode = { answer: () => answer };
    let done = false;
    const asked = deliver("不想要了，还能申请退款吗？", "o_asker").finally(() => (done = true));
    let longest = 0;
    while (!done) {
      const started = performance.now();
      if (!(await deliver("rf", "o_other")).includes("售后政策")) throw new Error("the other follower's code was not answered");
      longest = Math.max(longest, performance.now() - started);
    }
    await asked;
    return longest;
  };
  for (const [what, unit] of [...SHAPES.map((s): [string, string] => [JSON.stringify(s), s]), ...randomAnswers(6, MAX_ANSWER_BYTES, 7).map((s, i): [string, string] => [`random #${i + 1}`, s])]) {
    let best = Infinity;
    for (let i = 0; i < 3 && best >= TARGET.othersWaitMs; i++) best = Math.min(best, await waitedOnce(atReadLimit(unit, MAX_ANSWER_BYTES)));
    if (best > worst.othersWait.ms) Object.assign(worst.othersWait, { ms: best, what: `an answer of ${what} at the read limit` });
  }
  console.log(`longest another follower waited: ${worst.othersWait.ms.toFixed(1)} ms (${worst.othersWait.what}; target ${TARGET.othersWaitMs})`);
} finally {
  await server.stop();
  model.stop();
  dir.cleanup();
}

if (JSON_OUT) writeFileSync(JSON_OUT, JSON.stringify({ target: TARGET, worst }, null, 2) + "\n");
const missed = worst.step.ms > TARGET.stepMs || worst.check.ms > TARGET.checkMs || worst.othersWait.ms > TARGET.othersWaitMs;
process.exit(missed ? 1 : 0);
