import { expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { join } from "node:path";
import { MIGRATIONS, SCHEMA_VERSION } from "../../src/store/db.ts";
import { openStore, tempDir } from "../helpers.ts";

test("a version-1 data folder is migrated in place: its articles become searchable", () => {
  const tmp = tempDir();
  try {
    const db = new Database(join(tmp.dir, "replyd.db"), { create: true });
    db.exec(MIGRATIONS[0] as string);
    db.exec("PRAGMA user_version = 1");
    db.run(
      `INSERT INTO articles (id, code, tag, title, url, created_at, updated_at) VALUES ('x1', 'c1', 't', 'Migrated holiday article', 'https://e.com/', ?, ?)`,
      ["2026-01-01T00:00:00.000Z", "2026-01-01T00:00:00.000Z"],
    );
    db.close();
    const store = openStore(tmp.dir);
    expect((store.db.query("PRAGMA user_version").get() as { user_version: number }).user_version).toBe(SCHEMA_VERSION);
    expect(store.articles.search(["holiday"]).map((a) => a.id)).toEqual(["x1"]);
    store.close();
  } finally {
    tmp.cleanup();
  }
});

test("a database from a newer replyd is refused, not touched", () => {
  const tmp = tempDir();
  try {
    const db = new Database(join(tmp.dir, "replyd.db"), { create: true });
    db.exec(`PRAGMA user_version = ${SCHEMA_VERSION + 1}`);
    db.close();
    expect(() => openStore(tmp.dir)).toThrow(/newer than this replyd/);
  } finally {
    tmp.cleanup();
  }
});
