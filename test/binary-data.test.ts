/**
 * dist/replyd and what it keeps of followers (issue 33 F): --log-days kept by the clock at start;
 * replyd.db whole on its own after SIGTERM, with another process reading it; the inbox an admin
 * key's; backup -o FILE checked before the server takes a backup.
 */
import { Database } from "bun:sqlite";
import { afterEach, beforeAll, expect, test } from "bun:test";
import { copyFileSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BIN, buildIfMissing, runCleanups, spawnServer, type Cleanups, type ServerProcess } from "./binary-server.ts";
import { article, doc, tempDir } from "./helpers.ts";
import { textMsg, TOKEN, wxPost } from "./wechat/helpers.ts";

const ADMIN = { appkey: "ops", secret: "ops-secret-0123456789abcdef", scope: "admin" };
const READ = { appkey: "watcher", secret: "watcher-secret-0123456789ab", scope: "read" };
const DAY = 86_400_000;

beforeAll(buildIfMissing);

const cleanups: Cleanups = [];
afterEach(() => runCleanups(cleanups));

/** A data folder with an admin and a read key, no server on it yet. */
function folder(): { dir: string; data: string } {
  const tmp = tempDir("replyd-bindata-");
  cleanups.push(tmp.cleanup);
  const data = join(tmp.dir, "data");
  mkdirSync(data, { mode: 0o700 });
  writeFileSync(join(data, "keys.json"), JSON.stringify({ keys: [ADMIN, READ] }), { mode: 0o600 });
  return { dir: tmp.dir, data };
}

/** The server's last line. */
const stopped = (s: ServerProcess) => JSON.parse(s.out().trim().split("\n").at(-1) as string) as { event: string; database?: string };

/** dist/replyd on the folder; killed (SIGKILL) at cleanup if a test left it running. */
const serve = (where: { dir: string; data: string }, args: string[] = []) =>
  spawnServer(["--data", where.data, "--host", "127.0.0.1", "--port", "0", "--wx-token", TOKEN, ...args], { cwd: where.dir, cleanups, stopWith: "SIGKILL" });

function client(where: { dir: string }, url: string, key: { appkey: string; secret: string }, args: string[]) {
  const p = Bun.spawnSync([BIN, ...args], { cwd: where.dir, env: { PATH: process.env.PATH ?? "/usr/bin:/bin", REPLYD_URL: url, REPLYD_APPKEY: key.appkey, REPLYD_SECRET: key.secret } });
  return { code: p.exitCode, out: p.stdout.toString(), err: p.stderr.toString() };
}

async function message(url: string, text: string, id: string): Promise<void> {
  const now = Math.floor(Date.now() / 1000);
  const signed = new URL(wxPost(textMsg(text, now, id), now).url);
  expect((await fetch(url + signed.pathname + signed.search, { method: "POST", body: textMsg(text, now, id) })).status).toBe(200);
}

/** Every ordinary table's rows, sorted, as text: what a database holds. */
function contents(path: string): Record<string, string[]> {
  const db = new Database(path, { readonly: true });
  try {
    const tables = db.query("SELECT name FROM sqlite_master WHERE type = 'table' AND sql NOT LIKE 'CREATE VIRTUAL%' ORDER BY name").all() as { name: string }[];
    return Object.fromEntries(tables.map(({ name }) => [name, (db.query(`SELECT * FROM "${name}"`).all() as unknown[]).map((r) => JSON.stringify(r)).sort()]));
  } finally {
    db.close();
  }
}

/** Follower messages the database file holds on its own (0: not even the table). */
function messagesIn(path: string): number {
  const db = new Database(path, { readonly: true });
  try {
    return (db.query("SELECT count(*) AS n FROM sqlite_master WHERE name = 'messages'").get() as { n: number }).n
      ? (db.query("SELECT count(*) AS n FROM messages").get() as { n: number }).n
      : 0;
  } finally {
    db.close();
  }
}

/** replyd.db copied without its -wal and -shm, as a backup tool taking the one file would. */
function aloneCopy(data: string): string {
  const copy = join(data, "..", `alone-${Date.now()}.db`);
  copyFileSync(join(data, "replyd.db"), copy);
  return copy;
}

