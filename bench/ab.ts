/**
 * Two builds of replyd side by side, in one run (a change's A/B): follower replies (the reply
 * workload of bench/run.ts, every request signed afresh) and a bulk import through the client, the
 * builds taking turns A B A B … so the machine's drift falls on both alike. Medians, and B/A.
 *
 *   bun bench/ab.ts --a /path/to/old/replyd --b dist/replyd [--rounds 5] [--duration 8] [--warmup 3] [--bulk 100000] [--bulk-rounds 3] [--pin] [--postgres]
 *                   [--cluster] [--a-args "…"] [--b-args "…"]
 *
 * --a-args / --b-args: more `serve` flags for one side's reply server (the same build with and
 * without a setting: --a dist/replyd --b dist/replyd --b-args "--ai-url http://127.0.0.1:9/v1 --ai-model m").
 *
 * With --postgres, the bulk imports are made with the data in PostgreSQL (a throwaway cluster, a
 * database per import) instead of a data folder. With --cluster, each build's reply server runs as
 * one of a cluster: on a database of its own and a Redis of its own (serve --db … --redis …), so
 * every reply pays the shared dedupe's round trip.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { startPostgres, type Postgres } from "../test/pg.ts";
import { startRedis, type Redis } from "../test/redis.ts";
import { articles, clientFor, median, ROOT, freshDatabase, signedPool as signedPoolIn, startReplyd, waitHealthy, type StoreArgs } from "./servers.ts";
import { parseWrk } from "./wrk.ts";

const args = process.argv.slice(2);
const opt = (name: string, fallback: string) => (args.includes(name) ? (args[args.indexOf(name) + 1] as string) : fallback);
const BUILDS = { A: resolve(opt("--a", "")), B: resolve(opt("--b", join(ROOT, "dist/replyd"))) };
if (!opt("--a", "")) throw new Error("--a names the build to compare against (a dist/replyd of the base commit)");
const ROUNDS = Number(opt("--rounds", "5"));
const DURATION = Number(opt("--duration", "8"));
const WARMUP = Number(opt("--warmup", "3"));
const BULK = Number(opt("--bulk", "100000"));
const BULK_ROUNDS = Number(opt("--bulk-rounds", String(Math.max(2, Math.ceil(ROUNDS / 2)))));
const PIN = args.includes("--pin");
const SERVE_ARGS: Record<string, string[]> = { A: opt("--a-args", "").split(/\s+/).filter(Boolean), B: opt("--b-args", "").split(/\s+/).filter(Boolean) };
const POSTGRES = args.includes("--postgres");
const CLUSTER = args.includes("--cluster");
const redises: Redis[] = [];
let pg: Postgres | null = null;
let databases = 0;
/** Where a bulk import's data goes: a fresh data folder, or a fresh database. */
async function store(): Promise<StoreArgs> {
  if (!POSTGRES) return { kind: "sqlite" };
  pg ??= startPostgres({ durable: true });
  return freshDatabase(pg.url, `ab_${++databases}`);
}
const tmp = mkdtempSync(join(tmpdir(), "replyd-ab-"));

const signedPool = (seconds: number, codes: string) => signedPoolIn(tmp, seconds, 120_000, codes, PIN ? 1 : 2);

function wrk(url: string, env: Record<string, string>, seconds: number) {
  const p = Bun.spawnSync([...(PIN ? ["taskset", "-c", "1"] : []), "wrk", "-t", PIN ? "1" : "2", "-c", "64", "-d", `${seconds}s`, "--latency", "-s", join(ROOT, "bench/reply.lua"), url], { env: { ...process.env, ...env } });
  return parseWrk(p.stdout.toString());
}

