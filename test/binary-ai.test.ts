/**
 * dist/replyd with a model (serve --ai-url, the key from REPLYD_AI_KEY), as the platform and an
 * operator see it: encrypted questions answered in the model's words over a real socket, the
 * platform's own timings (a delivery it gives up on at 5 s, the answer on the next), the client's
 * health, inbox --ai and ask --generate — and the key in none of the server's output.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { holdsSecret } from "../src/llm/output/secrets.ts";
import { wxSignature } from "../src/wechat/door/crypto.ts";
import { BIN, buildIfMissing, runCleanups, spawnServer, type Cleanups, type ServerProcess } from "./binary-server.ts";
import { tempDir } from "./helpers.ts";
import { startFakeModel, type FakeModel } from "./model/fake.ts";
import { AESKEY, APPID, openReply } from "./wechat/helpers.ts";
// @ts-expect-error: untyped peer
import WXBizMsgCrypt from "wechat-crypto";

const TOKEN = "aitoken2026";
const KEY = "sk-binary-0123456789abcdefghij";
const ENV = { REPLYD_APPKEY: "ops", REPLYD_SECRET: "0123456789abcdef0123" };
const QUESTION = "不想要了，还能申请退款吗？";
const GENERATED = "本店支持七天无理由退货。[1]\n\n[1] 售后政策\nhttps://example.com/refund";
let tmp: ReturnType<typeof tempDir>;
let server: ServerProcess;
let model: FakeModel;
let url = "";
const cleanups: Cleanups = [];
const peer = new WXBizMsgCrypt(TOKEN, AESKEY, APPID);

// Not spawnSync: the fake model answers from this process's event loop.
const run = async (args: string[]) => {
  const p = Bun.spawn([BIN, ...args], { cwd: tmp.dir, env: { PATH: process.env.PATH ?? "", REPLYD_URL: url, ...ENV }, stdout: "pipe", stderr: "pipe" });
  const [o, e, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  return { code, out: o, err: e };
};

beforeAll(async () => {
  buildIfMissing();
  tmp = tempDir("replyd-binai-");
  cleanups.push(tmp.cleanup);
  model = startFakeModel(KEY);
  cleanups.push(() => model.stop());
  server = await spawnServer(
    ["--data", "data", "--host", "127.0.0.1", "--port", "0", "--wx-token", TOKEN, "--wx-aeskey", AESKEY, "--wx-appid", APPID, "--ai-url", model.base, "--ai-model", "fake-1"],
    { cwd: tmp.dir, env: { ...ENV, REPLYD_AI_KEY: KEY }, cleanups, ms: 15_000 },
  );
  url = server.url;
  writeFileSync(join(tmp.dir, "a.json"), JSON.stringify([{ id: "refund", title: "售后政策", url: "https://example.com/refund", body: "本店支持七天无理由退货。签收后七天内在订单页面申请退款，三个工作日内原路退回。" }]));
  expect((await run(["import", "a.json"])).code).toBe(0);
});

afterAll(() => runCleanups(cleanups));

let nonce = 500;
/** One encrypted delivery, closed by the platform after `giveUpMs` as it closes one at 5 s. */
async function deliver(text: string, msgId: string, giveUpMs = 5000): Promise<{ reply: Record<string, unknown> | null; ms: number }> {
  const ts = String(Math.floor(Date.now() / 1000));
  const n = String(++nonce);
  const xml = `<xml><ToUserName><![CDATA[gh_account]]></ToUserName><FromUserName><![CDATA[o_follower]]></FromUserName><CreateTime>${ts}</CreateTime><MsgType><![CDATA[text]]></MsgType><Content><![CDATA[${text}]]></Content><MsgId>${msgId}</MsgId></xml>`;
  const encrypted = peer.encrypt(xml);
  const q = new URLSearchParams({ timestamp: ts, nonce: n, signature: wxSignature(TOKEN, ts, n), encrypt_type: "aes", msg_signature: peer.getSignature(ts, n, encrypted) });
  const started = performance.now();
  try {
    const res = await fetch(`${url}/wechat?${q}`, { method: "POST", body: `<xml><Encrypt><![CDATA[${encrypted}]]></Encrypt></xml>`, signal: AbortSignal.timeout(giveUpMs) });
    return { reply: openReply(await res.text(), peer) as Record<string, unknown>, ms: performance.now() - started };
  } catch {
    return { reply: null, ms: performance.now() - started };
  }
}

test("an encrypted question is answered, encrypted, in the model's words citing the article", async () => {
  const r = await deliver(QUESTION, "61001");
  expect(r.reply).toMatchObject({ MsgType: "text", Content: GENERATED });
  expect(model.requests.at(-1)?.authorization).toBe(`Bearer ${KEY}`);
});

