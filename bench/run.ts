/**
 * The side-by-side benchmark (issue 5). Loopback only, bounded, one machine, one run:
 *   1. follower replies: replyd (on SQLite, and with --db on PostgreSQL: replyd_pg; with --redis as
 *      well: one instance, replyd_redis, and two instances of one cluster loaded together, cluster2) vs node-webot `wechat` on Express 5 (the peer) and on Express 4 (peer4), a Go standard-library server (go) vs a bare Bun.serve (the limit)
 *      vs the floor (bench/floor.ts: the required work, flat, nothing else), each warmed up, then measured in
 *      turn A B C D A B C D …, medians reported;
 *   2. signed admin GET throughput;
 *   3. bulk import (init), backup + download, restore at each size on each store, with server peak RSS
 *      growth, against raw bun:sqlite prepared inserts of the same rows in one transaction (bench/bulk.ts);
 *   4. start-up: exec → first /healthz 200, and `replyd --version`;
 *   5. layouts: one document written compact, as Python's json.dump writes it and with indent=2,
 *      imported through `replyd import` at each --layout-sizes (bench/layouts.ts).
 *   6. answers: followers' questions from ../shared/eval, an English FAQ set and our FAQ accounts through the callback,
 *      and the passage index at each --answer-scale (bench/answers.ts).
 *   7. followups: question + follow-up pairs on the FAQ accounts, each follow-up alone and in its
 *      conversation, in memory and through the callback (bench/followups.ts).
 *
 *   ./scripts/bench [--duration 10] [--warmup 3] [--connections 64] [--rounds 3] [--sizes 10000,100000,1000000] [--layout-sizes 100000,1000000] [--stores sqlite,postgres,cluster] [--only reply,admin,bulk,startup,layouts,answers,followups,generated,accounts] [--answer-sets dev,trial,dureader,nq,en,faq-zh,faq-en,fresh-zh,fresh-en,fresh2-zh,fresh2-en,fresh3-zh,fresh3-en,fresh4-zh,fresh4-en,fresh5-zh,fresh5-en,fresh6-zh,fresh6-en,fresh7-zh,fresh7-en,fresh8-zh,fresh8-en,fresh9-zh,fresh9-en,fresh10-zh,fresh10-en,fresh11-zh,fresh11-en,fresh12-zh,fresh12-en,fresh13-zh,fresh13-en,walk-zh,walk-en] [--answer-scale 10000,30000,100000] [--pin]
 *
 * PostgreSQL runs as a throwaway cluster on loopback with fsync on (test/pg.ts), as production would.
 */
import { closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync, writeSync } from "node:fs";
import { cpus, tmpdir, totalmem } from "node:os";
import { join } from "node:path";
import { canonicalQuery, formatTs, newNonce, signRequest, type Param } from "../src/sign.ts";
import { wxSignature } from "../src/wechat/door/crypto.ts";
import { startPostgres, type Postgres } from "../test/pg.ts";
import { startRedis, type Redis } from "../test/redis.ts";
import { bulkBench, type BulkStore } from "./bulk.ts";
import { layoutsBench } from "./layouts.ts";
import { answersBench } from "./answers.ts";
import { generatedBench } from "./generated.ts";
import { followupsBench } from "./followups.ts";
import { accountsBench } from "./accounts.ts";
import { articles, BIN, clientFor, KEY, median, port, ROOT, freshDatabase, signedPool as signedPoolIn, spawn, startReplyd, TOKEN, waitHealthy, type StoreArgs } from "./servers.ts";
import { parseWrk } from "./wrk.ts";