try {
  const corpus = join(tmp, "articles.json");
  writeFileSync(corpus, JSON.stringify(articles(1000)));
  const codes = Array.from({ length: 200 }, (_, i) => `c${(i * 37) % 1000}`).join(",");
  const servers: Record<string, { url: string; p: ReturnType<typeof startReplyd>["p"] }> = {};
  for (const [name, bin] of Object.entries(BUILDS)) {
    const dir = join(tmp, `reply-${name}`);
    mkdirSync(dir);
    let where: StoreArgs = { kind: "sqlite" };
    const cluster: string[] = [];
    if (CLUSTER) {
      pg ??= startPostgres({ durable: true });
      where = await freshDatabase(pg.url, `ab_reply_${name.toLowerCase()}`);
      const redis = await startRedis();
      redises.push(redis);
      cluster.push("--redis", redis.url);
    }
    const s = startReplyd(dir, [...cluster, ...(SERVE_ARGS[name] ?? [])], where, bin);
    await waitHealthy(`${s.url}/healthz`);
    await clientFor(s.url, tmp).call({ method: "POST", path: "/api/cli", fields: [["mode", "init"]], files: [{ name: "json", filename: "a.json", bytes: readFileSync(corpus) }] });
    if (PIN) Bun.spawnSync(["taskset", "-a", "-p", "-c", "0", String(s.p.pid)], { stdout: "ignore" });
    servers[name] = s;
  }
  const rps: Record<string, number[]> = { A: [], B: [] };
  const warm = signedPool(WARMUP, codes);
  for (const s of Object.values(servers)) wrk(s.url, warm, WARMUP);
  for (let round = 0; round < ROUNDS; round++) {
    const pool = signedPool(DURATION, codes);
    for (const [name, s] of Object.entries(servers)) {
      const r = wrk(s.url, pool, DURATION);
      if (r.non2xx || r.socketErrors) throw new Error(`${name}: ${r.non2xx} non-2xx, ${r.socketErrors} socket errors`);
      (rps[name] as number[]).push(r.rps);
      process.stderr.write(`reply ${name} round ${round + 1}: ${r.rps.toFixed(0)} req/s\n`);
    }
  }
  for (const s of Object.values(servers)) s.p.kill("SIGTERM");

  // Bulk: an import of BULK articles (init) into an empty server, taking turns.
  const doc = join(tmp, "bulk.json");
  writeFileSync(doc, JSON.stringify(articles(BULK)));
  const bytes = readFileSync(doc);
  const bulk: Record<string, number[]> = { A: [], B: [] };
  // --bulk 0: replies only.
  for (let round = 0; round < (BULK ? BULK_ROUNDS : 0); round++)
    for (const [name, bin] of Object.entries(BUILDS)) {
      const dir = join(tmp, `bulk-${name}-${round}`);
      mkdirSync(dir);
      const s = startReplyd(dir, ["--max-upload", "2G"], await store(), bin);
      await waitHealthy(`${s.url}/healthz`);
      const t0 = performance.now();
      await clientFor(s.url, tmp).call({ method: "POST", path: "/api/cli", fields: [["mode", "init"]], files: [{ name: "json", filename: "bulk.json", bytes }] });
      (bulk[name] as number[]).push(performance.now() - t0);
      s.p.kill("SIGTERM");
      await s.p.exited;
      rmSync(dir, { recursive: true, force: true });
      process.stderr.write(`bulk ${name} round ${round + 1}: ${Math.round((bulk[name] as number[]).at(-1) as number)} ms\n`);
    }
  const result = {
    when: new Date().toISOString(),
    builds: BUILDS,
    serve_args: SERVE_ARGS,
    reply_store: CLUSTER ? "postgres+redis" : "sqlite",
    reply_rps: { A: Math.round(median(rps.A as number[])), B: Math.round(median(rps.B as number[])), samples: rps },
    reply_b_over_a: +(median(rps.B as number[]) / median(rps.A as number[])).toFixed(3),
    ...(BULK
      ? {
          bulk_import_ms: { size: BULK, store: POSTGRES ? "postgres" : "sqlite", A: Math.round(median(bulk.A as number[])), B: Math.round(median(bulk.B as number[])), samples: bulk },
          bulk_b_over_a: +(median(bulk.B as number[]) / median(bulk.A as number[])).toFixed(3),
        }
      : {}),
  };
  console.log(JSON.stringify(result, null, 2));
} finally {
  rmSync(tmp, { recursive: true, force: true });
  for (const r of redises) r.stop();
  (pg as Postgres | null)?.stop();
}
