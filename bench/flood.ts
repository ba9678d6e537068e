/**
 * The flood (issue 12 E): at 1M articles, a flood of the costliest follower messages found
 * (bench/flood.lua) while other followers send article codes and a monitor polls /healthz, one
 * request at a time each (bench/probe.lua). Target: their p99 ≤ 100 ms. Loopback only, bounded.
 * The server is pinned to core 0 (its search and regex workers share it), the load to core 1.
 *
 *   ./scripts/flood [--articles 1000000] [--duration 30] [--connections 64] [--bodies]
 *
 * --bodies (issue 29): every article has about 2 KB of Chinese body (sentences of CMRC 2018
 * recombined, bench/answers.ts), and the flood is the costliest questions for the passage index:
 * long ones of the commonest characters and words (every term's list read to its cap), and short
 * common ones.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { Client } from "../src/cli/client.ts";
import { silentIO, type IO } from "../src/cli/io.ts";
import { systemClock } from "../src/base/clock.ts";
import { parseDocument } from "../src/doc/validation.ts";
import { DataFolder } from "../src/store/sqlite/data-folder.ts";
import { parseWrk } from "./wrk.ts";

const args = process.argv.slice(2);
const opt = (name: string, fallback: string) => (args.includes(name) ? (args[args.indexOf(name) + 1] as string) : fallback);
const ARTICLES = Number(opt("--articles", "1000000"));
const DURATION = Number(opt("--duration", "30"));
const CONNECTIONS = Number(opt("--connections", "64"));
const BODIES = args.includes("--bodies");
const ROOT = resolve(import.meta.dir, "..");
const TOKEN = "benchtoken";
const KEY = { appkey: "bench", secret: "bench-secret-0123456789abcdef" };
const TARGET_P99_MS = 100;
const tmp = mkdtempSync(join(tmpdir(), "replyd-flood-"));
const dataDir = join(tmp, "data");
const say = (s: string) => process.stderr.write(s + "\n");

/** The costliest questions found for the passage index: many common terms, each read to its cap; a common word alone. */
const COSTLY_QUESTIONS = [
  "中国的历史上有哪些重要的人物和事件，他们在什么时候发生，在哪里发生，为什么会发生，结果是什么，对后来有什么影响，现在的人是怎么看的",
  "一二三四五六七八九十年月日时分人大小上下中国家会员公司学校地方时间问题",
  "中国",
  "年",
  "the history of the country and its people in the year when it was founded by the first members",
  "s 中国 历史 人物 事件 时间 地点",
];

/** Bodies of about 2 KB: CMRC 2018's sentences (../shared/eval) recombined, deterministically. */
function bodyMaker(): () => string {
  const source = ["dev", "trial"].flatMap((set) => {
    const d = JSON.parse(readFileSync(join(ROOT, `../shared/eval/cmrc2018/cmrc2018_${set}.json`), "utf8")) as { data: { paragraphs: { context: string }[] }[] };
    return d.data.flatMap((a) => a.paragraphs.map((p) => p.context));
  });
  const sentences = source.flatMap((c) => c.split(/(?<=[。！？])/).filter((x) => x.trim()));
  let seed = 12345;
  const rnd = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
  return () => {
    let body = "";
    while (Buffer.byteLength(body) < 2048) body += sentences[Math.floor(rnd() * sentences.length)];
    return body;
  };
}

