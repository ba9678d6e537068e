/**
 * The first start's admin key when the first start fails to listen (a port in use, the common
 * case on a laptop): the key is stored before the port is taken, so its secret is shown even so —
 * the next start finds a key and makes none, and would never show it.
 */
import { afterEach, beforeAll, expect, test } from "bun:test";
import { join } from "node:path";
import { tempDir } from "./helpers.ts";
import { BIN, buildIfMissing, runCleanups, spawnServer, type Cleanups } from "./binary-server.ts";

beforeAll(buildIfMissing);
const cleanups: Cleanups = [];
afterEach(() => runCleanups(cleanups));

test("a first start refused its port shows the key it made; the next start, listening, makes none and takes that one", async () => {
  const tmp = tempDir();
  cleanups.push(tmp.cleanup);
  const taken = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("someone else") });
  cleanups.push(() => taken.stop(true));
  const env = { PATH: process.env.PATH ?? "/usr/bin:/bin" };
  const refused = Bun.spawnSync([BIN, "serve", "--host", "127.0.0.1", "--port", String(taken.port), "--data", join(tmp.dir, "data")], { cwd: tmp.dir, env });
  const err = refused.stderr.toString();
  expect(refused.exitCode).not.toBe(0);
  expect(err).toContain(`port ${taken.port} on 127.0.0.1 is already in use`);
  const m = /export REPLYD_URL=(\S+) REPLYD_APPKEY=(\S+) REPLYD_SECRET=(\S+)/.exec(err);
  expect(m?.[1]).toBe(`http://127.0.0.1:${taken.port}`);
  const [appkey, secret] = [m?.[2] as string, m?.[3] as string];
  const stored = (await Bun.file(join(tmp.dir, "data", "keys.json")).json()) as { keys: { appkey: string }[] };
  expect(stored.keys.map((k) => k.appkey)).toEqual([appkey]);

  const server = await spawnServer(["--host", "127.0.0.1", "--port", "0", "--data", join(tmp.dir, "data")], { cwd: tmp.dir, cleanups });
  expect(server.err()).not.toContain("REPLYD_SECRET=");
  const health = Bun.spawnSync([BIN, "health", "--json"], { cwd: tmp.dir, env: { ...env, REPLYD_URL: server.url, REPLYD_APPKEY: appkey, REPLYD_SECRET: secret } });
  expect(health.exitCode).toBe(0);
  expect(JSON.parse(health.stdout.toString()).status).toBe("ok");
});
