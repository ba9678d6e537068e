/** What dist/replyd leaves in its data folder: the lock and the pid the owner's alone, no lock journal, the pid gone after a clean stop. */
import { expect, test } from "bun:test";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { tempDir } from "./helpers.ts";

const BIN = join(resolve(import.meta.dir, ".."), "dist", "replyd");

test("serve.lock and serve.pid are 0600, the lock keeps no journal, and a clean stop removes serve.pid", async () => {
  const tmp = tempDir("replyd-folder-");
  try {
    const data = join(tmp.dir, "data");
    const p = Bun.spawn([BIN, "serve", "--data", data, "--host", "127.0.0.1", "--port", "0"], { env: { PATH: process.env.PATH ?? "" }, stdout: "pipe", stderr: "pipe" });
    let out = "";
    void (async () => {
      for await (const c of p.stdout as unknown as AsyncIterable<Uint8Array>) out += new TextDecoder().decode(c);
    })();
    for (const end = Date.now() + 15_000; !out.includes('"event":"listening"'); await Bun.sleep(20)) if (Date.now() > end) throw new Error(`no server: ${out}`);
    expect(statSync(join(data, "serve.lock")).mode & 0o777).toBe(0o600);
    expect(statSync(join(data, "serve.pid")).mode & 0o777).toBe(0o600);
    expect(readdirSync(data).filter((f) => f.startsWith("serve.lock-"))).toEqual([]);
    p.kill("SIGTERM");
    expect(await p.exited).toBe(0);
    expect(existsSync(join(data, "serve.pid"))).toBe(false);
    expect(existsSync(join(data, "serve.lock"))).toBe(true);
  } finally {
    tmp.cleanup();
  }
});
