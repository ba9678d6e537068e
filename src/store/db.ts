import { Database } from "bun:sqlite";

/**
 * Each entry moves the schema one version forward; PRAGMA user_version records where a file is.
 * Append only: a released migration is never edited.
 */
const MIGRATIONS: readonly string[] = [
  `CREATE TABLE articles (
     id          TEXT PRIMARY KEY,
     code        TEXT,
     tag         TEXT,
     title       TEXT NOT NULL,
     description TEXT NOT NULL DEFAULT '',
     url         TEXT NOT NULL,
     picurl      TEXT,
     keywords    TEXT NOT NULL DEFAULT '[]',
     deleted     INTEGER NOT NULL DEFAULT 0,
     rev         INTEGER NOT NULL DEFAULT 1,
     created_at  TEXT NOT NULL,
     updated_at  TEXT NOT NULL
   ) WITHOUT ROWID;
   CREATE UNIQUE INDEX articles_live_code ON articles (lower(code)) WHERE deleted = 0 AND code IS NOT NULL;
   CREATE INDEX articles_tag ON articles (tag);
   CREATE TABLE tags (tag TEXT PRIMARY KEY, description TEXT NOT NULL) WITHOUT ROWID;
   CREATE TABLE rules (id TEXT PRIMARY KEY, position INTEGER NOT NULL, body TEXT NOT NULL) WITHOUT ROWID;
   CREATE TABLE texts (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;`,
];

export const SCHEMA_VERSION = MIGRATIONS.length;

export function openDatabase(path: string): Database {
  const db = new Database(path, { create: true, strict: true });
  db.exec("PRAGMA journal_mode = WAL");
  // FULL: an acknowledged admin write survives a power cut, not only a process crash.
  db.exec("PRAGMA synchronous = FULL");
  db.exec("PRAGMA busy_timeout = 5000");
  db.exec("PRAGMA foreign_keys = ON");
  migrate(db);
  return db;
}

function migrate(db: Database): void {
  const current = (db.query("PRAGMA user_version").get() as { user_version: number }).user_version;
  if (current > SCHEMA_VERSION)
    throw new Error(`the database schema is version ${current}, newer than this replyd understands (${SCHEMA_VERSION}); upgrade replyd`);
  for (let v = current; v < SCHEMA_VERSION; v++) {
    db.transaction(() => {
      db.exec(MIGRATIONS[v] as string);
      db.exec(`PRAGMA user_version = ${v + 1}`);
    })();
  }
}