test("the platform's timings: a delivery it gives up on at 5 s is not answered; the next one gets the answer; one call", async () => {
  model.mode = { delayMs: 6500 };
  const before = model.requests.length;
  const first = await deliver(QUESTION, "61002");
  expect(first.reply).toBeNull();
  const second = await deliver(QUESTION, "61002");
  expect(second.reply).toMatchObject({ MsgType: "text", Content: GENERATED });
  expect(second.ms).toBeLessThan(3000);
  expect(model.requests.length - before).toBe(1);
  model.mode = {};
}, 30_000);

test("the client: health's model line, inbox --ai with the sources, ask --generate with what a follower would get", async () => {
  const h = await run(["health"]);
  expect(h.code).toBe(0);
  expect(h.out).toMatch(/model\s+fake-1 at 127\.0\.0\.1:\d+\/v1: 2 calls since start \(2 answered/);
  const inbox = await run(["inbox", "--ai"]);
  expect(inbox.code).toBe(0);
  expect(inbox.out).toContain("reply");
  expect(inbox.out).toContain(QUESTION);
  expect(inbox.out).toContain("sources: refund; cited: refund");
  const json = JSON.parse((await run(["inbox", "--ai", "--json"])).out) as { items: { sources: { passages: string[] }[] }[] };
  expect(json.items[0]?.sources[0]?.passages[0]).toContain("七天无理由退货");
  const asked = await run(["ask", "--generate", QUESTION]);
  expect(asked.code).toBe(0);
  expect(asked.out).toContain("generated    reply");
  expect(asked.out).toContain(GENERATED);
  expect((await run(["inbox", "--ai", "--all"])).code).toBe(2);
});

test("what a model writes cannot hurt, from the binary: foreign links, rebuilt tags and ungrounded contacts give the retrieval reply; 256 KiB of [ is checked in no time; each refusal counted", async () => {
  const before = model.requests.length;
  const answers = ["退款请访问 ｈｔｔｐ：／／evil.example [1]", '<<a>a href="//evil.example">退款<</a>/a> evil . example [1]', "可以退，请拨打 400-820-1234。[1]", "[".repeat(200_000)];
  let msgId = 61100;
  for (const answer of answers) {
    model.mode = { answer: () => answer };
    const r = await deliver(QUESTION, String(++msgId));
    expect(r.reply).toMatchObject({ MsgType: "news" });
    expect(JSON.stringify(r.reply)).not.toContain("evil");
    expect(r.ms).toBeLessThan(3000);
  }
  model.mode = {};
  expect(model.requests.length - before).toBe(answers.length);
  const refused = (JSON.parse((await run(["health", "--json"])).out) as { generated_answers: { refused: Record<string, number> } }).generated_answers.refused;
  expect(refused).toMatchObject({ foreign_link: 2, ungrounded: 1, no_citation: 1 });
  expect((await run(["inbox", "--ai"])).out).toContain("refused:ungrounded");
});

test("ask --generate with a read key is refused before the model is called", async () => {
  const added = await run(["keys", "add", "--scope", "read", "--data", "data", "--json"]);
  expect(added.code).toBe(0);
  const k = JSON.parse(added.out) as { appkey: string; secret: string };
  // The server takes the new key up within a second.
  await Bun.sleep(1500);
  const before = model.requests.length;
  const p = Bun.spawn([BIN, "ask", "--generate", QUESTION], { cwd: tmp.dir, env: { PATH: process.env.PATH ?? "", REPLYD_URL: url, REPLYD_APPKEY: k.appkey, REPLYD_SECRET: k.secret }, stdout: "pipe", stderr: "pipe" });
  const [o, e, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  expect(code).not.toBe(0);
  expect(o + e).toContain("admin key");
  expect(model.requests.length).toBe(before);
});

test("the key appears in none of the server's output, nor in health", async () => {
  // An endpoint quoting the key, spaced out, in a body that is not JSON: the failure is logged and listed without it.
  model.mode = { raw: `<html>upstream rejected ${KEY.split("").join(" ")}</html>` };
  await deliver(QUESTION, "61200");
  model.mode = {};
  const listed = (await run(["inbox", "--ai", "--json"])).out;
  expect(listed).toContain("upstream rejected");
  expect(holdsSecret(listed, [KEY])).toBe(false);
  expect((await run(["health", "--json"])).out).not.toContain(KEY);
  expect(server.out() + server.err()).toContain('"ai":{"endpoint"');
  expect(holdsSecret(server.out() + server.err(), [KEY])).toBe(false);
});

test("health asked four times in a row looks at the endpoint once, not on each request (the 15 s hold in the binary)", async () => {
  const before = model.probes.length;
  const started = performance.now();
  const states: string[] = [];
  for (let i = 0; i < 4; i++) states.push((JSON.parse((await run(["health", "--json"])).out) as { generated_answers: { endpoint_now: { state: string } } }).generated_answers.endpoint_now.state);
  expect(states).toEqual(["up", "up", "up", "up"]);
  // At most one look may be due in any 15 s (the first of the four may begin one); more than 15 s, two.
  expect(model.probes.length - before).toBeLessThanOrEqual(performance.now() - started < 15_000 ? 1 : 2);
  expect(model.probes.every((a) => a === `Bearer ${KEY}`)).toBe(true);
});
