/**
 * dist/replyd serving on a fresh data folder or PostgreSQL database, on a free loopback port, its
 * admin key taken from its environment: started, waited for until it says it listens, stopped and
 * removed by the caller's cleanups. What the binary tests that drive a server through its own
 * client share (binary-report.test.ts, binary-teach.test.ts).
 */
import { mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { tempDir } from "./helpers.ts";
import { testDatabase } from "./pg.ts";
import { TOKEN } from "./wechat/helpers.ts";

export const BIN = join(resolve(import.meta.dir, ".."), "dist", "replyd");

export interface BinaryServer {
  /** The folder the server and its clients run in. */
  dir: string;
  url: string;
}

export async function startBinaryServer(
  kind: "sqlite" | "postgres",
  o: { prefix: string; admin: { appkey: string; secret: string }; cleanups: (() => Promise<void> | void)[]; args?: string[]; env?: Record<string, string> },
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
  let out = "";
  const p = Bun.spawn([BIN, "serve", ...store, "--host", "127.0.0.1", "--port", "0", "--wx-token", TOKEN, ...(o.args ?? [])], {
    cwd: tmp.dir,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", REPLYD_APPKEY: o.admin.appkey, REPLYD_SECRET: o.admin.secret, ...o.env },
    stdout: "pipe",
    stderr: "pipe",
  });
  o.cleanups.push(async () => {
    if (p.exitCode === null) p.kill("SIGTERM");
    await p.exited;
  });
  void (async () => {
    const d = new TextDecoder();
    for await (const c of p.stdout as unknown as AsyncIterable<Uint8Array>) out += d.decode(c, { stream: true });
  })();
  const until = Date.now() + 30_000;
  while (!out.includes('"event":"listening"')) {
    if (Date.now() > until || p.exitCode !== null) throw new Error(`the server did not start: ${out}`);
    await Bun.sleep(20);
  }
  return { dir: tmp.dir, url: (JSON.parse(out.split("\n").find((l) => l.includes('"event":"listening"')) as string) as { url: string }).url };
}
