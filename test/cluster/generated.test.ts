/**
 * Generated answers across a cluster (docs/answers.md "In a cluster"): listening instances on one
 * PostgreSQL and one Redis, a fake model and a fake platform. The platform's deliveries of one
 * message land on different instances: the model is called once, the answer goes out on whichever
 * delivery is open, the last one is answered in time, the follow-up is sent once, the caps and the
 * answers waiting for a next message hold across instances.
 */
import { afterEach, expect, test } from "bun:test";
import { startServer, type RunningServer } from "../../src/server/serve.ts";
import type { DeliveryTimes } from "../../src/wechat/ai/generated-answers.ts";
import type { CapLimits } from "../../src/wechat/ai/caps.ts";
import { parseXml, type XmlNode } from "../../src/wechat/door/xml.ts";
import { ADMIN_ENV, body, doc, serveOpts, signedRequest } from "../helpers.ts";
import { startFakeModel, type FakeModel } from "../model/fake.ts";
import { testDatabase } from "../pg.ts";
import { startFakePlatform, type FakePlatform } from "../platform/fake.ts";
import { APPID, SECRET } from "../platform/harness.ts";
import { clusterSuite } from "./suite.ts";
import { TOKEN, wxPost } from "../wechat/helpers.ts";

const KEY = "sk-test-0123456789abcdefghij";
const TIMES: Partial<DeliveryTimes> = { lastAnswerMs: 400, lastAfterMs: 100_000, holdMs: 4000 };
const QUESTION = "不想要了，还能申请退款吗？";
const GENERATED = "本店支持七天无理由退货。[1]\n\n[1] 售后政策\nhttps://example.com/refund";
const REFUND = { id: "refund", title: "售后政策", url: "https://example.com/refund", body: "本店支持七天无理由退货。签收后七天内在订单页面申请退款，三个工作日内原路退回。" };

const suite = clusterSuite("replyd-cluster-ai-");
let model: FakeModel;
let platform: FakePlatform | null = null;

afterEach(() => {
  model?.stop();
  platform?.stop();
  platform = null;
});

async function cluster(o: { caps?: Partial<CapLimits>; platform?: boolean } = {}): Promise<[RunningServer, RunningServer]> {
  const db = (suite.db = await testDatabase());
  model = startFakeModel(KEY);
  if (o.platform) {
    platform = startFakePlatform(APPID, SECRET);
    platform.interact("o_follower");
  }
  const wechat = { token: TOKEN, ...(platform ? { appid: APPID, secret: SECRET, api: platform.url } : {}) };
  const ai = { endpoint: { base: model.base, model: "fake-1", key: KEY, timeoutMs: 5000 }, caps: { perFollower: 10, perMinute: 1000, daily: 1000, concurrency: 100, ...o.caps }, times: TIMES };
  for (let i = 0; i < 2; i++) suite.running.push(await startServer(serveOpts(suite.tmp.dir, { db: db.url, redis: suite.redis.url, env: ADMIN_ENV, wechat, ai })));
  const [a, b] = suite.running as [RunningServer, RunningServer];
  const req = signedRequest("POST", "/api/cli", { nowMs: Date.now(), fields: [["mode", "merge"]], files: [{ name: "json", content: doc([REFUND], { matter: "articles" }) }] });
  const res = await fetch(a.url + "/api/cli", { method: "POST", headers: req.headers, body: await req.arrayBuffer() });
  expect(res.status).toBe(200);
  // The other instance's copy has the article once the change notice reached it.
  for (let i = 0; i < 100; i++) {
    const h = await body(await fetch(b.url + "/api/cli?" + new URL(signedRequest("GET", "/api/cli", { nowMs: Date.now() }).url).search.slice(1)));
    if (h.data?.counts?.articles_live === 1 && h.data.passage_index.state === "ready") break;
    await Bun.sleep(50);
  }
  return [a, b];
}

const xmlOf = (content: string, msgId: string, from = "o_follower") =>
  `<xml><ToUserName><![CDATA[gh_account]]></ToUserName><FromUserName><![CDATA[${from}]]></FromUserName><CreateTime>${Math.floor(Date.now() / 1000)}</CreateTime><MsgType><![CDATA[text]]></MsgType><Content><![CDATA[${content}]]></Content><MsgId>${msgId}</MsgId></xml>`;

/** One delivery to instance `s`; `giveUpMs`: the platform closes it then, as it does at 5 s. */
async function deliver(s: RunningServer, content: string, msgId: string, giveUpMs?: number, from = "o_follower"): Promise<string> {
  const xml = xmlOf(content, msgId, from);
  const req = wxPost(xml, Math.floor(Date.now() / 1000));
  const url = new URL(req.url);
  if (from !== "o_follower") url.searchParams.delete("openid");
  const gaveUp = new AbortController();
  const timer = giveUpMs === undefined ? null : setTimeout(() => gaveUp.abort(), giveUpMs);
  try {
    const res = await fetch(s.url + url.pathname + url.search, { method: "POST", body: xml, headers: { "content-type": "text/xml" }, signal: gaveUp.signal });
    return await res.text();
  } catch {
    return "(closed)";
  } finally {
    if (timer) clearTimeout(timer);
  }
}
const contentOf = (text: string) => (parseXml(text) as XmlNode).Content as string | undefined;
const newsTitle = (text: string) => (((parseXml(text) as XmlNode).Articles as XmlNode | undefined)?.item as XmlNode | undefined)?.Title;
const until = async (what: () => Promise<boolean> | boolean, ms = 6000) => {
  for (const end = Date.now() + ms; Date.now() < end; await Bun.sleep(25)) if (await what()) return;
  throw new Error("timed out waiting");
};
const calls = async (s: RunningServer) => {
  const req = signedRequest("GET", "/api/cli", { nowMs: Date.now(), fields: [["inbox", "ai"]] });
  return (await body(await fetch(s.url + "/api/cli?" + new URL(req.url).search.slice(1)))).data as { items: Record<string, any>[]; total: number };
};