/**
 * Another process reading the database: it opens a read transaction, says "holding", and keeps it
 * until a line arrives on its standard input; then it says how many articles its snapshot held.
 */
async function reader(path: string) {
  const script = `
    import { Database } from "bun:sqlite";
    const db = new Database(process.env.DB, { readonly: true });
    db.exec("BEGIN");
    db.query("SELECT count(*) FROM articles").get();
    console.log("holding");
    for await (const _ of console) break;
    console.log("saw " + db.query("SELECT count(*) AS n FROM articles").get().n);
    db.exec("COMMIT");
    db.close();`;
  const p = Bun.spawn([process.execPath, "-e", script], { env: { ...process.env, DB: path }, stdin: "pipe", stdout: "pipe" });
  cleanups.push(() => void (p.exitCode === null && p.kill("SIGKILL")));
  const lines = (p.stdout as ReadableStream<Uint8Array>).getReader();
  const said = async () => new TextDecoder().decode((await lines.read()).value);
  expect(await said()).toContain("holding");
  return {
    /** Ends the transaction; answers what the reader said of its snapshot. */
    release: async () => {
      const sink = p.stdin as import("bun").FileSink;
      sink.write("release\n");
      await sink.end();
      const saw = await said();
      expect(await p.exited).toBe(0);
      return saw.trim();
    },
  };
}

/** Some writes of every kind: articles (and their index, built), follower messages (the log's writer thread). */
async function write(where: { dir: string }, s: ServerProcess, from: number, n: number): Promise<void> {
  writeFileSync(join(where.dir, `d${from}.json`), doc(Array.from({ length: n }, (_, i) => article(from + i))));
  expect(client(where, s.url, ADMIN, ["import", `d${from}.json`]).code).toBe(0);
  for (let i = 0; i < 3; i++) await message(s.url, `question ${from} ${i}`, String(from * 10 + i));
  // Written once the inbox lists them; the search index is built once health says so.
  expect(JSON.parse(client(where, s.url, ADMIN, ["inbox", "--all", "--json"]).out).total).toBeGreaterThanOrEqual(3);
  for (let i = 0; i < 500 && JSON.parse(client(where, s.url, ADMIN, ["health", "--json"]).out).search_index !== "ready"; i++) await Bun.sleep(20);
}

test("--log-days 1: a ten-day-old message and model call are gone once the binary listens, nothing else logged", async () => {
  const where = folder();
  // The schema, as a first start leaves it; then an entry written ten days ago.
  expect(await (await serve(where)).stop()).toBe(0);
  const db = new Database(join(where.data, "replyd.db"));
  const old = new Date(Date.now() - 10 * DAY).toISOString();
  db.run("INSERT INTO messages (received_at, msg_key, from_user, type, content, answer, unmatched) VALUES (?, 'm:old', 'o_quiet', 'text', '十天前的问题', 'fallback', 1)", [old]);
  db.run("INSERT INTO generated (at, msg_key, openid, question, model, sources, outcome) VALUES (?, 'm:old', 'o_quiet', '十天前的问题', 'm1', '[]', 'failed:timeout')", [old]);
  db.close();
  const s = await serve(where, ["--log-days", "1"]);
  try {
    expect(JSON.parse(client(where, s.url, ADMIN, ["inbox", "--all", "--json"]).out).total).toBe(0);
    expect(JSON.parse(client(where, s.url, ADMIN, ["inbox", "--ai", "--json"]).out).total).toBe(0);
    expect(s.out()).toContain('"event":"log_pruned","log_days":1,"messages":1,"model_calls":1');
  } finally {
    expect(await s.stop()).toBe(0);
  }
}, 60_000);

