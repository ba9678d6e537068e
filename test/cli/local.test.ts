import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { readFileSync, statSync, writeFileSync, chmodSync, mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { run } from "../../src/cli/index.ts";
import { parseKeys, writeKeys } from "../../src/store/keys.ts";
import { ENVIRONMENT_KEY_FILE } from "../../src/store/sqlite/environment-key.ts";
import { startServer } from "../../src/server/serve.ts";
import { captureIO, serveOpts, tempDir } from "../helpers.ts";
import { testDatabase } from "../pg.ts";
import { SQL } from "bun";
import { hostname } from "node:os";
import { CODE } from "../../src/errors.ts";
import { environmentKeysOn } from "../../src/store/postgres/instances.ts";
import { prepareDatabase } from "../../src/store/postgres/connect.ts";

let tmp: ReturnType<typeof tempDir>;
beforeEach(() => (tmp = tempDir()));
afterEach(() => tmp.cleanup());


describe("keys (database, --db)", () => {
  test("add prints a new key once, ls lists without secrets, rm revokes; an empty database gets its schema", async () => {
    const { url, drop } = await testDatabase();
    try {
      const add = captureIO({}, tmp.dir);
      expect(await run(["keys", "add", "--db", url, "--scope", "token", "--note", "crm", "--json"], add)).toBe(0);
      const key = JSON.parse(add.stdout[0] as string);
      expect(key).toMatchObject({ scope: "token", note: "crm" });
      const ls = captureIO({ REPLYD_DB: url }, tmp.dir);
      expect(await run(["keys", "ls"], ls)).toBe(0);
      expect(ls.stdout.join("\n")).toContain(key.appkey);
      expect(ls.stdout.join("\n")).not.toContain(key.secret);
      expect(await run(["keys", "rm", key.appkey, "--db", url], captureIO({}, tmp.dir))).toBe(0);
      const again = captureIO({}, tmp.dir);
      expect(await run(["keys", "rm", key.appkey, "--db", url], again)).toBe(1);
      expect(again.stderr.join("")).toContain("no key");
    } finally {
      await drop();
    }
  });

  test("a key an instance takes from its environment is listed as such, and keys rm of it fails changing nothing until the instance stops", async () => {
    const { url, drop } = await testDatabase();
    const sql = new SQL(url);
    try {
      const env = { REPLYD_APPKEY: "ops-env", REPLYD_SECRET: "0123456789abcdef0123" };
      const server = await startServer({ ...serveOpts(join(tmp.dir, "unused")), db: url, env });
      try {
        // Stored too under that appkey, as the operator's own key was when the issue was found.
        await sql`INSERT INTO admin_keys (appkey, secret, scope) VALUES ('ops-env', 'stored-secret-0123456789', 'admin')`;
        const ls = captureIO({}, tmp.dir);
        expect(await run(["keys", "ls", "--db", url, "--json"], ls)).toBe(0);
        expect(JSON.parse(ls.stdout.join(""))).toEqual([
          expect.objectContaining({ appkey: "ops-env", source: "stored" }),
          expect.objectContaining({ appkey: "ops-env", source: "environment", server: `the server with pid ${process.pid} on ${hostname()}` }),
        ]);
        const rm = captureIO({}, tmp.dir);
        expect(await run(["keys", "rm", "ops-env", "--db", url, "--json"], rm)).toBe(1);
        expect(JSON.parse(rm.stdout.join(""))).toMatchObject({ ok: false, error: { code: CODE.key_from_environment, message: expect.stringContaining("stays valid until that server restarts without them") } });
        expect((await sql`SELECT appkey FROM admin_keys WHERE appkey = 'ops-env'`).length).toBe(1);
      } finally {
        await server.stop();
      }
      const after = captureIO({}, tmp.dir);
      expect(await run(["keys", "rm", "ops-env", "--db", url], after)).toBe(0);
      expect(after.stdout.join("")).toContain("revoked ops-env");
    } finally {
      await sql.close();
      await drop();
    }
  });

  test("keys --db counts an instance's environment key while it is heard of: one on this host whose pid is gone is not", async () => {
    const { url, drop } = await testDatabase();
    const sql = new SQL(url);
    try {
      await prepareDatabase(sql, { now: new Date(), firstKey: false });
      const gone = Bun.spawn(["true"]);
      await gone.exited;
      await sql`INSERT INTO instances (id, host, pid, url, redis, env_appkey) VALUES ('killed', ${hostname()}, ${gone.pid}, null, false, 'ops-killed')`;
      await sql`INSERT INTO instances (id, host, pid, url, redis, env_appkey) VALUES ('elsewhere', 'another-host', 1, null, true, 'ops-elsewhere')`;
      await sql`INSERT INTO instances (id, host, pid, url, redis, env_appkey, seen_at) VALUES ('stale', 'another-host', 2, null, true, 'ops-stale', now() - interval '1 minute')`;
      expect(await environmentKeysOn(sql)).toEqual([{ appkey: "ops-elsewhere", server: "the server with pid 1 on another-host" }]);
      const rm = captureIO({}, tmp.dir);
      expect(await run(["keys", "rm", "ops-killed", "--db", url], rm)).toBe(1);
      expect(rm.stderr.join("")).toContain('no key "ops-killed"');
    } finally {
      await sql.close();
      await drop();
    }
  });

  test("a database that cannot be reached is said in one line, its password never shown", async () => {
    const io = captureIO({}, tmp.dir);
    expect(await run(["keys", "ls", "--db", "postgres://replyd:s3cret-pw@127.0.0.1:9/replyd"], io)).toBe(1);
    const said = io.stderr.join("");
    expect(said).toContain("cannot use the database at postgres://replyd:***@127.0.0.1:9/replyd");
    expect(said).not.toContain("s3cret-pw");
    const bad = captureIO({}, tmp.dir);
    expect(await run(["keys", "ls", "--db", "mysql://x"], bad)).toBe(2);
  });
});

describe("keys (local data folder)", () => {
  test("add prints a new key once, ls lists without secrets, rm revokes; a running server picks changes up", async () => {
    const data = join(tmp.dir, "data");
    const server = await startServer(serveOpts(data));
    try {
      const io = captureIO({}, tmp.dir);
      // A name after add would be dropped (the appkey is made): refused, nothing added.
      const named = captureIO({}, tmp.dir);
      expect(await run(["keys", "add", "ci", "--data", data], named)).toBe(2);
      expect(named.stderr.join("")).toContain('use --note "ci"');
      expect(parseKeys(readFileSync(join(data, "keys.json"), "utf8"))).toHaveLength(1);
      expect(await run(["keys", "add", "--data", data, "--scope", "read", "--note", "ci", "--json"], io)).toBe(0);
      const key = JSON.parse(io.stdout[0] as string);
      expect(key).toMatchObject({ scope: "read", note: "ci" });
      expect(statSync(join(data, "keys.json")).mode & 0o777).toBe(0o600);
      expect(parseKeys(readFileSync(join(data, "keys.json"), "utf8")).map((k) => k.scope)).toEqual(["admin", "read"]);

      const ls = captureIO({}, tmp.dir);
      expect(await run(["keys", "ls", "--data", data], ls)).toBe(0);
      expect(ls.stdout.join("\n")).toContain(key.appkey);
      expect(ls.stdout.join("\n")).not.toContain(key.secret);

      await Bun.sleep(1100); // the server re-reads keys.json at most once a second
      const env = { REPLYD_URL: server.url, REPLYD_APPKEY: key.appkey, REPLYD_SECRET: key.secret };
      expect(await run(["health"], captureIO(env, tmp.dir))).toBe(0);
      const write = captureIO(env, tmp.dir);
      expect(await run(["rm", "x1"], write)).toBe(1);
      expect(write.stderr.join("")).toContain("forbidden");

      expect(await run(["keys", "rm", key.appkey, "--data", data], captureIO({}, tmp.dir))).toBe(0);
      await Bun.sleep(1100);
      const after = captureIO(env, tmp.dir);
      expect(await run(["health"], after)).toBe(1);
      expect(after.stderr.join("")).toContain("unknown_appkey");
    } finally {
      await server.stop();
    }
  });

  test("the server refuses to start when keys.json is readable by others", async () => {
    const data = join(tmp.dir, "data");
    mkdirSync(data);
    writeFileSync(join(data, "keys.json"), JSON.stringify({ keys: [{ appkey: "k1", secret: "0123456789abcdef0", scope: "admin" }] }));
    chmodSync(join(data, "keys.json"), 0o644);
    await expect(startServer(serveOpts(data))).rejects.toThrow(/chmod 600/);
  });

  test("the key a server in this process takes from its environment is named by keys ls; a record with this pid it did not make is a previous run's", async () => {
    const data = join(tmp.dir, "data");
    mkdirSync(data);
    // Left by a run that had this pid (a container's pid 1 after a kill -9): no server of ours.
    writeFileSync(join(data, ENVIRONMENT_KEY_FILE), JSON.stringify({ appkey: "ops-before", pid: process.pid }));
    writeKeys(join(data, "keys.json"), []);
    const before = captureIO({}, tmp.dir);
    expect(await run(["keys", "ls", "--data", data, "--json"], before)).toBe(0);
    expect(JSON.parse(before.stdout.join(""))).toEqual([]);
    const server = await startServer({ ...serveOpts(data), env: { REPLYD_APPKEY: "ops-now", REPLYD_SECRET: "0123456789abcdef0123" } });
    try {
      const ls = captureIO({}, tmp.dir);
      expect(await run(["keys", "ls", "--data", data, "--json"], ls)).toBe(0);
      expect(JSON.parse(ls.stdout.join(""))).toEqual([expect.objectContaining({ appkey: "ops-now", source: "environment" })]);
    } finally {
      await server.stop();
    }
  });

  test("an env key with a short secret is refused at start", async () => {
    await expect(startServer({ ...serveOpts(join(tmp.dir, "d")), env: { REPLYD_APPKEY: "k", REPLYD_SECRET: "short" } })).rejects.toThrow(/at least 16/);
  });
});

describe("sign and restore --id against a running server", () => {
  test("sign --curl prints a command that works; restore --id restores a server backup", async () => {
    const data = join(tmp.dir, "data");
    const server = await startServer({ ...serveOpts(data), env: { REPLYD_APPKEY: "ops", REPLYD_SECRET: "0123456789abcdef0123" } });
    try {
      const env = { REPLYD_URL: server.url, REPLYD_APPKEY: "ops", REPLYD_SECRET: "0123456789abcdef0123" };
      writeFileSync(join(tmp.dir, "a.json"), JSON.stringify([{ id: "a1", code: "c1", title: "One", url: "https://example.com/1" }]));
      const printed = captureIO(env, tmp.dir);
      expect(await run(["sign", "POST", "/api/cli", "mode=merge", "json@a.json", "--curl"], printed)).toBe(0);
      // Async spawn: the server runs in this process and must keep answering while curl waits.
      const curl = Bun.spawn(["sh", "-c", printed.stdout[0] as string], { cwd: tmp.dir, stdout: "pipe" });
      expect(JSON.parse(await new Response(curl.stdout).text())).toMatchObject({ ok: true, data: { added: 1 } });

      const backup = captureIO(env, tmp.dir);
      expect(await run(["backup", "articles", "--json", "-o", "b.json"], backup)).toBe(0);
      const id = JSON.parse(backup.stdout.join("")).id as string;
      expect(await run(["set", "a1", "title=Changed"], captureIO(env, tmp.dir))).toBe(0);
      const restore = captureIO(env, tmp.dir);
      expect(await run(["restore", "--id", id, "--yes"], restore)).toBe(0);
      expect(restore.stdout.join("")).toContain("restored articles");
      const show = captureIO(env, tmp.dir);
      await run(["show", "a1", "--json"], show);
      expect(JSON.parse(show.stdout.join("")).title).toBe("One");
    } finally {
      await server.stop();
    }
  });
});

describe("scripts/replyd", () => {
  test("runs the CLI from source with the pinned Bun", () => {
    const root = resolve(import.meta.dir, "../..");
    const p = Bun.spawnSync(["bash", join(root, "scripts/replyd"), "--version"], { cwd: tmp.dir, env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: process.env.HOME ?? "/root" } });
    expect(p.exitCode).toBe(0);
    const bunVersion = readFileSync(join(root, ".bun-version"), "utf8").trim();
    expect(p.stdout.toString()).toMatch(new RegExp(`^replyd \\d+\\.\\d+\\.\\d+ \\([a-z0-9]+-[a-z0-9]+, commit source; Bun ${bunVersion.replace(/\./g, "\\.")}\\)`));
  });
});