test("deliveries at two instances: one call; the answer goes out on the delivery open at the other instance; later ones get the same bytes", async () => {
  const [a, b] = await cluster();
  model.mode = { delayMs: 800 };
  expect(await deliver(a, QUESTION, "7001", 200)).toBe("(closed)");
  const second = await deliver(b, QUESTION, "7001");
  expect(contentOf(second)).toBe(GENERATED);
  expect(await deliver(a, QUESTION, "7001")).toBe(second);
  expect(await deliver(b, QUESTION, "7001")).toBe(second);
  expect(model.requests.length).toBe(1);
  await until(async () => (await calls(b)).items[0]?.outcome === "reply");
});

test("the last delivery, at another instance, answered in time with the retrieval reply; the answer follows once as a customer-service message", async () => {
  const [a, b] = await cluster({ platform: true });
  model.mode = { delayMs: 3000 };
  await deliver(a, QUESTION, "7002", 100);
  await deliver(b, QUESTION, "7002", 100);
  const started = performance.now();
  const last = await deliver(b, QUESTION, "7002");
  // lastAnswerMs is 400 ms here; the model takes 3 s.
  expect(performance.now() - started).toBeLessThan(2200);
  expect(newsTitle(last)).toBe("售后政策");
  await until(() => (platform?.sent.length ?? 0) > 0);
  await Bun.sleep(300);
  expect(platform?.sent).toEqual([{ touser: "o_follower", msgtype: "text", text: { content: GENERATED } }]);
  expect(model.requests.length).toBe(1);
  expect((await calls(a)).items.map((c) => c.outcome)).toEqual(["customer_service"]);
});

test("caps hold across instances: a follower's hourly cap spent at one is spent at the other", async () => {
  const [a, b] = await cluster({ caps: { perFollower: 1 } });
  expect(contentOf(await deliver(a, QUESTION, "7003"))).toBe(GENERATED);
  expect(newsTitle(await deliver(b, QUESTION, "7004"))).toBe("售后政策");
  expect(model.requests.length).toBe(1);
});

test("the budget per minute is the cluster's: calls at one instance and the other count together", async () => {
  const [a, b] = await cluster({ caps: { perMinute: 3 } });
  expect(contentOf(await deliver(a, QUESTION, "7101", undefined, "o_1"))).toBe(GENERATED);
  expect(contentOf(await deliver(b, QUESTION, "7102", undefined, "o_2"))).toBe(GENERATED);
  expect(contentOf(await deliver(a, QUESTION, "7103", undefined, "o_3"))).toBe(GENERATED);
  expect(newsTitle(await deliver(b, QUESTION, "7104", undefined, "o_4"))).toBe("售后政策");
  expect(newsTitle(await deliver(a, QUESTION, "7105", undefined, "o_5"))).toBe("售后政策");
  expect(model.requests.length).toBe(3);
});

test("the calls in flight are the cluster's: with one place, a call at one instance leaves none at the other until it ends", async () => {
  const [a, b] = await cluster({ caps: { concurrency: 1 } });
  model.mode = { delayMs: 800 };
  const first = deliver(a, QUESTION, "7201", undefined, "o_1");
  await until(() => model.requests.length === 1);
  expect(newsTitle(await deliver(b, QUESTION, "7202", undefined, "o_2"))).toBe("售后政策");
  expect(model.requests.length).toBe(1);
  expect(contentOf(await first)).toBe(GENERATED);
  // The place is free again (its lease removed, not waited out).
  model.mode = {};
  expect(contentOf(await deliver(b, QUESTION, "7203", undefined, "o_3"))).toBe(GENERATED);
});

test("an answer waiting for the follower's next message is sent by the instance that message reaches, once", async () => {
  const [a, b] = await cluster();
  model.mode = { delayMs: 700 };
  await deliver(a, QUESTION, "7005", 80);
  await deliver(a, QUESTION, "7005", 80);
  expect(newsTitle(await deliver(a, QUESTION, "7005"))).toBe("售后政策");
  await until(async () => (await calls(a)).items[0]?.outcome === "pending");
  // The other instance heard of it (Redis), and the store hands it out once.
  await until(async () => {
    const req = signedRequest("GET", "/api/cli", { nowMs: Date.now() });
    return (await body(await fetch(b.url + "/api/cli?" + new URL(req.url).search.slice(1)))).data.generated_answers.pending_followers === 1;
  });
  expect(contentOf(await deliver(b, "谢谢", "7006"))).toBe(`“${QUESTION}”\n\n${GENERATED}`);
  expect(contentOf(await deliver(a, "再问一下", "7007"))).not.toContain(GENERATED);
});
