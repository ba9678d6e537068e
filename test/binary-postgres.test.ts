/**
 * `replyd serve --db postgres://…` from the compiled binary: the first start creates the key in the
 * database and prints it once; data written through one server process is there for the next one
 * (nothing on the host: each keeps its read copy in a temporary folder, removed when it stops);
 * the database stopped under a running server: followers are still answered, admin gets 503, and
 * both work again when it is back, nothing restarted.
 */
import { afterAll, afterEach, beforeAll, expect, test } from "bun:test";
import { readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BIN, buildIfMissing, runCleanups, spawnServer, type Cleanups } from "./binary-server.ts";
import { article, doc, tempDir } from "./helpers.ts";
import { binDir, startPostgres, type Postgres } from "./pg.ts";
import { textMsg, TOKEN, wxPost } from "./wechat/helpers.ts";

let pg: Postgres;
let tmp: ReturnType<typeof tempDir>;
beforeAll(() => {
  buildIfMissing();
  pg = startPostgres();
  tmp = tempDir("replyd-bin-pg-");
});
afterAll(() => {
  pg?.stop();
  tmp?.cleanup();
});

const cleanups: Cleanups = [];
afterEach(() => runCleanups(cleanups));

const serve = (store: string[] = ["--db", pg.url], env: Record<string, string> = {}) =>
  spawnServer([...store, "--host", "127.0.0.1", "--port", "0", "--wx-token", TOKEN], { cwd: tmp.dir, env, cleanups });

function client(args: string[], env: Record<string, string>) {
  const p = Bun.spawnSync([BIN, ...args], { cwd: tmp.dir, env: { PATH: process.env.PATH ?? "/usr/bin:/bin", ...env } });
  return { code: p.exitCode, out: p.stdout.toString(), err: p.stderr.toString() };
}

const copies = () => new Set(readdirSync(tmpdir()).filter((n) => n.startsWith("replyd-copy-")));
/** Copies that appeared since `before` (a start also sweeps stale copies other runs left, so counts can drop). */
const newCopies = (before: Set<string>) => [...copies()].filter((n) => !before.has(n));

test("serve --db: the first key once, the data in the database across processes, nothing left on the host", async () => {
  const before = copies();
  const first = await serve();
  const m = /export REPLYD_URL=(\S+) REPLYD_APPKEY=(\S+) REPLYD_SECRET=(\S+)/.exec(first.err());
  expect(m).not.toBeNull();
  expect(first.err()).toContain("in the database at");
  expect(first.out()).not.toContain(m![3] as string);
  const env = { REPLYD_URL: first.url, REPLYD_APPKEY: m![2] as string, REPLYD_SECRET: m![3] as string };
  await Bun.write(join(tmp.dir, "doc.json"), doc([article(1), article(2, { keywords: ["春节"] })], { tags: { news: "News" }, texts: { welcome: "Hello from the database" } }));
  const imported = client(["import", "doc.json", "--json"], env);
  expect(imported.code).toBe(0);
  expect(JSON.parse(imported.out)).toMatchObject({ added: 2 });
  expect(client(["backup", "all"], env).code).toBe(0);
  expect(await first.stop()).toBe(0);

  // A second process: a new read copy, loaded from the database; no new key printed.
  const second = await serve();
  try {
    expect(second.err()).not.toContain("REPLYD_SECRET=");
    const env2 = { ...env, REPLYD_URL: second.url };
    const got = client(["show", "a2", "--json"], env2);
    expect(got.code).toBe(0);
    expect(JSON.parse(got.out)).toMatchObject({ id: "a2", keywords: ["春节"] });
    expect(JSON.parse(client(["backups", "all", "--json"], env2).out)).toHaveLength(1);
    // The callback answers from the copy: the article's code.
    const now = Math.floor(Date.now() / 1000);
    const reply = await fetch(second.url + new URL(wxPost(textMsg("C1", now, "9001"), now).url).pathname + new URL(wxPost(textMsg("C1", now, "9001"), now).url).search, {
      method: "POST",
      body: textMsg("C1", now, "9001"),
    });
    expect(await reply.text()).toContain("Article 1");
  } finally {
    expect(await second.stop()).toBe(0);
  }
  expect(newCopies(before)).toEqual([]);
}, 90_000);