const args = process.argv.slice(2);
const opt = (name: string, fallback: string) => (args.includes(name) ? (args[args.indexOf(name) + 1] as string) : fallback);
const DURATION = Number(opt("--duration", "10"));
// Seconds of load per reply server before its first measured round (JIT tiers, caches and the retry
// ring filled), the same for all; not recorded.
const WARMUP = Number(opt("--warmup", "3"));
const CONNECTIONS = Number(opt("--connections", "64"));
const ROUNDS = Number(opt("--rounds", "3"));
const SIZES = opt("--sizes", "10000,100000,1000000").split(",").filter(Boolean).map(Number);
const LAYOUT_SIZES = opt("--layout-sizes", "100000,1000000").split(",").filter(Boolean).map(Number);
const ONLY = opt("--only", "reply,admin,bulk,startup,layouts,answers,followups").split(",");
const ANSWER_SETS = opt("--answer-sets", "dev,trial,dureader,nq,en,faq-zh,faq-en,fresh-zh,fresh-en,fresh2-zh,fresh2-en,fresh3-zh,fresh3-en,fresh4-zh,fresh4-en,fresh5-zh,fresh5-en,fresh6-zh,fresh6-en,fresh7-zh,fresh7-en,fresh8-zh,fresh8-en,fresh9-zh,fresh9-en,fresh10-zh,fresh10-en,fresh11-zh,fresh11-en,fresh12-zh,fresh12-en,fresh13-zh,fresh13-en,walk-zh,walk-en").split(",").filter(Boolean);
const ANSWER_SCALE = opt("--answer-scale", "10000,30000,100000").split(",").filter(Boolean).map(Number);
// "cluster": replyd_redis and cluster2 in the reply rotation (needs postgres and redis-server).
const STORES = opt("--stores", "sqlite,postgres,cluster").split(",");
// --pin: every reply server on core 0 (all its threads), wrk on core 1 with one thread — per core, as
// speed is judged; on a 2-core machine the server then never competes with the load generator.
const PIN = args.includes("--pin");
const WRK_THREADS = PIN ? 1 : 2;
/** Signed callback queries written per second of a reply run: above the fastest server's rate. */
const POOL_PER_SECOND = 160_000;
const tmp = mkdtempSync(join(tmpdir(), "replyd-bench-"));
let redis: Redis | null = null;
const redisStop = () => redis?.stop();

/** The PostgreSQL cluster, started on first use; each call an empty database of its own. */
let pg: Postgres | null = null;
function stopPostgres() {
  pg?.stop();
  pg = null;
}
process.on("exit", stopPostgres);
async function newDatabase(name: string): Promise<StoreArgs> {
  pg ??= startPostgres({ durable: true });
  return freshDatabase(pg.url, name);
}

const CLK_TCK = (() => {
  try {
    return Number(Bun.spawnSync(["getconf", "CLK_TCK"]).stdout.toString().trim()) || 100;
  } catch {
    return 100;
  }
})();

/** CPU time (µs) a process has used so far, all its threads (Linux /proc; null elsewhere). */
function cpuOf(pid: number | undefined): { user: number; sys: number } | null {
  if (pid === undefined) return null;
  try {
    // Fields after "pid (comm) ": utime and stime are the 12th and 13th, in clock ticks.
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const f = stat.slice(stat.lastIndexOf(") ") + 2).split(" "); // the name in parentheses may hold spaces
    return { user: (Number(f[11]) * 1e6) / CLK_TCK, sys: (Number(f[12]) * 1e6) / CLK_TCK };
  } catch {
    return null;
  }
}

/**
 * One wrk run. With `serverPid`, also the CPU each request cost: the server's (user and kernel, all
 * its threads) and wrk's own — on a machine the load generator shares, what the server may use is
 * what wrk leaves (docs/performance.md, "CPU per request").
 */
