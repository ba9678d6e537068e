/**
 * The cost of many accounts in one process (issue 36 B): dist/replyd with N accounts (default
 * 100) of M articles each (default 100), on SQLite —
 *   - start: exec → first /healthz 200 (every account's store opened before it listens), median of 3;
 *   - RSS: idle after start, and idle again after every account answered one question (which starts
 *     whatever each account starts when first needed: its search worker, its log writer);
 *   - a follower's reply time (p50, p99) with the load spread over every account, against one
 *     account alone (a server without [accounts], the same articles) under the same load:
 *     C concurrent followers for D seconds each, the two servers measured in turn, R rounds, medians.
 *
 *   bun bench/accounts.ts [--accounts 100] [--articles 100] [--duration 5] [--connections 16] [--rounds 2]
 *   ./scripts/bench --only accounts
 */
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "../src/cli/client.ts";
import { silentIO } from "../src/cli/io.ts";
import { wxSignature } from "../src/wechat/door/crypto.ts";
import { articles, BIN, KEY, median, port, procMb, spawn, TOKEN, waitHealthy } from "./servers.ts";

export interface AccountsBenchOptions {
  accounts: number;
  articles: number;
  durationS: number;
  connections: number;
  rounds: number;
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return +(s[Math.min(s.length - 1, Math.floor((s.length * p) / 100))] ?? 0).toFixed(2);
};
const names = (n: number) => Array.from({ length: n }, (_, i) => `a${String(i).padStart(3, "0")}`);

function serve(dir: string, config: string) {
  const p0 = port();
  const p = spawn([BIN, "serve", "--config", config, "--data", join(dir, "data"), "--host", "127.0.0.1", "--port", String(p0), "--window", "300"], {
    env: { PATH: process.env.PATH ?? "", TMPDIR: process.env.TMPDIR ?? "/tmp", REPLYD_APPKEY: KEY.appkey, REPLYD_SECRET: KEY.secret },
    stdout: "ignore",
    // Its one line is the environment key's notice, at every start.
    stderr: "ignore",
  });
  return { p, url: `http://127.0.0.1:${p0}` };
}

async function started(dir: string, config: string) {
  const t0 = performance.now();
  const s = serve(dir, config);
  await waitHealthy(`${s.url}/healthz`, 60_000);
  return { ...s, ms: performance.now() - t0 };
}

async function stop(s: { p: ReturnType<typeof spawn> }) {
  s.p.kill("SIGTERM");
  await s.p.exited;
}

let nonce = 0;
/** One follower question to `path`; answers its time in ms. */
async function ask(url: string, path: string, question: string): Promise<number> {
  const ts = String(Math.floor(Date.now() / 1000));
  const n = `b${process.pid}x${++nonce}`;
  const body = `<xml><ToUserName><![CDATA[gh_bench]]></ToUserName><FromUserName><![CDATA[o_${nonce % 500}]]></FromUserName><CreateTime>${ts}</CreateTime><MsgType><![CDATA[text]]></MsgType><Content><![CDATA[${question}]]></Content><MsgId>${nonce}</MsgId></xml>`;
  const t0 = performance.now();
  const res = await fetch(`${url}${path}?signature=${wxSignature(TOKEN, ts, n)}&timestamp=${ts}&nonce=${n}`, { method: "POST", body });
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`${path} answered ${res.status}`);
  return performance.now() - t0;
}

/** `connections` followers asking for `durationS`, each question to one of `paths` in turn. */
async function load(url: string, paths: string[], o: AccountsBenchOptions): Promise<number[]> {
  const times: number[] = [];
  const until = Date.now() + o.durationS * 1000;
  let next = 0;
  await Promise.all(
    Array.from({ length: o.connections }, async () => {
      while (Date.now() < until) {
        const i = next++;
        times.push(await ask(url, paths[i % paths.length] as string, `Article number ${(i * 37) % o.articles} topic ${i % 97}`));
      }
    }),
  );
  return times;
}