test("serve --db postgres:// takes the connection from PG*, keys --db from DATABASE_URL; the password is never printed", async () => {
  const PASSWORD = "hunter2-from-env";
  // The test cluster trusts loopback, so any password is accepted: enough to see where it goes.
  const pgEnv = { PGHOST: "127.0.0.1", PGPORT: String(pg.port), PGUSER: "postgres", PGDATABASE: "replyd", PGPASSWORD: PASSWORD, REPLYD_APPKEY: "envkey", REPLYD_SECRET: "env-secret-0123456789abcdef" };
  const server = await serve(["--db", "postgres://"], pgEnv);
  try {
    const listening = JSON.parse(server.out().split("\n").find((l) => l.includes('"event":"listening"')) as string) as { db: string };
    expect(listening.db).toBe(`postgres://postgres:***@127.0.0.1:${pg.port}/replyd`);
    const health = client(["health", "--json"], { REPLYD_URL: server.url, REPLYD_APPKEY: pgEnv.REPLYD_APPKEY, REPLYD_SECRET: pgEnv.REPLYD_SECRET });
    expect(health.code).toBe(0);
    expect(JSON.parse(health.out)).toMatchObject({ store: "postgres" });
  } finally {
    expect(await server.stop()).toBe(0);
  }
  expect(server.out() + server.err()).not.toContain(PASSWORD);

  const added = client(["keys", "add", "--db", "postgres://", "--note", "added-via-database-url", "--json"], { DATABASE_URL: pg.url.replace("postgres@", `postgres:${PASSWORD}@`) });
  expect(added.code).toBe(0);
  expect(added.out + added.err).not.toContain(PASSWORD);
  const listed = client(["keys", "ls", "--db", pg.url, "--json"], {});
  expect((JSON.parse(listed.out) as { note: string | null }[]).map((k) => k.note)).toContain("added-via-database-url");
  // A socket folder in PGHOST is refused before anything connects.
  const refused = client(["keys", "ls", "--db", "postgres://"], { PGHOST: "/var/run/postgresql" });
  expect({ code: refused.code, err: refused.err }).toMatchObject({ code: 2, err: expect.stringContaining("socket folder") });
}, 60_000);

