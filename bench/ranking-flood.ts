/**
 * The ranking's worst case (issue 33 H): forty articles whose 64 KiB bodies share the same common
 * pairs, so that a question made of those pairs makes every one of them a candidate and each
 * candidate's whole body would be cut and counted; wrk floods that question while another follower
 * asks ordinary questions one at a time and reads what it gets. Loopback only, bounded. The server
 * is pinned to core 0 (its search worker shares it), wrk to core 1; run the bench itself on core 1:
 *
 *   ./scripts/build && taskset -c 1 bun bench/ranking-flood.ts [--connections 8,16] [--followers 1,500]
 *       [--duration 20] [--bin dist/replyd]
 *
 * --followers: how many followers the flood comes from (1: one follower sends them all; 500: each
 * message from one of 500, as bench/flood.lua does by default). Per connection count and follower
 * count: the flood's rate and latency, the probe's latency and whether each probe got its ranked
 * answer (the right article), and the server's search counts (busy, late, skipped). Also the
 * crafted question's cost on the worker alone (one at a time, no flood).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { systemClock } from "../src/base/clock.ts";
import { parseDocument } from "../src/doc/validation.ts";
import { DataFolder } from "../src/store/sqlite/data-folder.ts";
import { wxSignature } from "../src/wechat/door/crypto.ts";
import { clientFor, KEY, port, spawn, TOKEN, waitHealthy } from "./servers.ts";
import { parseWrk } from "./wrk.ts";

const args = process.argv.slice(2);
const opt = (name: string, fallback: string) => (args.includes(name) ? (args[args.indexOf(name) + 1] as string) : fallback);
const ROOT = resolve(import.meta.dir, "..");
const BIN = resolve(opt("--bin", join(ROOT, "dist/replyd")));
const CONNECTIONS = opt("--connections", "8,16").split(",").map(Number);
const FOLLOWERS = opt("--followers", "1,500").split(",").map(Number);
const DURATION = Number(opt("--duration", "20"));
const say = (s: string) => process.stderr.write(s + "\n");

/** Common characters whose every pair recurs in every passage of every long body. */
export const COMMON = "中国历史人物事件时间地点文化经济社会发展政治国家人民世界工作问题";
/** The crafted question: the common pairs, as a follower may send them. */
export const CRAFTED = COMMON.repeat(3);

/** A body of just under 64 KiB of UTF-8 (the most an article may hold) made of the common pairs. */
export function longBody(): string {
  let body = "";
  while (Buffer.byteLength(body) + Buffer.byteLength(COMMON) + 3 <= 64 * 1024) body += COMMON + "，";
  return body;
}

/** Ordinary articles the probe's questions are answered from, and those questions. */
const ORDINARY = [
  { id: "refund", title: "售后政策", body: "本店支持七天无理由退货。商品签收后七天内，在订单页面点击申请退款，填写退款原因并上传照片，审核通过后三个工作日内原路退回。" },
  { id: "ship", title: "配送说明", body: "全国包邮，新疆西藏除外。下单后四十八小时内发货，顺丰快递配送，一般三天送达。" },
  { id: "members", title: "会员积分", body: "每消费一元积一分，积分可以在下单时抵扣现金，一百积分抵一元。积分有效期为一年。" },
];
const PROBES = [
  { q: "买了东西不想要了，还能退款吗？", id: "refund" },
  { q: "多久能送到？顺丰吗", id: "ship" },
  { q: "积分有效期多久", id: "members" },
];

let nonce = 0;
async function ask(url: string, question: string, follower: string): Promise<{ xml: string; ms: number }> {
  const ts = String(Math.floor(Date.now() / 1000));
  const n = `p${process.pid}x${++nonce}`;
  const body = `<xml><ToUserName><![CDATA[gh_bench]]></ToUserName><FromUserName><![CDATA[${follower}]]></FromUserName><CreateTime>${ts}</CreateTime><MsgType><![CDATA[text]]></MsgType><Content><![CDATA[${question}]]></Content><MsgId>${Date.now()}${nonce}</MsgId></xml>`;
  const t0 = performance.now();
  const res = await fetch(`${url}/wechat?signature=${wxSignature(TOKEN, ts, n)}&timestamp=${ts}&nonce=${n}&openid=${follower}`, { method: "POST", body });
  const xml = await res.text();
  return { xml, ms: performance.now() - t0 };
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return +(s[Math.min(s.length - 1, Math.floor((s.length * p) / 100))] ?? 0).toFixed(1);
};

/** One follower asking the ordinary questions one at a time until `until`: latencies, and how many got their article. */
async function probe(url: string, until: number) {
  const ms: number[] = [];
  let ranked = 0;
  for (let i = 0; Date.now() < until; i++) {
    const p = PROBES[i % PROBES.length] as (typeof PROBES)[number];
    const r = await ask(url, p.q, "o_probe");
    ms.push(r.ms);
    if (r.xml.includes(`https://example.com/${p.id}]]>`)) ranked++;
  }
  return { requests: ms.length, p50_ms: pct(ms, 50), p99_ms: pct(ms, 99), max_ms: pct(ms, 100), ranked_answers: ranked };
}