test("SIGTERM while another process holds a read transaction: replyd.db alone holds every table and row", async () => {
  const where = folder();
  const s = await serve(where);
  await write(where, s, 1, 50);
  // A last message that is in the -wal only (SQLite's own checkpoint may have copied the others): the stop must copy it.
  let logged = 3;
  do {
    await message(s.url, "one more", String(90 + logged));
    expect(JSON.parse(client(where, s.url, ADMIN, ["inbox", "--all", "--json"]).out).total).toBe(++logged);
  } while (messagesIn(aloneCopy(where.data)) === logged && logged < 10);
  expect(messagesIn(aloneCopy(where.data))).toBeLessThan(logged);
  const held = await reader(join(where.data, "replyd.db"));
  expect(await s.stop()).toBe(0);
  expect(stopped(s)).toMatchObject({ database: expect.stringMatching(/^replyd\.db holds everything/) });
  const copy = aloneCopy(where.data);
  expect(await held.release()).toBe("saw 50");
  const whole = contents(join(where.data, "replyd.db"));
  expect(whole.messages).toHaveLength(logged);
  expect(whole.articles).toHaveLength(50);
  expect(contents(copy)).toEqual(whole);
  const check = new Database(copy, { readonly: true });
  expect(check.query("PRAGMA integrity_check").get()).toEqual({ integrity_check: "ok" });
  check.close();
}, 60_000);

test("SIGTERM while a reader holds an older snapshot: the stop waits for it, then replyd.db alone holds everything", async () => {
  const where = folder();
  const s = await serve(where);
  await write(where, s, 1, 20);
  const held = await reader(join(where.data, "replyd.db"));
  // Written after the reader's snapshot: the checkpoint may not copy them while it reads.
  await write(where, s, 100, 30);
  const stopping = s.stop();
  // Well past what a stop takes: it is waiting for the reader, whose snapshot is older than the last writes.
  await Bun.sleep(1000);
  expect(s.proc.exitCode).toBeNull();
  expect(await held.release()).toBe("saw 20");
  expect(await stopping).toBe(0);
  expect(stopped(s)).toMatchObject({ database: "replyd.db holds everything" });
  const whole = contents(join(where.data, "replyd.db"));
  expect(whole.articles).toHaveLength(50);
  expect(contents(aloneCopy(where.data))).toEqual(whole);
}, 60_000);

test("inbox and inbox --ai refuse a read key (forbidden, exit 1) and answer an admin key", async () => {
  const where = folder();
  const s = await serve(where);
  try {
    await message(s.url, "我的订单号是 A-7731", "501");
    for (const args of [["inbox", "--all"], ["inbox"], ["inbox", "--ai"]]) {
      const asReader = client(where, s.url, READ, [...args, "--json"]);
      expect({ args, code: asReader.code, error: JSON.parse(asReader.out || asReader.err).error?.code }).toEqual({ args, code: 1, error: "forbidden" });
      expect(asReader.out + asReader.err).not.toContain("A-7731");
      expect(client(where, s.url, ADMIN, [...args, "--json"]).code).toBe(0);
    }
    expect(client(where, s.url, ADMIN, ["inbox", "--all", "--json"]).out).toContain("A-7731");
    expect(client(where, s.url, READ, ["health"]).code).toBe(0);
  } finally {
    expect(await s.stop()).toBe(0);
  }
}, 60_000);

test("backup -o FILE refused (it exists, it is a folder, its folder is missing) takes no backup on the server", async () => {
  const where = folder();
  const s = await serve(where);
  try {
    const count = () => (JSON.parse(client(where, s.url, ADMIN, ["backups", "all", "--json"]).out) as unknown[]).length;
    writeFileSync(join(where.dir, "there.json"), "");
    mkdirSync(join(where.dir, "out"));
    const before = count();
    for (const target of ["there.json", "out", "missing/b.json"]) {
      const r = client(where, s.url, ADMIN, ["backup", "all", "-o", target]);
      expect({ target, code: r.code, says: r.err.includes("no backup was taken on the server"), taken: count() - before }).toEqual({ target, code: 1, says: true, taken: 0 });
    }
    expect(client(where, s.url, ADMIN, ["backup", "all", "-o", "new.json"]).code).toBe(0);
    expect(count()).toBe(before + 1);
  } finally {
    expect(await s.stop()).toBe(0);
  }
}, 60_000);