test("serve --db with the database stopped under it: followers answered, admin 503, both back without a restart", async () => {
  const server = await serve();
  try {
    const keyLine = client(["keys", "add", "--db", pg.url, "--json"], {});
    const key = JSON.parse(keyLine.out) as { appkey: string; secret: string };
    const env = { REPLYD_URL: server.url, REPLYD_APPKEY: key.appkey, REPLYD_SECRET: key.secret };
    await Bun.sleep(1200); // keys are read again every second
    expect(client(["health"], env).code).toBe(0);
    pg.halt();
    // Within a second or two (the copy follows every second; the keys still fresh), health says the
    // database is down, answering from what the instance holds: nothing it reads from the database fails it.
    let early: Record<string, any> = {};
    for (let i = 0; i < 40 && early.status !== "degraded"; i++) {
      early = JSON.parse(client(["health", "--json"], env).out) as Record<string, any>;
      if (early.status !== "degraded") await Bun.sleep(100);
    }
    expect(early).toMatchObject({ status: "degraded", database: { state: "down", since: expect.any(String), error: expect.any(String) }, newest_backup: null });
    await Bun.sleep(6000); // keys stale past 5 s: admin refused, health readable on the keys last read
    const health = client(["health"], env);
    expect(health.code).toBe(0);
    expect(health.out).toStartWith("degraded — replyd");
    expect(health.out).toMatch(/DATABASE {7}PostgreSQL DOWN since \d{4}-[\d-]+T[\d:.]+Z \(.+\): followers are answered from this instance's copy/);
    expect(health.out).toContain("newest backup  unknown (the database cannot be reached)");
    for (const args of [["ls"], ["inbox"], ["add", "title=During", "url=https://example.com/during"]]) {
      const refused = client(args, env);
      expect({ args, code: refused.code, err: refused.err }).toEqual({ args, code: 1, err: expect.stringContaining("database_unavailable") });
    }
    const now = Math.floor(Date.now() / 1000);
    const msg = textMsg("C2", now, "9101");
    const req = wxPost(msg, now);
    const answered = await fetch(server.url + new URL(req.url).pathname + new URL(req.url).search, { method: "POST", body: msg });
    expect(answered.status).toBe(200);
    expect(await answered.text()).toContain("Article 2");
    pg.resume();
    const until = Date.now() + 20_000;
    const back = () => (JSON.parse(client(["health", "--json"], env).out || "{}") as { status?: string }).status === "ok";
    while (!back()) {
      if (Date.now() > until) throw new Error("admin did not come back");
      await Bun.sleep(500);
    }
    // The message answered while the database was away is in the log now.
    const inbox = JSON.parse(client(["inbox", "--all", "--json"], env).out) as { items: { msg_key: string }[] };
    expect(inbox.items.some((m) => m.msg_key.includes("9101"))).toBe(true);
  } finally {
    await server.stop();
  }
}, 120_000);

test("the database stopped a moment ago (its keys still fresh): every admin request is 503 database_unavailable, never 500", async () => {
  const server = await serve();
  try {
    const key = JSON.parse(client(["keys", "add", "--db", pg.url, "--json"], {}).out) as { appkey: string; secret: string };
    const env = { REPLYD_URL: server.url, REPLYD_APPKEY: key.appkey, REPLYD_SECRET: key.secret };
    await Bun.sleep(1200); // keys are read again every second
    const before = client(["add", "title=Before", "url=https://example.com/before", "--json"], env);
    expect(before.code).toBe(0);
    const id = (JSON.parse(before.out) as { article: { id: string } }).article.id;
    pg.halt();
    try {
      // Within the 5 s the keys stay fresh: the requests reach the database and find it gone.
      for (const args of [["add", "title=During", "url=https://example.com/during"], ["set", id, "title=During"], ["rm", id], ["backup", "texts", "-o", "during.json"], ["backups"]]) {
        const r = client(args, env);
        expect({ args, code: r.code }).toEqual({ args, code: 1 });
        expect(r.err).toContain("database_unavailable");
        expect(r.err).not.toContain("internal");
      }
    } finally {
      pg.resume();
    }
    expect(server.err()).not.toContain("PostgresError");
  } finally {
    await server.stop();
  }
}, 120_000);

test("moving a SQLite deployment to PostgreSQL: a backup of all from the one, restored into the other", async () => {
  const key = { REPLYD_APPKEY: "mover", REPLYD_SECRET: "mover-secret-0123456789" };
  const old = await serve(["--data", join(tmp.dir, "sqlite-data")], key);
  let file: string;
  try {
    const env = { ...key, REPLYD_URL: old.url };
    await Bun.write(join(tmp.dir, "moving.json"), doc([article(31), article(32, { deleted: true })], { texts: { help: "Moved help" }, rules: [{ id: "r1", match: "exact", pattern: "hi", reply: { type: "text", text: "Hi!" } }] }));
    expect(client(["import", "moving.json"], env).code).toBe(0);
    expect(client(["set", "a31", "title=Revised on SQLite"], env).code).toBe(0);
    const b = client(["backup", "all", "--json"], env);
    expect(b.code).toBe(0);
    file = (JSON.parse(b.out) as { file: string }).file;
  } finally {
    await old.stop();
  }
  const next = await serve(["--db", pg.url], key);
  try {
    const env = { ...key, REPLYD_URL: next.url };
    expect(client(["restore", file, "--yes"], env).code).toBe(0);
    const a31 = JSON.parse(client(["show", "a31", "--json"], env).out);
    expect(a31).toMatchObject({ title: "Revised on SQLite", rev: 2 });
    expect(JSON.parse(client(["show", "a32", "--json"], env).out)).toMatchObject({ deleted: true });
    // The restored store backs up to the same articles, rules and texts.
    const again = client(["backup", "all", "--json", "-o", "again.json"], env);
    expect(again.code).toBe(0);
    const [before, after] = [await Bun.file(file).json(), await Bun.file(join(tmp.dir, "again.json")).json()];
    expect(after.articles.filter((a: { id: string }) => a.id.startsWith("a3"))).toEqual(before.articles);
    expect(after.rules).toEqual(before.rules);
    expect(after.texts).toEqual(before.texts);
  } finally {
    await next.stop();
  }
}, 90_000);

test("PostgreSQL's own backup: a pg_dump of replyd's database, pg_restore'd into an empty one, serves the same articles, search, keys and backups", async () => {
  const key = { REPLYD_APPKEY: "dumper", REPLYD_SECRET: "dumper-secret-0123456789" };
  const { SQL } = await import("bun");
  const admin = new SQL(pg.url);
  try {
    await admin.unsafe("CREATE DATABASE dumped");
    await admin.unsafe("CREATE DATABASE undumped");
  } finally {
    await admin.close();
  }
  const from = pg.url.replace(/\/replyd$/, "/dumped");
  const into = pg.url.replace(/\/replyd$/, "/undumped");
  const first = await serve(["--db", from], key);
  let backupId: string;
  try {
    const env = { ...key, REPLYD_URL: first.url };
    await Bun.write(join(tmp.dir, "dumped.json"), doc([article(41), article(42, { title: "搜索 中文标题" })], { texts: { help: "Dumped help" } }));
    expect(client(["import", "dumped.json"], env).code).toBe(0);
    expect(client(["set", "a41", "title=Revised before the dump"], env).code).toBe(0);
    const b = client(["backup", "all", "--json", "-o", "before-dump.json"], env);
    expect(b.code).toBe(0);
    backupId = (JSON.parse(b.out) as { id: string }).id;
    expect(client(["keys", "add", "laptop", "--db", from], {}).err).toContain('use --note "laptop"');
    expect(client(["keys", "add", "--note", "laptop", "--db", from], {}).code).toBe(0);
  } finally {
    await first.stop();
  }
  // As docs/operations.md tells the operator: the custom format, restored into an empty database.
  const bin = binDir();
  const dumpFile = join(tmp.dir, "replyd.dump");
  const dump = Bun.spawnSync([join(bin, "pg_dump"), "-Fc", "-f", dumpFile, "-d", from]);
  expect(dump.stderr.toString()).toBe("");
  expect(dump.exitCode).toBe(0);
  const restore = Bun.spawnSync([join(bin, "pg_restore"), "--no-owner", "-d", into, dumpFile]);
  expect(restore.stderr.toString()).toBe("");
  expect(restore.exitCode).toBe(0);

  const second = await serve(["--db", into], key);
  try {
    const env = { ...key, REPLYD_URL: second.url };
    // Not an empty database: no first key is made.
    expect(second.err()).not.toContain("REPLYD_SECRET=");
    expect(JSON.parse(client(["show", "a41", "--json"], env).out)).toMatchObject({ title: "Revised before the dump", rev: 2 });
    const found = client(["ls", "中文", "--json"], env);
    expect(found.code).toBe(0);
    expect(found.out).toContain('"a42"');
    expect(client(["keys", "ls", "--db", into], {}).out).toContain("laptop");
    // Writes go on from where the dump left the counters.
    expect(client(["set", "a41", "title=Written after the restore"], env).code).toBe(0);
    expect(JSON.parse(client(["show", "a41", "--json"], env).out)).toMatchObject({ title: "Written after the restore", rev: 3 });
    // replyd's own backups came with the dump, and still verify by their sha256 when restored.
    expect(client(["backups", "all", "--json"], env).out).toContain(backupId);
    const back = client(["restore", "--id", backupId, "--yes"], env);
    expect(back.err).toBe("");
    expect(back.code).toBe(0);
    const restored = JSON.parse(client(["show", "a41", "--json"], env).out) as { title: string; rev: number };
    expect(restored.title).toBe("Revised before the dump");
    // A rev is never given twice, across the dump too: a client holding rev 3 cannot overwrite this.
    expect(restored.rev).toBeGreaterThan(3);
  } finally {
    await second.stop();
  }
}, 90_000);

test("--log-days 1 on a database holding a ten-day-old message and model call: both gone once the binary listens", async () => {
  const key = { REPLYD_APPKEY: "pruner", REPLYD_SECRET: "pruner-secret-0123456789" };
  const { SQL } = await import("bun");
  const admin = new SQL(pg.url);
  try {
    await admin.unsafe("CREATE DATABASE quiet");
  } finally {
    await admin.close();
  }
  const url = pg.url.replace(/\/replyd$/, "/quiet");
  // The schema, as a first start leaves it; then an entry written ten days ago.
  expect(await (await serve(["--db", url], key)).stop()).toBe(0);
  const db = new SQL(url);
  const old = new Date(Date.now() - 10 * 86_400_000).toISOString();
  try {
    await db`INSERT INTO messages (received_at, msg_key, from_user, type, content, answer, unmatched) VALUES (${old}, 'm:old', 'o_quiet', 'text', '十天前的问题', 'fallback', true)`;
    await db`INSERT INTO generated (at, msg_key, openid, question, model, sources, outcome) VALUES (${old}, 'm:old', 'o_quiet', '十天前的问题', 'm1', '[]', 'failed:timeout')`;
    const server = await serve(["--db", url, "--log-days", "1"], key);
    try {
      expect(server.out()).toContain('"event":"log_pruned","log_days":1,"messages":1,"model_calls":1');
      const env = { ...key, REPLYD_URL: server.url };
      expect(JSON.parse(client(["inbox", "--all", "--json"], env).out).total).toBe(0);
      expect(JSON.parse(client(["inbox", "--ai", "--json"], env).out).total).toBe(0);
    } finally {
      expect(await server.stop()).toBe(0);
    }
    expect(await db`SELECT count(*)::int AS n FROM messages UNION ALL SELECT count(*)::int FROM generated`).toEqual([{ n: 0 }, { n: 0 }]);
  } finally {
    await db.close();
  }
}, 60_000);