function wrk(url: string, script: string, env: Record<string, string>, seconds = DURATION, connections = CONNECTIONS, serverPid?: number | number[], redisPid?: number) {
  const pids = serverPid === undefined ? [] : Array.isArray(serverPid) ? serverPid : [serverPid];
  const sum = () => {
    const each = pids.map(cpuOf);
    let user = 0;
    let sys = 0;
    for (const c of each) {
      if (!c) return null;
      user += c.user;
      sys += c.sys;
    }
    return each.length ? { user, sys } : null;
  };
  const before = sum();
  const redisBefore = cpuOf(redisPid);
  const p = Bun.spawnSync([...(PIN ? ["taskset", "-c", "1"] : []), "wrk", "-t", String(WRK_THREADS), "-c", String(connections), "-d", `${seconds}s`, "--latency", "-s", join(ROOT, "bench", script), url], { env: { ...process.env, ...env } });
  const after = sum();
  const redisAfter = cpuOf(redisPid);
  const r = parseWrk(p.stdout.toString());
  const per = (us: number) => (r.requests > 0 ? +(us / r.requests).toFixed(2) : NaN);
  const cpu =
    before && after
      ? {
          server_user_us: per(after.user - before.user),
          server_sys_us: per(after.sys - before.sys),
          wrk_us: per(Number(p.resourceUsage.cpuTime.total)),
          ...(redisBefore && redisAfter ? { redis_us: per(redisAfter.user - redisBefore.user + redisAfter.sys - redisBefore.sys) } : {}),
        }
      : null;
  return { rps: r.rps, p50: r.p50_ms, p99: r.p99_ms, non2xx: r.non2xx, errors: r.socketErrors, cpu };
}

const results: Record<string, unknown> = {
  when: new Date().toISOString(),
  machine: { cpus: cpus().length, model: cpus()[0]?.model, memory_gb: Math.round(totalmem() / 2 ** 30), bun: Bun.version, node: Bun.spawnSync(["node", "--version"]).stdout.toString().trim() },
  settings: { duration_s: DURATION, warmup_s: WARMUP, connections: CONNECTIONS, rounds: ROUNDS, wrk_threads: WRK_THREADS, pinned: PIN ? "servers on core 0, wrk on core 1" : false },
};
const table: string[] = [];

