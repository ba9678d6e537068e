/** The checkpoint of a clean stop (store/sqlite/checkpoint.ts), step by step, against readers of the database. */
import { Database } from "bun:sqlite";
import { copyFileSync, existsSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterEach, expect, test } from "bun:test";
import { checkpoint } from "../../src/store/sqlite/checkpoint.ts";
import { tempDir } from "../helpers.ts";

let tmp: ReturnType<typeof tempDir>;
const open: Database[] = [];
let cleanupProcess: ReturnType<typeof Bun.spawn> | null = null;
afterEach(() => {
  if (cleanupProcess?.exitCode === null) cleanupProcess.kill("SIGKILL");
  cleanupProcess = null;
  for (const db of open.splice(0)) db.close();
  tmp.cleanup();
});

/** A WAL database with `rows` rows written, none checkpointed (as a server leaves one). */
function walDatabase(rows: number): { db: Database; path: string } {
  tmp = tempDir();
  const path = join(tmp.dir, "replyd.db");
  const db = new Database(path, { create: true, strict: true });
  open.push(db);
  db.exec("PRAGMA journal_mode = WAL; PRAGMA wal_autocheckpoint = 0; CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)");
  const insert = db.query("INSERT INTO t (v) VALUES (?)");
  for (let i = 0; i < rows; i++) insert.run("x".repeat(200));
  return { db, path };
}

function reader(path: string): Database {
  const r = new Database(path, { readonly: true });
  open.push(r);
  return r;
}

/** The rows the database file holds on its own: copied without its -wal and opened. */
function rowsInFileAlone(path: string): number {
  const copy = join(tmp.dir, "alone.db");
  copyFileSync(path, copy);
  const db = new Database(copy, { readonly: true });
  try {
    return (db.query("SELECT count(*) AS n FROM t").get() as { n: number }).n;
  } finally {
    db.close();
  }
}

test("with no reader: every frame copied and the -wal emptied", () => {
  const { db, path } = walDatabase(500);
  expect(statSync(`${path}-wal`).size).toBeGreaterThan(100_000);
  expect(checkpoint(db, 1000, 100)).toEqual({ complete: true, truncated: true, left: 0 });
  expect(statSync(`${path}-wal`).size).toBe(0);
  expect(rowsInFileAlone(path)).toBe(500);
});

test("a reader of the latest snapshot holding its transaction: every frame copied, the -wal kept for it", () => {
  const { db, path } = walDatabase(500);
  const r = reader(path);
  r.exec("BEGIN");
  expect((r.query("SELECT count(*) AS n FROM t").get() as { n: number }).n).toBe(500);
  const started = performance.now();
  expect(checkpoint(db, 20_000, 100)).toEqual({ complete: true, truncated: false, left: 0 });
  // Only the emptying waited for the reader (0.1 s), not the copy (20 s).
  expect(performance.now() - started).toBeLessThan(10_000);
  expect(rowsInFileAlone(path)).toBe(500);
  r.exec("COMMIT");
});

test("a reader of an older snapshot held past the wait: the pages not copied are counted; once it ends, everything is copied", () => {
  const { db, path } = walDatabase(100);
  const r = reader(path);
  r.exec("BEGIN");
  r.query("SELECT count(*) AS n FROM t").get();
  const insert = db.query("INSERT INTO t (v) VALUES (?)");
  for (let i = 0; i < 400; i++) insert.run("y".repeat(200));
  const held = checkpoint(db, 200, 100);
  expect(held.complete).toBe(false);
  expect(held.left).toBeGreaterThan(0);
  // Released (within the wait of a stop): everything is copied.
  r.exec("COMMIT");
  expect(checkpoint(db, 1000, 100)).toEqual({ complete: true, truncated: true, left: 0 });
  expect(rowsInFileAlone(path)).toBe(500);
});

test("a database not in WAL mode is left as it is", () => {
  tmp = tempDir();
  const db = new Database(join(tmp.dir, "plain.db"), { create: true });
  open.push(db);
  db.exec("CREATE TABLE t (id INTEGER)");
  expect(checkpoint(db, 100, 100)).toEqual({ complete: true, truncated: true, left: 0 });
  expect(existsSync(join(tmp.dir, "plain.db-wal"))).toBe(false);
});

test("another process running a checkpoint at the time: tried again until it is done, then every frame copied", async () => {
  const { db, path } = walDatabase(100);
  const r = reader(path);
  r.exec("BEGIN");
  r.query("SELECT count(*) AS n FROM t").get();
  const insert = db.query("INSERT INTO t (v) VALUES (?)");
  for (let i = 0; i < 100; i++) insert.run("z".repeat(200));
  // Another process's checkpoint, waiting on this reader's older snapshot: it holds the checkpoint lock meanwhile.
  const other = Bun.spawn(
    [
      process.execPath,
      "-e",
      `import { Database } from "bun:sqlite";
       const c = new Database(process.env.DB);
       c.exec("PRAGMA busy_timeout = 20000");
       console.log("checkpointing");
       console.log(JSON.stringify(c.query("PRAGMA wal_checkpoint(FULL)").get()));`,
    ],
    { env: { ...process.env, DB: path }, stdout: "pipe" },
  );
  cleanupProcess = other;
  expect(new TextDecoder().decode((await (other.stdout as ReadableStream<Uint8Array>).getReader().read()).value)).toContain("checkpointing");
  await Bun.sleep(300);
  // Released: the other checkpoint finishes at its next try (SQLite's busy handler sleeps up to 100 ms), this one meanwhile finds the lock taken.
  r.exec("COMMIT");
  expect(checkpoint(db, 10_000, 100)).toEqual({ complete: true, truncated: true, left: 0 });
  expect(rowsInFileAlone(path)).toBe(200);
  expect(await other.exited).toBe(0);
});
