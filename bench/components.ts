/**
 * What one follower reply costs, piece by piece, measured in isolation on one core
 * (docs/performance.md). Run: bun bench/components.ts
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { systemClock } from "../src/base/clock.ts";
import { parseDocument } from "../src/doc/validation.ts";
import { DataFolder } from "../src/store/sqlite/data-folder.ts";
import { verifyWxSignature, wxSignature } from "../src/wechat/door/crypto.ts";
import { dedupeKey, renderReply, toInbound } from "../src/wechat/door/message.ts";
import { queryOf } from "../src/wechat/door/query.ts";
import { RetryCache } from "../src/wechat/door/retries.ts";
import { parseXml } from "../src/wechat/door/xml.ts";

const N = 200_000;
const dir = mkdtempSync(join(tmpdir(), "replyd-components-"));
const store = DataFolder.open(dir, { clock: systemClock, keep: 5 });
store.importDocument(parseDocument(JSON.stringify(Array.from({ length: 1000 }, (_, i) => ({ id: `a${i}`, code: `c${i}`, title: `Article ${i}`, url: `https://example.com/${i}` })))), "merge");
const ts = String(Math.floor(Date.now() / 1000));
const url = `http://localhost/wechat?signature=${wxSignature("tok", ts, "n")}&timestamp=${ts}&nonce=n&openid=o_1`;
const body = (i: number) =>
  `<xml><ToUserName><![CDATA[gh]]></ToUserName><FromUserName><![CDATA[o_${i % 100}]]></FromUserName><CreateTime>${ts}</CreateTime><MsgType><![CDATA[text]]></MsgType><Content><![CDATA[c${i % 1000}]]></Content><MsgId>${1e12 + i}</MsgId></xml>`;
const bodies = Array.from({ length: 1000 }, (_, i) => body(i));
const msg = toInbound(parseXml(bodies[5] as string));
const article = store.articles.getLiveByCode("c5")!;
const cache = new RetryCache();
const reply = renderReply({ type: "news", articles: [{ title: article.title, description: article.description, picurl: article.picurl, url: article.url }] }, msg, Number(ts));

const rows: [string, number][] = [];
function time(name: string, fn: (i: number) => unknown) {
  for (let i = 0; i < 10_000; i++) fn(i); // warm up
  const t0 = performance.now();
  for (let i = 0; i < N; i++) fn(i);
  rows.push([name, ((performance.now() - t0) / N) * 1000]);
}

time("query string (queryOf)", () => queryOf(url).signature);
time("signature (sha1 + constant-time compare)", () => verifyWxSignature(wxSignature("tok", ts, "n"), "0".repeat(40)));
const encoded = bodies.map((b) => new TextEncoder().encode(b));
const utf8 = new TextDecoder("utf-8", { fatal: true });
time("UTF-8 decode of the body (strict)", (i) => utf8.decode(encoded[i % 1000]));
time("XML parse + message fields", (i) => toInbound(parseXml(bodies[i % 1000] as string)));
time("retry-cache lookup + insert (off-heap)", (i) => cache.get(`m:${i}`, Date.now(), () => reply));
time("article by code (cached)", (i) => store.articles.getLiveByCode(`c${i % 1000}`));
time("render the news reply", () => renderReply({ type: "news", articles: [{ title: article.title, description: article.description, picurl: article.picurl, url: article.url }] }, msg, Number(ts)));
time("message-log entry (queued for the writer thread)", (i) =>
  store.messages.add({ received_ms: Date.now(), msg_key: `m:${2e12 + i}`, from_user: "o_1", type: "text", event: null, content: "c5", answer: "code", unmatched: false }),
);
store.messages.sync();
time("request log line", (i) => `{"t":"${new Date().toISOString()}","method":"POST","path":"/wechat","status":200,"ms":${(i % 7) / 3},"ip":"127.0.0.1"}`);
time("Response object", () => new Response("<xml>…</xml>", { headers: { "content-type": "application/xml; charset=utf-8" } }));
time("dedupe key", () => dedupeKey(msg));

const total = rows.reduce((n, [, us]) => n + us, 0);
for (const [name, us] of rows) console.log(`${us.toFixed(2).padStart(7)} µs  ${name}`);
console.log(`${total.toFixed(2).padStart(7)} µs  sum of the parts`);
store.close();
rmSync(dir, { recursive: true, force: true });
