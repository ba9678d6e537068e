/**
 * dist/replyd serve started by a binary test: spawned, its stdout and stderr collected for as long
 * as it runs, waited for until its listening line is out, stopped by the caller's cleanups. Every
 * binary test that needs a running server starts it here; a start that must be refused (exit code
 * and words) is a plain spawnSync and not here. Every binary test finds dist/replyd here too (BIN,
 * buildIfMissing).
 */
import { existsSync, mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Subprocess } from "bun";
import { tempDir } from "./helpers.ts";
import { testDatabase } from "./pg.ts";
import { TOKEN } from "./wechat/helpers.ts";

const ROOT = resolve(import.meta.dir, "..");
export const BIN = join(ROOT, "dist", "replyd");

/**
 * Builds dist/replyd with scripts/build when it is missing: a test file run on its own in a fresh
 * checkout (./scripts/test builds it before any test). Called before a file first runs the binary;
 * a failed build throws there, rather than each test failing on a binary that is not there.
 */
export function buildIfMissing(): void {
  if (existsSync(BIN)) return;
  if (Bun.spawnSync(["bash", join(ROOT, "scripts", "build")], { cwd: ROOT, stderr: "inherit" }).exitCode !== 0) throw new Error("scripts/build failed");
}

/** What a test undoes when it ends, last registered first (runCleanups). */
export type Cleanups = (() => Promise<void> | void)[];

export async function runCleanups(cleanups: Cleanups): Promise<void> {
  for (const c of cleanups.splice(0).reverse()) await c();
}

/** What the server has written so far. */
export interface Said {
  out: string;
  err: string;
}

export interface ServerProcess {
  proc: Subprocess<"ignore", "pipe", "pipe">;
  url: string;
  /** The listening line, parsed. */
  listening: Record<string, unknown>;
  /** Its stdout so far: read again after later events (reloads, the stopped line). */
  out(): string;
  err(): string;
  /** Its exit code, once its stdout and stderr are read to the end. */
  exited: Promise<number>;
  /** Sends the signal and answers the exit code, the output read to the end. */
  stop(signal?: NodeJS.Signals): Promise<number>;
}

/** The first start's notice on stderr (a folder or database without a key): the line to paste is out. */
export const keyPrinted = (said: Said): boolean => said.err.includes("REPLYD_SECRET=");

/** The client's variables from the first start's notice: its URL and the admin key it made. */
export function printedKey(s: ServerProcess): { REPLYD_URL: string; REPLYD_APPKEY: string; REPLYD_SECRET: string } {
  const m = /export REPLYD_URL=(\S+) REPLYD_APPKEY=(\S+) REPLYD_SECRET=(\S+)/.exec(s.err());
  if (!m) throw new Error("the first start did not print the key");
  return { REPLYD_URL: m[1] as string, REPLYD_APPKEY: m[2] as string, REPLYD_SECRET: m[3] as string };
}

/** Output fit for an error message: the first start's secret left out. */
const shown = (said: Said) => `stdout: ${said.out} stderr: ${said.err.replace(/REPLYD_SECRET=\S+/g, "REPLYD_SECRET=…")}`;

/**
 * `dist/replyd serve ...args` in `cwd` (`bin serve ...args` when given: the release's own binary,
 * test/release/), with PATH and `env` its only variables. Answers once its listening line is out
 * and `until` holds of what it has said (the first key's notice, say); throws with its output if it
 * exits or `ms` pass first. Its stop (`stopWith`, SIGTERM unless a test means the kill) is in
 * `cleanups`, a no-op once the test has stopped it.
 */
export async function spawnServer(
  args: string[],
  o: { cwd: string; cleanups: Cleanups; bin?: string; env?: Record<string, string>; until?: (said: Said) => boolean; ms?: number; stopWith?: NodeJS.Signals },
): Promise<ServerProcess> {
  const p = Bun.spawn([o.bin ?? BIN, "serve", ...args], { cwd: o.cwd, env: { PATH: process.env.PATH ?? "/usr/bin:/bin", ...o.env }, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const said: Said = { out: "", err: "" };
  const read = async (stream: ReadableStream<Uint8Array>, into: keyof Said) => {
    const d = new TextDecoder();
    for await (const c of stream as unknown as AsyncIterable<Uint8Array>) said[into] += d.decode(c, { stream: true });
  };
  const exited = Promise.all([read(p.stdout, "out"), read(p.stderr, "err")]).then(() => p.exited);
  const stop = async (signal: NodeJS.Signals = "SIGTERM") => {
    if (p.exitCode === null && p.signalCode === null) p.kill(signal);
    return await exited;
  };
  o.cleanups.push(async () => void (await stop(o.stopWith)));
  // A whole line: the last piece read may end halfway through one.
  const line = () => said.out.split("\n").slice(0, -1).find((l) => l.includes('"event":"listening"'));
  const ms = o.ms ?? 30_000;
  const until = Date.now() + ms;
  while (!line() || !(o.until?.(said) ?? true)) {
    if (p.exitCode !== null || p.signalCode !== null) {
      await exited; // its last words read
      throw new Error(`the server did not start: it exited (${p.exitCode ?? p.signalCode}): ${shown(said)}`);
    }
    if (Date.now() > until) throw new Error(`the server did not start within ${ms} ms: ${shown(said)}`);
    await Bun.sleep(20);
  }
  const listening = JSON.parse(line() as string) as Record<string, unknown>;
  return { proc: p, url: listening.url as string, listening, out: () => said.out, err: () => said.err, exited, stop };
}

export interface BinaryServer {
  /** The folder the server and its clients run in. */
  dir: string;
  url: string;
}

/**
 * dist/replyd on a fresh data folder or PostgreSQL database, on a free loopback port, its admin
 * key taken from its environment; the folder (and database) removed by the caller's cleanups.
 * What the binary tests that drive a server through its own client share (binary-report.test.ts,
 * binary-teach.test.ts).
 */
export async function startBinaryServer(
  kind: "sqlite" | "postgres",
  o: { prefix: string; admin: { appkey: string; secret: string }; cleanups: Cleanups; args?: string[]; env?: Record<string, string> },
): Promise<BinaryServer> {
  const tmp = tempDir(o.prefix);
  o.cleanups.push(tmp.cleanup);
  let store: string[];
  if (kind === "postgres") {
    const db = await testDatabase();
    o.cleanups.push(() => db.drop());
    store = ["--db", db.url];
  } else {
    mkdirSync(join(tmp.dir, "data"), { mode: 0o700 });
    store = ["--data", join(tmp.dir, "data")];
  }
  const s = await spawnServer([...store, "--host", "127.0.0.1", "--port", "0", "--wx-token", TOKEN, ...(o.args ?? [])], {
    cwd: tmp.dir,
    cleanups: o.cleanups,
    env: { REPLYD_APPKEY: o.admin.appkey, REPLYD_SECRET: o.admin.secret, ...o.env },
  });
  return { dir: tmp.dir, url: s.url };
}