let server: ReturnType<typeof Bun.spawn> | null = null;
try {
  say(`flood: building ${ARTICLES} articles and their indexes in-process…`);
  mkdirSync(dataDir);
  const store = DataFolder.open(dataDir, { clock: systemClock, keep: 5 });
  const body = BODIES ? bodyMaker() : () => undefined;
  const t0 = performance.now();
  // In slices of 100,000: a million articles with their bodies as one document would be 2 GB of JSON.
  for (let from = 0; from < ARTICLES; from += 100_000) {
    const articles = Array.from({ length: Math.min(100_000, ARTICLES - from) }, (_, j) => {
      const i = from + j;
      return { id: `a${i}`, code: `c${i}`, tag: `t${i % 20}`, title: `Article number ${i}`, description: `About topic ${i % 97}`, url: `https://example.com/articles/${i}`, keywords: ["bench", `k${i % 13}`], body: body() };
    });
    store.importDocument(parseDocument(JSON.stringify(articles)), from === 0 ? "init" : "merge");
  }
  const importMs = performance.now() - t0;
  await store.indexed();
  say(`flood: imported in ${Math.round(importMs / 1000)} s, indexed ${Math.round((performance.now() - t0 - importMs) / 1000)} s after`);
  store.close();

  const port = 18900 + Math.floor(Math.random() * 100);
  const url = `http://127.0.0.1:${port}`;
  server = Bun.spawn(["taskset", "-c", "0", join(ROOT, "dist/replyd"), "serve", "--data", dataDir, "--host", "127.0.0.1", "--port", String(port), "--wx-token", TOKEN], {
    env: { PATH: process.env.PATH ?? "", REPLYD_APPKEY: KEY.appkey, REPLYD_SECRET: KEY.secret },
    stdout: Bun.file(join(tmp, "replyd.log")),
    stderr: "inherit",
  });
  for (let until = Date.now() + 30_000; ; await Bun.sleep(20)) {
    if (await fetch(`${url}/healthz`).then((r) => r.ok, () => false)) break;
    if (Date.now() > until) throw new Error("replyd did not start");
  }
  const io: IO = silentIO(tmp);
  const client = new Client({ url, ...KEY }, io);
  // A catastrophic regex rule, as an operator might write by mistake, beside a legitimate one.
  const rules = [
    { id: "slow", match: "regex", pattern: "^(a+)+$", reply: { type: "text", text: "never" } },
    { id: "order", match: "regex", pattern: "^order\\s*#?\\d{6}$", reply: { type: "text", text: "We have your order number." } },
  ];
  await client.call({ method: "POST", path: "/api/cli", files: [{ name: "json", filename: "rules.json", bytes: new TextEncoder().encode(JSON.stringify({ format: "replyd/1", matter: "rules", rules })) }] });

  const floodFile = join(tmp, "flood.txt");
  if (BODIES) writeFileSync(floodFile, COSTLY_QUESTIONS.join("\n") + "\n");
  const env = { ...process.env, BENCH_TOKEN: TOKEN, PROBE_ARTICLES: String(ARTICLES), WX_SIGN_LUA: join(ROOT, "bench/wxsign.lua"), ...(BODIES ? { FLOOD_FILE: floodFile } : {}) };
  const wrk = (script: string, connections: number, extra: Record<string, string> = {}) =>
    Bun.spawn(["taskset", "-c", "1", "wrk", "-t", "1", "-c", String(connections), "-d", `${DURATION}s`, "--latency", "-s", join(ROOT, "bench", script), url], { env: { ...env, ...extra }, stdout: "pipe", stderr: "pipe" });
  say(`flood: ${CONNECTIONS} connections of costly messages for ${DURATION} s, with a code-reply probe and a /healthz probe…`);
  const flood = wrk("flood.lua", CONNECTIONS);
  await Bun.sleep(500);
  const code = wrk("probe.lua", 1, { PROBE: "code" });
  const healthz = wrk("probe.lua", 1, { PROBE: "healthz" });
  const [floodOut = "", codeOut = "", healthzOut = ""] = await Promise.all([flood, code, healthz].map((p) => new Response(p.stdout).text()));
  const health = await client.call<{ search: unknown; regex_rules_disabled: unknown }>({ method: "GET", path: "/api/cli" });

  // What the server logged as errors during the flood, by kind (first words of the message).
  const logged: Record<string, number> = {};
  for (const line of (await Bun.file(join(tmp, "replyd.log")).text()).split("\n")) {
    if (!line.includes('"level":"error"')) continue;
    const kind = String((JSON.parse(line) as { msg: string }).msg).split(/[:;,]/)[0] as string;
    logged[kind] = (logged[kind] ?? 0) + 1;
  }
  const f = parseWrk(floodOut);
  const c = parseWrk(codeOut);
  const h = parseWrk(healthzOut);
  const result = {
    when: new Date().toISOString(),
    articles: ARTICLES,
    bodies: BODIES,
    duration_s: DURATION,
    flood: { connections: CONNECTIONS, rps: f.rps, p50_ms: f.p50_ms, p99_ms: f.p99_ms, non2xx: f.non2xx, errors: f.socketErrors },
    code_replies: { requests: c.requests, p50_ms: c.p50_ms, p99_ms: c.p99_ms, non2xx: c.non2xx },
    healthz: { requests: h.requests, p50_ms: h.p50_ms, p99_ms: h.p99_ms, non2xx: h.non2xx },
    server_health: { search: health.search, regex_rules_disabled: health.regex_rules_disabled },
    server_errors_logged: logged,
    target_p99_ms: TARGET_P99_MS,
    met: c.p99_ms <= TARGET_P99_MS && h.p99_ms <= TARGET_P99_MS && c.non2xx === 0 && h.non2xx === 0,
  };
  writeFileSync(join(ROOT, BODIES ? "bench/results/flood-bodies.json" : "bench/results/flood.json"), JSON.stringify(result, null, 2) + "\n");
  console.log(JSON.stringify(result, null, 2));
  if (!result.met) process.exitCode = 1;
} finally {
  server?.kill("SIGTERM");
  await server?.exited;
  rmSync(tmp, { recursive: true, force: true });
}
