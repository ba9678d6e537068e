/**
 * The app with a fake model endpoint (and a fake platform) for the generated answers' suites:
 * one follower's deliveries, the operator's signed calls, what was logged and counted.
 */
import { afterEach, expect } from "bun:test";
import type { AppOptions } from "../../src/server/app-options.ts";
import type { AdminKey } from "../../src/store/keys.ts";
import type { DeliveryTimes } from "../../src/wechat/ai/generated-answers.ts";
import type { CapLimits } from "../../src/wechat/ai/caps.ts";
import { PlatformClient } from "../../src/wechat/platform/client.ts";
import { parseXml, type XmlNode } from "../../src/wechat/door/xml.ts";
import { body, doc, signedRequest, testApp } from "../helpers.ts";
import { startFakeModel, type FakeModel } from "../model/fake.ts";
import { startFakePlatform, type FakePlatform } from "../platform/fake.ts";
import { APPID, SECRET } from "../platform/harness.ts";
import { TOKEN, wxPost } from "../wechat/helpers.ts";

export const KEY = "sk-test-0123456789abcdefghij";
export const TIMES: Partial<DeliveryTimes> = { lastAnswerMs: 400, lastAfterMs: 100_000, holdMs: 4000 };

export const REFUND = { id: "refund", code: "rf", title: "售后政策", url: "https://example.com/refund", body: "本店支持七天无理由退货。签收后七天内在订单页面申请退款，三个工作日内原路退回。" };
export const SHIPPING = { id: "ship", title: "配送说明", url: "https://example.com/ship", body: "全国包邮，下单后四十八小时内发货，顺丰快递配送，一般三天送达。" };
export const QUESTION = "不想要了，还能申请退款吗？";
export const GENERATED = "本店支持七天无理由退货。[1]\n\n[1] 售后政策\nhttps://example.com/refund";

export let model: FakeModel;
export let platform: FakePlatform | null = null;
export let keeper: PlatformClient | null = null;
export let t: Awaited<ReturnType<typeof testApp>>;
export const logged: string[] = [];
/** What was logged at "warn": the checks' refusals, a cap reached. */
export const warned: string[] = [];

export async function setup(o: { caps?: Partial<CapLimits>; times?: Partial<DeliveryTimes>; platform?: boolean; timeoutMs?: number } = {}) {
  model = startFakeModel(KEY);
  logged.length = 0;
  warned.length = 0;
  const extra: Pick<AppOptions, "platform"> = {};
  if (o.platform) {
    platform = startFakePlatform(APPID, SECRET);
    platform.interact("o_follower");
    keeper = new PlatformClient({ api: platform.url, appid: APPID, secret: SECRET, clock: { now: () => Date.now(), monotonic: () => performance.now() }, log: () => {} });
    extra.platform = keeper;
  }
  t = await testApp({
    wechat: { token: TOKEN },
    logError: (m) => void logged.push(m),
    logWarn: (m) => void warned.push(m),
    ai: { endpoint: { base: model.base, model: "fake-1", key: KEY, timeoutMs: o.timeoutMs ?? 6000 }, caps: { perFollower: 10, perMinute: 1000, daily: 1000, concurrency: 100, ...o.caps }, times: { ...TIMES, ...o.times } },
    ...extra,
  });
  const r = await call("POST", "/api/cli", [["mode", "merge"]], [{ name: "json", content: doc([REFUND, SHIPPING], { matter: "articles" }) }]);
  expect(r.status).toBe(200);
}
afterEach(() => {
  t?.close();
  model?.stop();
  keeper?.stop();
  platform?.stop();
  platform = null;
  keeper = null;
});

export async function call(method: string, path: string, fields: [string, string][] = [], files?: { name: string; content: string }[], key?: AdminKey) {
  t.clock.advance(1);
  const res = await t.handle(signedRequest(method, path, { fields, nowMs: t.clock.now(), ...(files ? { files } : {}), ...(key ? { key } : {}) }));
  return { status: res.status, ...(await body(res)) };
}

let msgIds = 70_000;
/** A new message id. */
export const nextMsgId = (): string => String(++msgIds);
export const sec = () => Math.floor(t.clock.now() / 1000);
export const xmlOf = (content: string, msgId: string, from: string) =>
  `<xml><ToUserName><![CDATA[gh_account]]></ToUserName><FromUserName><![CDATA[${from}]]></FromUserName><CreateTime>${sec()}</CreateTime><MsgType><![CDATA[text]]></MsgType><Content><![CDATA[${content}]]></Content><MsgId>${msgId}</MsgId></xml>`;

/** One delivery of a follower's message; `signal` aborts as the platform giving up on it does. */
export async function deliver(content: string, o: { msgId?: string; from?: string; signal?: AbortSignal } = {}): Promise<{ text: string; ms: number }> {
  const from = o.from ?? "o_follower";
  let req = wxPost(xmlOf(content, o.msgId ?? nextMsgId(), from), sec());
  if (from !== "o_follower") {
    const url = new URL(req.url);
    url.searchParams.delete("openid");
    req = new Request(url.href, { method: "POST", body: await req.text() });
  }
  if (o.signal) req = new Request(req, { signal: o.signal });
  const started = performance.now();
  const res = await t.handle(req);
  return { text: await res.text(), ms: performance.now() - started };
}
/** A delivery the platform gives up on once it is under way (as it does at 5 s). */
export async function abandoned(content: string, msgId: string, from?: string, afterMs = 40): Promise<string> {
  const gaveUp = new AbortController();
  const d = deliver(content, { msgId, signal: gaveUp.signal, ...(from ? { from } : {}) });
  await Bun.sleep(afterMs);
  gaveUp.abort();
  return (await d).text;
}
export const parsed = (x: { text: string }): XmlNode | "success" => (x.text === "success" ? "success" : parseXml(x.text));
export const contentOf = (x: { text: string }) => (parsed(x) as XmlNode).Content as string | undefined;
export const newsTitle = (x: { text: string }) => (((parsed(x) as XmlNode).Articles as XmlNode | undefined)?.item as XmlNode | undefined)?.Title;
export const until = async (what: () => Promise<boolean> | boolean, ms = 5000) => {
  for (const end = Date.now() + ms; Date.now() < end; await Bun.sleep(20)) if (await what()) return;
  throw new Error("timed out waiting");
};
export const calls = async () => (await call("GET", "/api/cli", [["inbox", "ai"]])).data as { items: Record<string, any>[]; total: number };
/**
 * Waits until `n` model calls are logged: a delivery is answered as soon as the model's answer is
 * kept, and its message and call are logged just after, so a read right after the reply may miss them.
 */
export const loggedCalls = (n: number) => until(async () => (await calls()).total >= n);
export const health = async () => (await call("GET", "/api/cli")).data;
export const inboxAll = async () => {
  await t.log.settled();
  return (await call("GET", "/api/cli", [["inbox", "all"]])).data.items as Record<string, any>[];
};

/** Points the suite at a model started by the test itself. */
export const useModel = (m: FakeModel) => void (model = m);
