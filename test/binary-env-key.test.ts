/**
 * An admin key dist/replyd takes from its environment (issue 33 F). REPLYD_APPKEY/REPLYD_SECRET are
 * the client's variables too: a server started from an operator's shell took that operator's key,
 * and `replyd keys rm` said "revoked" while the key kept working until a restart. The key is named
 * at start, in the listening line, in health and in `keys ls`; `keys rm` of it fails and changes
 * nothing while the server runs.
 */
import { afterAll, afterEach, beforeAll, beforeEach, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ENVIRONMENT_KEY_FILE } from "../src/store/sqlite/environment-key.ts";
import { BIN, buildIfMissing, runCleanups, spawnServer, type Cleanups } from "./binary-server.ts";
import { tempDir } from "./helpers.ts";

let tmp: ReturnType<typeof tempDir>;
/** The data folder of the test running: each its own. */
let data = "";

beforeAll(() => {
  buildIfMissing();
  tmp = tempDir("replyd-binenv-");
});
beforeEach(() => (data = join(tmp.dir, `data-${crypto.randomUUID()}`)));
const cleanups: Cleanups = [];
afterEach(() => runCleanups(cleanups));
afterAll(() => tmp.cleanup());

const replyd = (args: string[], env: Record<string, string> = {}) => {
  const p = Bun.spawnSync([BIN, ...args], { cwd: tmp.dir, env: { PATH: process.env.PATH ?? "/usr/bin:/bin", ...env } });
  return { code: p.exitCode, out: p.stdout.toString(), err: p.stderr.toString() };
};

/** dist/replyd serve on the data folder, once its listening line is out. */
const start = (env: Record<string, string>) => spawnServer(["--data", data, "--host", "127.0.0.1", "--port", "0"], { cwd: tmp.dir, env, cleanups, ms: 15_000 });

test("a server given the operator's key in its environment names it; keys rm of it fails and changes nothing until the server stops; then it revokes", async () => {
  // The first start makes the key the operator then keeps in their shell.
  const first = await start({});
  const m = /REPLYD_APPKEY=(\S+) REPLYD_SECRET=(\S+)/.exec(first.err()) as RegExpExecArray;
  await first.stop();
  const key = { REPLYD_APPKEY: m[1] as string, REPLYD_SECRET: m[2] as string };
  const stored = readFileSync(join(data, "keys.json"), "utf8");

  // Started again from that shell.
  const server = await start(key);
  try {
    expect(server.err()).toContain(`admin key "${key.REPLYD_APPKEY}" taken from this environment`);
    expect(server.listening.environment_key).toBe(key.REPLYD_APPKEY);

    const ls = replyd(["keys", "ls", "--data", data, "--json"]);
    expect(ls.code).toBe(0);
    expect(JSON.parse(ls.out)).toEqual([
      expect.objectContaining({ appkey: key.REPLYD_APPKEY, scope: "admin", source: "stored" }),
      expect.objectContaining({ appkey: key.REPLYD_APPKEY, scope: "admin", source: "environment", server: expect.stringContaining(`pid ${server.proc.pid}`) }),
    ]);
    expect(replyd(["keys", "ls", "--data", data]).out).toContain(`${key.REPLYD_APPKEY}  admin  from the environment of the server with pid ${server.proc.pid}`);

    const rm = replyd(["keys", "rm", key.REPLYD_APPKEY, "--data", data]);
    expect(rm.code).toBe(1);
    expect(rm.err).toContain(`"${key.REPLYD_APPKEY}" is served from the environment (REPLYD_APPKEY/REPLYD_SECRET) of the server with pid ${server.proc.pid}`);
    expect(rm.err).toContain("stays valid until that server restarts without them, so nothing was removed");
    expect(rm.out + rm.err).not.toContain("revoked");
    expect(JSON.parse(replyd(["keys", "rm", key.REPLYD_APPKEY, "--data", data, "--json"]).out)).toMatchObject({ ok: false, error: { code: "key_from_environment" } });
    expect(readFileSync(join(data, "keys.json"), "utf8")).toBe(stored);

    // Health names it, to the key itself and to any other.
    const client = { REPLYD_URL: server.url, ...key };
    const health = replyd(["health", "--json"], client);
    expect(health.code).toBe(0);
    expect(JSON.parse(health.out)).toMatchObject({ key: { appkey: key.REPLYD_APPKEY, scope: "admin", source: "environment" }, environment_key: key.REPLYD_APPKEY });
    const added = JSON.parse(replyd(["keys", "add", "--scope", "read", "--data", data, "--json"]).out) as { appkey: string; secret: string };
    await Bun.sleep(1100); // keys.json is looked at once a second
    const reader = { REPLYD_URL: server.url, REPLYD_APPKEY: added.appkey, REPLYD_SECRET: added.secret };
    expect(JSON.parse(replyd(["health", "--json"], reader).out)).toMatchObject({ key: { appkey: added.appkey, source: "stored" }, environment_key: key.REPLYD_APPKEY });
    expect(replyd(["health"], reader).out).toContain(`environment key ${key.REPLYD_APPKEY}: the server took it from its environment`);
    // A stored key is revoked as ever.
    expect(replyd(["keys", "rm", added.appkey, "--data", data]).out).toContain(`revoked ${added.appkey}`);

    for (const said of [ls.out, rm.out, rm.err, health.out, server.out()]) expect(said).not.toContain(key.REPLYD_SECRET);
  } finally {
    await server.stop();
  }
  expect(server.proc.exitCode).toBe(0);
  // Stopped: no longer served, and removed from keys.json it is revoked.
  expect(existsSync(join(data, ENVIRONMENT_KEY_FILE))).toBe(false);
  expect(JSON.parse(replyd(["keys", "ls", "--data", data, "--json"]).out)).toEqual([expect.objectContaining({ appkey: key.REPLYD_APPKEY, source: "stored" })]);
  const rm = replyd(["keys", "rm", key.REPLYD_APPKEY, "--data", data]);
  expect({ code: rm.code, out: rm.out.trim() }).toEqual({ code: 0, out: `revoked ${key.REPLYD_APPKEY}` });
});

test("a server killed with -9 leaves its record behind: it names a pid that is gone and is not taken for a running server", async () => {
  const key = { REPLYD_APPKEY: "ops-killed", REPLYD_SECRET: "0123456789abcdef0123" };
  const server = await start(key);
  await server.stop("SIGKILL");
  expect(JSON.parse(readFileSync(join(data, ENVIRONMENT_KEY_FILE), "utf8"))).toMatchObject({ appkey: key.REPLYD_APPKEY, pid: server.proc.pid });
  // The folder holds no keys.json (the key came from the environment): said so, as for any folder without one.
  const ls = replyd(["keys", "ls", "--data", data]);
  expect(ls.code).toBe(1);
  expect(ls.err).toContain("holds no keys.json");
  expect(ls.out + ls.err).not.toContain(`"${key.REPLYD_APPKEY}"`);
  const rm = replyd(["keys", "rm", key.REPLYD_APPKEY, "--data", data, "--json"]);
  expect(rm.code).toBe(1);
  expect(JSON.parse(rm.out)).toMatchObject({ ok: false, error: { code: "no_data" } });
  // The next start without the variables removes it.
  const next = await start({});
  try {
    expect(next.listening.environment_key).toBeUndefined();
    expect(existsSync(join(data, ENVIRONMENT_KEY_FILE))).toBe(false);
  } finally {
    await next.stop();
  }
});