export async function accountsBench(o: AccountsBenchOptions, say: (line: string) => void) {
  const tmp = mkdtempSync(join(tmpdir(), "replyd-bench-accounts-"));
  try {
    const list = names(o.accounts);
    const many = join(tmp, "many.toml");
    writeFileSync(many, list.map((n) => `[accounts.${n}]\nwx-token = "${TOKEN}"\n`).join("\n"));
    chmodSync(many, 0o600);
    const one = join(tmp, "one.toml");
    writeFileSync(one, `wx-token = "${TOKEN}"\n`);
    chmodSync(one, 0o600);
    const bytes = new TextEncoder().encode(JSON.stringify(articles(o.articles)));
    const manyDir = join(tmp, "many");
    const oneDir = join(tmp, "one");
    mkdirSync(manyDir);
    mkdirSync(oneDir);

    // Seeded once: every account its articles, through the admin API as an operator would.
    let s = await started(manyDir, many);
    for (const name of list)
      await new Client({ url: s.url, ...KEY, account: name }, silentIO(tmp)).call({ method: "POST", path: "/api/cli", fields: [["mode", "init"]], files: [{ name: "json", filename: "a.json", bytes }] });
    await stop(s);
    const one0 = await started(oneDir, one);
    await new Client({ url: one0.url, ...KEY }, silentIO(tmp)).call({ method: "POST", path: "/api/cli", fields: [["mode", "init"]], files: [{ name: "json", filename: "a.json", bytes }] });
    await stop(one0);

    const starts: number[] = [];
    for (let i = 0; i < 3; i++) {
      s = await started(manyDir, many);
      starts.push(s.ms);
      if (i < 2) await stop(s);
    }
    await Bun.sleep(2000);
    const idleStartMb = procMb(s.p.pid, "VmRSS");
    for (const name of list) await ask(s.url, `/wechat/${name}`, "Article number 1");
    await Bun.sleep(2000);
    const idleWarmMb = procMb(s.p.pid, "VmRSS");
    const threads = Number(/Threads:\s+(\d+)/.exec(await Bun.file(`/proc/${s.p.pid}/status`).text())?.[1] ?? 0);
    say(`accounts: ${o.accounts} × ${o.articles} articles: start ${median(starts).toFixed(0)} ms (median of 3); idle RSS ${idleStartMb.toFixed(0)} MB after start, ${idleWarmMb.toFixed(0)} MB once every account answered; ${threads} threads`);

    const single = await started(oneDir, one);
    const manyPaths = list.map((n) => `/wechat/${n}`);
    // Warm both (JIT, caches) before measuring.
    await load(s.url, manyPaths, { ...o, durationS: 1 });
    await load(single.url, ["/wechat"], { ...o, durationS: 1 });
    const rounds: { many: { p50: number; p99: number; n: number }; one: { p50: number; p99: number; n: number } }[] = [];
    for (let r = 0; r < o.rounds; r++) {
      const m = await load(s.url, manyPaths, o);
      const a = await load(single.url, ["/wechat"], o);
      rounds.push({ many: { p50: pct(m, 50), p99: pct(m, 99), n: m.length }, one: { p50: pct(a, 50), p99: pct(a, 99), n: a.length } });
    }
    await stop(single);
    await stop(s);
    const p99Many = median(rounds.map((r) => r.many.p99));
    const p99One = median(rounds.map((r) => r.one.p99));
    const ratio = +(p99Many / p99One).toFixed(2);
    say(`accounts: reply p99 ${p99Many} ms spread over ${o.accounts} accounts vs ${p99One} ms one account alone (${ratio}×; p50 ${median(rounds.map((r) => r.many.p50))} vs ${median(rounds.map((r) => r.one.p50))} ms; ${o.connections} followers, ${o.durationS} s × ${o.rounds} rounds each)`);
    return {
      accounts: o.accounts,
      articles_each: o.articles,
      start_ms: +median(starts).toFixed(0),
      start_samples_ms: starts.map((x) => Math.round(x)),
      idle_rss_mb_after_start: +idleStartMb.toFixed(0),
      idle_rss_mb_every_account_answered: +idleWarmMb.toFixed(0),
      threads,
      reply_p99_ms: { spread: p99Many, one_account: p99One, ratio },
      rounds,
      goals: { start_ms: 5000, idle_rss_mb: 400, p99_ratio: 1.2 },
    };
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  const args = process.argv.slice(2);
  const opt = (name: string, fallback: string) => Number(args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
  const result = await accountsBench(
    { accounts: opt("--accounts", "100"), articles: opt("--articles", "100"), durationS: opt("--duration", "5"), connections: opt("--connections", "16"), rounds: opt("--rounds", "2") },
    console.log,
  );
  console.log(JSON.stringify(result, null, 2));
}
