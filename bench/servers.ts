/**
 * What every part of the side-by-side benchmark (bench/run.ts) starts and measures servers with:
 * replyd on either store, each child killed when the run ends (failed runs included), and the
 * kernel's figures for a process's memory.
 */
import { closeSync, openSync, readFileSync, writeFileSync, writeSync } from "node:fs";
import { join, resolve } from "node:path";
import { SQL } from "bun";
import { Client } from "../src/cli/client.ts";
import { silentIO, type IO } from "../src/cli/io.ts";
import { wxSignature } from "../src/wechat/door/crypto.ts";

export const ROOT = resolve(import.meta.dir, "..");
export const BIN = join(ROOT, "dist/replyd");
export const TOKEN = "benchtoken";
export const KEY = { appkey: "bench", secret: "bench-secret-0123456789abcdef" };

/** Where a replyd under test keeps its data: a data folder, or a PostgreSQL database (--db). */
export type StoreArgs = { kind: "sqlite" } | { kind: "postgres"; url: string };

/** A new, empty database on a running throwaway PostgreSQL, as a replyd store. */
export async function freshDatabase(pgUrl: string, name: string): Promise<StoreArgs> {
  const admin = new SQL(pgUrl);
  try {
    await admin.unsafe(`CREATE DATABASE ${name}`);
  } finally {
    await admin.close();
  }
  return { kind: "postgres", url: pgUrl.replace(/\/replyd$/, `/${name}`) };
}

export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

/** A /proc/PID/status figure in MB (VmRSS, VmHWM). */
export const procMb = (pid: number, field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) / 1024;

/** A process's CPU time so far, user and system over all its threads, in ms (/proc/PID/stat; the kernel counts in ticks of 1/100 s). */
export function procCpuMs(pid: number): number {
  const fields = (readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1] as string).split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** Resets a process's peak RSS (VmHWM) to its current RSS, so the next peak is that of what follows (Linux ≥ 4.0). */
export function resetPeak(pid: number): void {
  writeFileSync(`/proc/${pid}/clear_refs`, "5");
}

let nextPort = 18400 + Math.floor(Math.random() * 1000);
export const port = () => nextPort++;

/** Every server this run starts: killed when the run ends, failed runs included (none left holding a port or a pipe). */
const children = new Set<{ kill(signal?: number | NodeJS.Signals): void }>();
process.on("exit", () => {
  for (const c of children) c.kill("SIGKILL");
});
export function spawn(cmd: string[], opts: NonNullable<Parameters<typeof Bun.spawn>[1]>) {
  const p = Bun.spawn(cmd, opts);
  children.add(p);
  return p;
}

/** Until `url` answers 2xx (or, with `anyAnswer`, answers at all: the peers answer 404 on /). */
export async function waitHealthy(url: string, ms = 20_000, anyAnswer = false): Promise<void> {
  const until = Date.now() + ms;
  for (;;) {
    try {
      const res = await fetch(url);
      if (res.ok || anyAnswer) return;
    } catch {}
    if (Date.now() > until) throw new Error(`${url} did not come up`);
    await Bun.sleep(5);
  }
}

/** `bin`: another build of replyd (bench/ab.ts compares two). */
export function startReplyd(dir: string, extra: string[] = [], store: StoreArgs = { kind: "sqlite" }, bin = BIN) {
  const p0 = port();
  const where = store.kind === "postgres" ? ["--db", store.url] : ["--data", join(dir, "data")];
  const p = spawn([bin, "serve", ...where, "--host", "127.0.0.1", "--port", String(p0), "--window", "300", ...extra], {
    // The token from the environment, as operators are told to give secrets.
    env: { PATH: process.env.PATH ?? "", TMPDIR: process.env.TMPDIR ?? "/tmp", REPLYD_APPKEY: KEY.appkey, REPLYD_SECRET: KEY.secret, REPLYD_WX_TOKEN: TOKEN },
    stdout: Bun.file(join(dir, `replyd-${p0}.log`)),
    stderr: "inherit",
  });
  return { p, url: `http://127.0.0.1:${p0}` };
}
export type Replyd = ReturnType<typeof startReplyd>;

export function clientFor(url: string, cwd: string) {
  const io: IO = silentIO(cwd);
  return new Client({ url, ...KEY }, io);
}

export const articles = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ id: `a${i}`, code: `c${i}`, tag: `t${i % 20}`, title: `Article number ${i}`, description: `About topic ${i % 97}`, url: `https://example.com/articles/${i}`, keywords: ["bench", `k${i % 13}`] }));

/**
 * Signed callback queries for `seconds` of load at `perSecond`, written ahead (bench/reply.lua says
 * why): fixed-width records, so the script indexes them by offset. Answers reply.lua's environment.
 */
export function signedPool(dir: string, seconds: number, perSecond: number, codes: string, threads: number): Record<string, string> {
  const ts = String(Math.floor(Date.now() / 1000));
  const file = join(dir, `pool-${ts}-${port()}.txt`);
  const fd = openSync(file, "w");
  let chunk = "";
  for (let i = 0; i < Math.ceil((seconds + 2) * perSecond); i++) {
    const nonce = String(i).padStart(12, "0");
    chunk += `/wechat?signature=${wxSignature(TOKEN, ts, nonce)}&timestamp=${ts}&nonce=${nonce}\n`;
    if (chunk.length > 1 << 20) {
      writeSync(fd, chunk);
      chunk = "";
    }
  }
  writeSync(fd, chunk);
  closeSync(fd);
  return { BENCH_POOL: file, BENCH_THREADS: String(threads), BENCH_TS: ts, BENCH_CODES: codes, WX_SIGN_LUA: join(ROOT, "bench/wxsign.lua") };
}
