/**
 * A bounded load soak against dist/replyd on loopback (issue 4): follower messages with retries
 * (wrk), signed admin reads (in-process client loops), one bulk import and one backup in the middle,
 * then SIGTERM with requests in flight. Prints a report; exits non-zero if anything failed.
 *
 *   ./scripts/soak [--duration 60] [--connections 32]
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { Client } from "../src/cli/client.ts";
import { silentIO, type IO } from "../src/cli/io.ts";
import { parseWrk } from "../bench/wrk.ts";
import { wxSignature } from "../src/wechat/door/crypto.ts";

const args = process.argv.slice(2);
const num = (name: string, fallback: number) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : fallback);
const DURATION = num("--duration", 60);
const CONNECTIONS = num("--connections", 32);
if (!(DURATION > 0 && DURATION <= 3600)) throw new Error("--duration is 1–3600 seconds");
const ROOT = resolve(import.meta.dir, "..");
const BIN = join(ROOT, "dist/replyd");
const TOKEN = "soaktoken";
const KEY = { REPLYD_APPKEY: "soak", REPLYD_SECRET: "soak-secret-0123456789abcdef" };
const tmp = mkdtempSync(join(tmpdir(), "replyd-soak-"));
const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) / 1024;
const pct = (xs: number[], p: number) => (xs.length ? ([...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))] as number) : 0);

const server = Bun.spawn([BIN, "serve", "--data", join(tmp, "data"), "--host", "127.0.0.1", "--port", "0", "--wx-token", TOKEN, "--max-upload", "256M"], {
  env: { PATH: process.env.PATH ?? "", ...KEY },
  stdout: "pipe",
  stderr: "inherit",
});
let log = "";
void (async () => {
  for await (const c of server.stdout as unknown as AsyncIterable<Uint8Array>) log = (log + new TextDecoder().decode(c)).slice(-100_000);
})();
const until = Date.now() + 20_000;
while (!/"url":"([^"]+)"/.test(log)) {
  if (Date.now() > until) throw new Error("server did not start");
  await Bun.sleep(20);
}
const url = (/"url":"([^"]+)"/.exec(log) as RegExpExecArray)[1] as string;

const io: IO = silentIO(tmp);
const client = new Client({ url, appkey: KEY.REPLYD_APPKEY, secret: KEY.REPLYD_SECRET }, io);
const articles = (prefix: string, n: number) =>
  Array.from({ length: n }, (_, i) => ({ id: `${prefix}${i}`, code: `${prefix}${i}`, tag: prefix, title: `${prefix} article ${i}`, url: `https://example.com/${prefix}/${i}`, keywords: ["soak"] }));
const upload = (docs: unknown) => ({ name: "json", filename: "d.json", bytes: new TextEncoder().encode(JSON.stringify(docs)) });
await client.call({ method: "POST", path: "/api/cli", fields: [["mode", "init"]], files: [upload(articles("c", 1000))] });

const rssStart = rssMb(server.pid);
const report: Record<string, unknown> = { duration_s: DURATION, connections: CONNECTIONS, machine: `${navigator.hardwareConcurrency} cores` };

// Admin reads: two loops of signed GETs for the whole run.
const adminLatency: number[] = [];
let adminErrors = 0;
let running = true;
const adminLoop = async () => {
  while (running) {
    const t0 = performance.now();
    try {
      await client.call({ method: "GET", path: "/api/cli", ...(adminLatency.length % 2 ? { fields: [["q", "soak"], ["limit", "20"]] } : {}) });
      adminLatency.push(performance.now() - t0);
    } catch {
      adminErrors++;
    }
  }
};
const admins = [adminLoop(), adminLoop()];

// Bulk work in the middle.
const middle = (async () => {
  await Bun.sleep(DURATION * 400);
  const t0 = performance.now();
  const imp = await client.call<{ added: number }>({ method: "POST", path: "/api/cli", files: [upload(articles("m", 5000))] });
  report.import_5000_ms = Math.round(performance.now() - t0);
  report.import_added = imp.added;
  await Bun.sleep(DURATION * 200);
  const t1 = performance.now();
  const b = await client.call<{ id: string; size: number }>({ method: "POST", path: "/api/cli/revert/all" });
  await client.send({ method: "GET", path: "/api/cli/revert/all", fields: [["id", b.id]] });
  report.backup_ms = Math.round(performance.now() - t1);
  report.backup_bytes = b.size;
})();

// Follower messages with wrk, each signed with a nonce of its own (bench/wxsign.lua), in segments.
let wrkOut = "";
const wrkStats = { requests: 0, non2xx: 0, socketErrors: 0, p50: "", p99: "", rps: 0 };
for (let left = DURATION; left > 0; left -= 120) {
  const seconds = Math.min(left, 120);
  const codes = Array.from({ length: 50 }, (_, i) => `c${i * 7}`).concat(["h", "s soak", "hello there"]).join(",");
  const w = Bun.spawn(["wrk", "-t", "2", "-c", String(CONNECTIONS), "-d", `${seconds}s`, "--latency", "-s", join(ROOT, "scripts/soak.lua"), url], {
    env: { ...process.env, SOAK_TOKEN: TOKEN, SOAK_CODES: codes, WX_SIGN_LUA: join(ROOT, "bench/wxsign.lua") },
    stdout: "pipe",
    stderr: "pipe",
  });
  const out = await new Response(w.stdout).text();
  wrkOut += out;
  const r = parseWrk(out);
  wrkStats.requests += r.requests;
  wrkStats.non2xx += r.non2xx;
  wrkStats.socketErrors += r.socketErrors;
  wrkStats.p50 = r.p50;
  wrkStats.p99 = r.p99;
  wrkStats.rps = r.rps;
}
await middle;
running = false;
await Promise.all(admins);
const rssEnd = rssMb(server.pid);

// SIGTERM with requests in flight: each has sent half its body when the signal goes out.
const inFlight = 20;
const ts = String(Math.floor(Date.now() / 1000));
// One signature per message, as the platform sends them.
const q = (i: number) => `signature=${wxSignature(TOKEN, ts, `term${i}`)}&timestamp=${ts}&nonce=term${i}`;
let release!: () => void;
const gate = new Promise<void>((r) => (release = r));
const probes = Array.from({ length: inFlight }, (_, i) => {
  const bytes = new TextEncoder().encode(
    `<xml><ToUserName><![CDATA[gh]]></ToUserName><FromUserName><![CDATA[o_term]]></FromUserName><CreateTime>${ts}</CreateTime><MsgType><![CDATA[text]]></MsgType><Content><![CDATA[c7]]></Content><MsgId>9${String(i).padStart(9, "0")}</MsgId></xml>`,
  );
  return fetch(`${url}/wechat?${q(i)}`, {
    method: "POST",
    headers: { "content-length": String(bytes.length) },
    body: new ReadableStream({
      async start(c) {
        c.enqueue(bytes.subarray(0, 40));
        await gate;
        c.enqueue(bytes.subarray(40));
        c.close();
      },
    }),
    duplex: "half",
  } as RequestInit).then(
    (r) => r.status,
    () => 0,
  );
});
await Bun.sleep(300);
server.kill("SIGTERM");
await Bun.sleep(200);
release();
const statuses = await Promise.all(probes);
const exitCode = await server.exited;

Object.assign(report, {
  callback: { requests: wrkStats.requests, rps: wrkStats.rps, p50: wrkStats.p50, p99: wrkStats.p99, non2xx: wrkStats.non2xx, socket_errors: wrkStats.socketErrors },
  admin_reads: { requests: adminLatency.length, errors: adminErrors, p50_ms: +pct(adminLatency, 50).toFixed(2), p99_ms: +pct(adminLatency, 99).toFixed(2) },
  rss_mb: { start: +rssStart.toFixed(1), end: +rssEnd.toFixed(1) },
  sigterm: { in_flight: inFlight, answered_200: statuses.filter((s) => s === 200).length, exit_code: exitCode },
});
rmSync(tmp, { recursive: true, force: true });
const failed = wrkStats.non2xx > 0 || wrkStats.socketErrors > 0 || adminErrors > 0 || statuses.some((s) => s !== 200) || exitCode !== 0 || report.import_added !== 5000;
console.log(JSON.stringify(report));
if (args.includes("--wrk-output")) console.error(wrkOut);
if (failed) console.error("soak FAILED");
process.exit(failed ? 1 : 0);
