/**
 * Where scripts/crash-test keeps each trial's data, and how it reads what survived a kill -9 without
 * going through the server: SQLite files in a data folder, or a database of its own on a throwaway
 * PostgreSQL cluster (fsync on, as in production).
 */
import { Database } from "bun:sqlite";
import { SQL } from "bun";
import { basename, join } from "node:path";
import { startPostgres, type Postgres } from "../test/pg.ts";

export interface Survivors {
  a: number;
  b: number;
  other: number;
  /** "ok", or what the store's own check found. */
  integrity: string;
}

export interface CrashStore {
  readonly name: "sqlite" | "postgres";
  /** The `serve` arguments that put a trial's data in its place (a folder, or a new database). */
  serveArgs(dir: string): Promise<string[]>;
  /** The live article codes, counted by prefix, read straight from the store. */
  liveCodes(dir: string): Promise<Survivors>;
  /** The msg_key of every logged follower message. */
  loggedKeys(dir: string): Promise<Set<string>>;
  /** Drops a finished trial's data. */
  forget(dir: string): Promise<void>;
  close(): Promise<void>;
}

function count(codes: (string | null)[]): Omit<Survivors, "integrity"> {
  let a = 0, b = 0, other = 0;
  for (const code of codes) code?.startsWith("a") ? a++ : code?.startsWith("b") ? b++ : other++;
  return { a, b, other };
}

export function sqliteCrashStore(): CrashStore {
  // Opening the database recovers its WAL as the next start would.
  const open = (dir: string, readonly: boolean) => new Database(join(dir, "data", "replyd.db"), { readonly });
  return {
    name: "sqlite",
    serveArgs: async (dir) => ["--data", join(dir, "data")],
    async liveCodes(dir) {
      const db = open(dir, true);
      try {
        const rows = db.query("SELECT code FROM articles WHERE deleted = 0").all() as { code: string | null }[];
        const integrity = (db.query("PRAGMA integrity_check").get() as { integrity_check: string }).integrity_check;
        return { ...count(rows.map((r) => r.code)), integrity };
      } finally {
        db.close();
      }
    },
    async loggedKeys(dir) {
      const db = open(dir, false);
      try {
        return new Set((db.query("SELECT msg_key FROM messages").all() as { msg_key: string }[]).map((r) => r.msg_key));
      } finally {
        db.close();
      }
    },
    forget: async () => {},
    close: async () => {},
  };
}

export function postgresCrashStore(): CrashStore {
  const pg: Postgres = startPostgres({ durable: true });
  const admin = new SQL(pg.url);
  const dbName = (dir: string) => `crash_${basename(dir).replace(/[^a-z0-9_]/gi, "_").toLowerCase()}`;
  const created = new Set<string>();
  const urlOf = (dir: string) => pg.url.replace(/\/replyd$/, `/${dbName(dir)}`);
  const read = async <T>(dir: string, f: (sql: SQL) => Promise<T>): Promise<T> => {
    const sql = new SQL(urlOf(dir));
    try {
      return await f(sql);
    } finally {
      await sql.close();
    }
  };
  return {
    name: "postgres",
    async serveArgs(dir) {
      const name = dbName(dir);
      if (!created.has(name)) {
        await admin.unsafe(`CREATE DATABASE ${name}`);
        created.add(name);
      }
      return ["--db", urlOf(dir)];
    },
    liveCodes: (dir) =>
      read(dir, async (sql) => {
        const rows = (await sql`SELECT code FROM articles WHERE NOT deleted`) as { code: string | null }[];
        // The store's own invariant, in case a mix slipped past the prefix count: one live article per code.
        const [dupes] = (await sql`SELECT count(*)::int AS n FROM (SELECT code FROM articles WHERE NOT deleted AND code IS NOT NULL GROUP BY code HAVING count(*) > 1) d`) as { n: number }[];
        return { ...count(rows.map((r) => r.code)), integrity: dupes?.n ? `${dupes.n} codes live twice` : "ok" };
      }),
    loggedKeys: (dir) => read(dir, async (sql) => new Set(((await sql`SELECT msg_key FROM messages`) as { msg_key: string }[]).map((r) => r.msg_key))),
    async forget(dir) {
      const name = dbName(dir);
      if (created.delete(name)) await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
    async close() {
      await admin.close();
      pg.stop();
    },
  };
}