try {
  const corpus = articles(1000);
  writeFileSync(join(tmp, "articles.json"), JSON.stringify(corpus));
  const codes = Array.from({ length: 200 }, (_, i) => `c${(i * 37) % 1000}`).join(",");

  const dir = join(tmp, "reply");
  mkdirSync(dir);
  const loaded = async (store: StoreArgs, extra: string[] = []) => {
    const r = startReplyd(dir, extra, store);
    await waitHealthy(`${r.url}/healthz`);
    await clientFor(r.url, tmp).call({ method: "POST", path: "/api/cli", fields: [["mode", "init"]], files: [{ name: "json", filename: "a.json", bytes: readFileSync(join(tmp, "articles.json")) }] });
    return r;
  };
  const replyd = await loaded({ kind: "sqlite" });
  // The same server with its data in PostgreSQL: replies come from its read copy, the log is batched to the database.
  const replydPg = STORES.includes("postgres") && ONLY.includes("reply") ? await loaded(await newDatabase("bench_reply")) : null;
  // The cluster (issue 15): one instance on PostgreSQL + Redis (what the shared dedupe costs), and
  // two on one database and one Redis, loaded together (what a second instance adds on this machine).
  redis = null;
  let replydRedis: Awaited<ReturnType<typeof loaded>> | null = null;
  let cluster: Awaited<ReturnType<typeof loaded>>[] = [];
  if (replydPg && STORES.includes("cluster")) {
    redis = await startRedis();
    replydRedis = await loaded(await newDatabase("bench_redis"), ["--redis", redis.url]);
    const shared = await newDatabase("bench_cluster");
    const first = await loaded(shared, ["--redis", redis.url]);
    const second = startReplyd(dir, ["--redis", redis.url], shared);
    await waitHealthy(`${second.url}/healthz`);
    cluster = [first, second];
  }
  const redisPid = () => redis?.pid;
  const flushRedis = async () => {
    if (!redis) return;
    const { RedisClient } = await import("bun");
    const c = new RedisClient(redis.url);
    await c.send("FLUSHALL", []);
    c.close();
  };

  if (ONLY.includes("reply")) {
    const peerPort = port();
    const peer = spawn(["node", join(ROOT, "bench/peer/server.js"), String(peerPort), TOKEN, join(tmp, "articles.json")], { stdout: "ignore", stderr: "inherit" });
    // The same peer on Express 4, still the most deployed: the same server.js with Express 4's modules.
    const peer4Port = port();
    const peer4 = spawn(["node", join(ROOT, "bench/peer/server.js"), String(peer4Port), TOKEN, join(tmp, "articles.json"), join(ROOT, "bench/peer-express4")], {
      stdout: "ignore",
      stderr: "inherit",
    });
    // The Go peer on one core (GOMAXPROCS=1), as the Node peers and replyd's event loop run.
    const goPort = port();
    const goPeer = spawn([join(ROOT, "bench/peer-go/peer-go"), String(goPort), TOKEN, join(tmp, "articles.json")], {
      env: { ...process.env, GOMAXPROCS: "1" },
      stdout: "ignore",
      stderr: "inherit",
    });
    const limitPort = port();
    const limit = spawn([process.execPath, join(ROOT, "bench/limit.ts"), String(limitPort)], { stdout: "ignore", stderr: "inherit" });
    const floorPort = port();
    const floor = spawn([process.execPath, join(ROOT, "bench/floor.ts"), String(floorPort), TOKEN, join(tmp, "articles.json"), join(tmp, "floor-log.db")], {
      stdout: Bun.file(join(tmp, "floor.log")),
      stderr: "ignore",
    });
    const servers: Record<string, string> = {
      replyd: replyd.url,
      ...(replydPg ? { replyd_pg: replydPg.url } : {}),
      ...(replydRedis ? { replyd_redis: replydRedis.url } : {}),
      ...(cluster.length ? { cluster2: (cluster[0] as { url: string }).url } : {}),
      peer: `http://127.0.0.1:${peerPort}`, peer4: `http://127.0.0.1:${peer4Port}`, go: `http://127.0.0.1:${goPort}`, limit: `http://127.0.0.1:${limitPort}`, floor: `http://127.0.0.1:${floorPort}` };
    for (const url of [servers.peer, servers.peer4, servers.go]) await waitHealthy(`${url}/`, 20_000, true);
    await Bun.sleep(500);
    const pids: Record<string, number | number[]> = {
      replyd: replyd.p.pid,
      ...(replydPg ? { replyd_pg: replydPg.p.pid } : {}),
      ...(replydRedis ? { replyd_redis: replydRedis.p.pid } : {}),
      ...(cluster.length ? { cluster2: cluster.map((c) => c.p.pid) } : {}),
      peer: peer.pid, peer4: peer4.pid, go: goPeer.pid, limit: limit.pid, floor: floor.pid };
    if (PIN) for (const pid of Object.values(pids).flat()) Bun.spawnSync(["taskset", "-a", "-p", "-c", "0", String(pid)], { stdout: "ignore" });
    const samples: Record<string, ReturnType<typeof wrk>[]> = Object.fromEntries(Object.keys(servers).map((k) => [k, []]));
    // Check the peers really answer with news before timing them.
    const ts0 = String(Math.floor(Date.now() / 1000));
    for (const [name, url] of [["peer", servers.peer], ["peer4", servers.peer4], ["go", servers.go]] as const) {
      const probe = await fetch(`${url}/wechat?signature=${wxSignature(TOKEN, ts0, "probe")}&timestamp=${ts0}&nonce=probe`, {
        method: "POST",
        body: `<xml><ToUserName><![CDATA[gh]]></ToUserName><FromUserName><![CDATA[o]]></FromUserName><CreateTime>${ts0}</CreateTime><MsgType><![CDATA[text]]></MsgType><Content><![CDATA[c5]]></Content><MsgId>1</MsgId></xml>`,
      });
      if (!(await probe.text()).includes("news")) throw new Error(`the ${name} does not answer codes with news`);
    }
    // Every request carries a signature of its own, as the platform sends them (replyd lets one
    // signature carry one message). Signed ahead of time into a pool (bench/reply.lua says why); one
    // pool serves one round of every server, each remembering only the signatures it was sent.
    const signedPool = (seconds: number) => signedPoolIn(tmp, seconds, POOL_PER_SECOND, codes, WRK_THREADS);
    if (WARMUP > 0) {
      const pool = signedPool(WARMUP);
      for (const [name, url] of Object.entries(servers)) {
        // Each server of a round is sent the same messages: a Redis-backed one must not find the last one's answers.
        if (name === "replyd_redis" || name === "cluster2") await flushRedis();
        const r = wrk(url, "reply.lua", { ...pool, ...(name === "cluster2" ? { BENCH_ADDRS: cluster.map((c) => c.url.replace("http://", "")).join(",") } : {}) }, WARMUP, CONNECTIONS);
        if (r.non2xx || r.errors || !r.rps) throw new Error(`warm-up of ${name} failed: ${r.non2xx} non-2xx, ${r.errors} errors`);
      }
    }
    for (let round = 0; round < ROUNDS; round++) {
      const pool = signedPool(DURATION);
      for (const [name, url] of Object.entries(servers)) {
        const viaRedis = name === "replyd_redis" || name === "cluster2";
        if (viaRedis) await flushRedis();
        const env = { ...pool, ...(name === "cluster2" ? { BENCH_ADDRS: cluster.map((c) => c.url.replace("http://", "")).join(",") } : {}) };
        const r = wrk(url, "reply.lua", env, DURATION, CONNECTIONS, pids[name], viaRedis ? redisPid() : undefined);
        (samples[name] as ReturnType<typeof wrk>[]).push(r);
        process.stderr.write(`reply ${name} round ${round + 1}: ${r.rps.toFixed(0)} req/s p99 ${r.p99} ms\n`);
      }
    }
    peer.kill();
    peer4.kill();
    goPeer.kill();
    limit.kill();
    floor.kill();
    replydPg?.p.kill("SIGTERM");
    replydRedis?.p.kill("SIGTERM");
    for (const c of cluster) c.p.kill("SIGTERM");
    await Promise.all([replydRedis?.p.exited, ...cluster.map((c) => c.p.exited)]);
    redis?.stop();
    const summary = Object.fromEntries(
      Object.entries(samples).map(([k, v]) => {
        const cpu = v.every((s) => s.cpu)
          ? {
              server_user_us: median(v.map((s) => s.cpu!.server_user_us)),
              server_sys_us: median(v.map((s) => s.cpu!.server_sys_us)),
              wrk_us: median(v.map((s) => s.cpu!.wrk_us)),
              ...(v.every((s) => s.cpu!.redis_us !== undefined) ? { redis_us: median(v.map((s) => s.cpu!.redis_us as number)) } : {}),
            }
          : null;
        return [k, { rps: median(v.map((s) => s.rps)), p50_ms: median(v.map((s) => s.p50)), p99_ms: median(v.map((s) => s.p99)), non2xx: v.reduce((n, s) => n + s.non2xx, 0), errors: v.reduce((n, s) => n + s.errors, 0), samples_rps: v.map((s) => Math.round(s.rps)), cpu_per_request: cpu }];
      }),
    ) as Record<string, { rps: number; p50_ms: number; p99_ms: number; non2xx: number; errors: number; cpu_per_request: { server_user_us: number; server_sys_us: number; wrk_us: number; redis_us?: number } | null }>;
    results.reply = {
      ...summary,
      ratio_replyd_peer: +(summary.replyd!.rps / summary.peer!.rps).toFixed(2),
      ratio_replyd_peer4: +(summary.replyd!.rps / summary.peer4!.rps).toFixed(2),
      ratio_replyd_go: +(summary.replyd!.rps / summary.go!.rps).toFixed(2),
      ratio_replyd_limit: +(summary.replyd!.rps / summary.limit!.rps).toFixed(2),
      ratio_replyd_floor: +(summary.replyd!.rps / summary.floor!.rps).toFixed(2),
      ratio_floor_limit: +(summary.floor!.rps / summary.limit!.rps).toFixed(2),
      ...(summary.replyd_pg ? { ratio_pg_sqlite: +(summary.replyd_pg.rps / summary.replyd!.rps).toFixed(2) } : {}),
      ...(summary.replyd_redis ? { ratio_redis_pg: +(summary.replyd_redis.rps / summary.replyd_pg!.rps).toFixed(2) } : {}),
      ...(summary.cluster2 ? { ratio_cluster2_sqlite: +(summary.cluster2.rps / summary.replyd!.rps).toFixed(2), ratio_cluster2_redis: +(summary.cluster2.rps / summary.replyd_redis!.rps).toFixed(2) } : {}),
    };
    table.push(`reply (code → 1-article news, ${CONNECTIONS} connections, median of ${ROUNDS})`);
    for (const [k, v] of Object.entries(summary)) {
      const c = v.cpu_per_request;
      const cpu = c ? `   CPU/req: server ${c.server_user_us.toFixed(1)} user + ${c.server_sys_us.toFixed(1)} sys µs, wrk ${c.wrk_us.toFixed(1)} µs${c.redis_us !== undefined ? `, redis ${c.redis_us.toFixed(1)} µs` : ""}` : "";
      table.push(`  ${k.padEnd(12)} ${v.rps.toFixed(0).padStart(8)} req/s   p50 ${v.p50_ms.toFixed(2)} ms   p99 ${v.p99_ms.toFixed(2)} ms   non-2xx ${v.non2xx}${cpu}`);
    }
    const ratios = results.reply as Record<`ratio_${string}`, number>;
    table.push(`  replyd/peer ${ratios.ratio_replyd_peer}×   replyd/peer4 ${ratios.ratio_replyd_peer4}×   replyd/go ${ratios.ratio_replyd_go}×   replyd/limit ${ratios.ratio_replyd_limit}×   replyd/floor ${ratios.ratio_replyd_floor}×   floor/limit ${ratios.ratio_floor_limit}×${ratios.ratio_pg_sqlite ? `   replyd_pg/replyd ${ratios.ratio_pg_sqlite}×` : ""}${ratios.ratio_redis_pg ? `   replyd_redis/replyd_pg ${ratios.ratio_redis_pg}×` : ""}${ratios.ratio_cluster2_sqlite ? `   cluster2/replyd ${ratios.ratio_cluster2_sqlite}×   cluster2/replyd_redis ${ratios.ratio_cluster2_redis}×` : ""}`);
  }

  if (ONLY.includes("admin")) {
    // Pre-signed health requests, one nonce each, valid for the whole run (--window 300).
    const n = Math.max(50_000, 40_000 * DURATION);
    const file = join(tmp, "signed.txt");
    const fd = openSync(file, "w");
    const ts = formatTs(Date.now() + 60_000);
    let chunk = "";
    for (let i = 0; i < n; i++) {
      const params: Param[] = [["appkey", KEY.appkey], ["ts", ts], ["nonce", newNonce()]];
      const { sign } = signRequest({ method: "GET", path: "/api/cli", params, secret: KEY.secret });
      chunk += canonicalQuery([...params, ["sign", sign]]) + "\n";
      if (chunk.length > 1 << 20) {
        writeSync(fd, chunk);
        chunk = "";
      }
    }
    writeSync(fd, chunk);
    closeSync(fd);
    const r = wrk(replyd.url, "admin.lua", { BENCH_SIGNED: file }, DURATION, CONNECTIONS, replyd.p.pid);
    const reply = (results.reply as { replyd?: { rps: number } } | undefined)?.replyd?.rps;
    results.admin = { ...r, presigned: n, ratio_to_reply: reply ? +(r.rps / reply).toFixed(2) : null };
    table.push(`signed admin GET /api/cli (health): ${r.rps.toFixed(0)} req/s   p50 ${r.p50.toFixed(2)} ms   p99 ${r.p99.toFixed(2)} ms   non-2xx ${r.non2xx}${reply ? `   (${(r.rps / reply).toFixed(2)}× reply)` : ""}${r.cpu ? `   CPU/req: server ${r.cpu.server_user_us.toFixed(1)} user + ${r.cpu.server_sys_us.toFixed(1)} sys µs, wrk ${r.cpu.wrk_us.toFixed(1)} µs` : ""}`);
  }
  replyd.p.kill("SIGTERM");
  await replyd.p.exited;

  if (ONLY.includes("bulk")) {
    table.push("bulk (wall time; server peak RSS growth, each operation on a freshly started server)");
    const stores: BulkStore[] = [];
    if (STORES.includes("sqlite")) stores.push({ name: "sqlite", prepare: async () => ({ kind: "sqlite" }) });
    if (STORES.includes("postgres")) stores.push({ name: "postgres", prepare: (size) => newDatabase(`bench_bulk_${size}`) });
    results.bulk = await bulkBench(SIZES, stores, tmp, (line) => {
      table.push(line);
      process.stderr.write(line + "\n");
    });
  }

  if (ONLY.includes("layouts")) {
    table.push("layouts (replyd import through the client; medians of --rounds; peak RSS the highest)");
    results.layouts = await layoutsBench(LAYOUT_SIZES, tmp, ROUNDS, (line) => {
      table.push(line);
      process.stderr.write(line + "\n");
    });
  }

  if (ONLY.includes("answers")) {
    table.push("answers (followers' questions through the callback, bench/answers.ts; --answer-sets, --answer-scale in passages)");
    results.answers = await answersBench(ANSWER_SETS, ANSWER_SCALE, (line) => {
      table.push(line);
      process.stderr.write(line + "\n");
    });
  }

  if (ONLY.includes("followups")) {
    table.push("follow-ups (question + follow-up pairs on the FAQ accounts, each follow-up alone and in its conversation, bench/followups.ts)");
    results.followups = await followupsBench((line) => {
      table.push(line);
      process.stderr.write(line + "\n");
    });
  }

  // Not in the default run: a minute of deliveries at the platform's own 5 s pace.
  if (ONLY.includes("generated")) {
    table.push("generated answers (a model taking N ms, the platform's deliveries 5 s apart, bench/generated.ts)");
    results.generated = await generatedBench({ latencies: [500, 3000, 7000, 12000, 20000], questions: 4, overhead: 300 }, (line) => {
      table.push(line);
      process.stderr.write(line + "\n");
    });
  }

  // Not in the default run: a hundred accounts seeded through the admin API, then measured (bench/accounts.ts).
  if (ONLY.includes("accounts")) {
    table.push("accounts (100 accounts × 100 articles in one process vs one account, bench/accounts.ts)");
    results.accounts = await accountsBench({ accounts: 100, articles: 100, durationS: DURATION, connections: 16, rounds: ROUNDS }, (line) => {
      table.push(line);
      process.stderr.write(line + "\n");
    });
  }

  if (ONLY.includes("startup")) {
    const startups: number[] = [];
    const versions: number[] = [];
    for (let i = 0; i < 7; i++) {
      const d = join(tmp, `start-${i}`);
      mkdirSync(d);
      const t0 = performance.now();
      const s = startReplyd(d);
      const url = `${s.url}/healthz`;
      for (;;) {
        try {
          if ((await fetch(url)).ok) break;
        } catch {}
        await Bun.sleep(1);
      }
      startups.push(performance.now() - t0);
      s.p.kill("SIGTERM");
      await s.p.exited;
      const v0 = performance.now();
      Bun.spawnSync([BIN, "--version"]);
      versions.push(performance.now() - v0);
    }
    results.startup = { serve_to_healthz_ms: +median(startups).toFixed(1), version_ms: +median(versions).toFixed(1), samples_ms: startups.map((x) => Math.round(x)) };
    table.push(`start-up: exec → first /healthz 200 ${median(startups).toFixed(0)} ms (median of 7); replyd --version ${median(versions).toFixed(0)} ms`);
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
  stopPostgres();
  redisStop();
}

mkdirSync(join(ROOT, "bench/results"), { recursive: true });
writeFileSync(join(ROOT, "bench/results/latest.json"), JSON.stringify(results, null, 2) + "\n");
console.log(table.join("\n"));
console.log(`\nwritten: bench/results/latest.json`);