const tmp = mkdtempSync(join(tmpdir(), "replyd-ranking-flood-"));
let server: ReturnType<typeof spawn> | null = null;
try {
  const dataDir = join(tmp, "data");
  mkdirSync(dataDir);
  const store = DataFolder.open(dataDir, { clock: systemClock, keep: 5 });
  const body = longBody();
  const articles = [
    ...Array.from({ length: 40 }, (_, i) => ({ id: `long${i}`, title: `长文${i}`, url: `https://example.com/long${i}`, body })),
    ...ORDINARY.map((a) => ({ ...a, url: `https://example.com/${a.id}` })),
  ];
  store.importDocument(parseDocument(JSON.stringify(articles)), "init");
  await store.indexed();
  store.close();
  say(`ranking-flood: 40 articles of ${Buffer.byteLength(body)} bytes of body (${body.length} characters) and ${ORDINARY.length} ordinary ones; ${BIN}`);

  const p0 = port();
  const url = `http://127.0.0.1:${p0}`;
  server = spawn(["taskset", "-c", "0", BIN, "serve", "--data", dataDir, "--host", "127.0.0.1", "--port", String(p0)], {
    env: { PATH: process.env.PATH ?? "", REPLYD_APPKEY: KEY.appkey, REPLYD_SECRET: KEY.secret, REPLYD_WX_TOKEN: TOKEN },
    stdout: Bun.file(join(tmp, "replyd.log")),
    stderr: "inherit",
  });
  await waitHealthy(`${url}/healthz`, 30_000);
  const client = clientFor(url, tmp);
  const searchCounts = async () => (await client.call<{ search: { busy: number; late: number; skipped: number } }>({ method: "GET", path: "/api/cli" })).search;

  // The crafted question alone, one at a time: what it costs the worker (the reply's time, loopback).
  const alone: number[] = [];
  for (let i = 0; i < 30; i++) alone.push((await ask(url, CRAFTED, "o_alone")).ms);
  const ordinary: number[] = [];
  for (let i = 0; i < 30; i++) ordinary.push((await ask(url, (PROBES[i % PROBES.length] as (typeof PROBES)[number]).q, "o_alone")).ms);
  say(`  alone: the crafted question p50 ${pct(alone, 50)} ms, an ordinary one p50 ${pct(ordinary, 50)} ms`);

  const floodFile = join(tmp, "flood.txt");
  writeFileSync(floodFile, CRAFTED + "\n");
  const runs = [];
  for (const followers of FOLLOWERS)
    for (const connections of CONNECTIONS) {
      const before = await searchCounts();
      const env = { ...process.env, BENCH_TOKEN: TOKEN, WX_SIGN_LUA: join(ROOT, "bench/wxsign.lua"), FLOOD_FILE: floodFile, FLOOD_FOLLOWERS: String(followers) };
      const wrk = spawn(["taskset", "-c", "1", "wrk", "-t", "1", "-c", String(connections), "-d", `${DURATION}s`, "--timeout", "10s", "--latency", "-s", join(ROOT, "bench/flood.lua"), url], { env, stdout: "pipe", stderr: "pipe" });
      await Bun.sleep(1000);
      const probed = await probe(url, Date.now() + (DURATION - 2) * 1000);
      const f = parseWrk(await new Response(wrk.stdout as ReadableStream).text());
      await wrk.exited;
      const after = await searchCounts();
      const row = {
        connections,
        followers,
        flood: { rps: f.rps, p50_ms: f.p50_ms, p99_ms: f.p99_ms, non2xx: f.non2xx, errors: f.socketErrors },
        probe: probed,
        search: { busy: after.busy - before.busy, late: after.late - before.late, skipped: after.skipped - before.skipped },
      };
      runs.push(row);
      say(`  ${connections} connections from ${followers} follower(s): flood ${f.rps}/s p50 ${f.p50_ms} p99 ${f.p99_ms} ms; probe p50 ${probed.p50_ms} p99 ${probed.p99_ms} max ${probed.max_ms} ms, ${probed.ranked_answers}/${probed.requests} ranked; busy ${row.search.busy} late ${row.search.late} skipped ${row.search.skipped}`);
      await Bun.sleep(2500); // what is still queued runs out before the next run
    }
  const result = { when: new Date().toISOString(), bin: BIN, duration_s: DURATION, body_bytes: Buffer.byteLength(body), alone: { crafted_p50_ms: pct(alone, 50), crafted_p99_ms: pct(alone, 99), ordinary_p50_ms: pct(ordinary, 50) }, runs };
  console.log(JSON.stringify(result, null, 2));
} finally {
  server?.kill("SIGTERM");
  await server?.exited;
  rmSync(tmp, { recursive: true, force: true });
}
