import { expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { join } from "node:path";
import { MIGRATIONS, SCHEMA_VERSION } from "../../src/store/model/db.ts";
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

test("a version-5 message log is migrated in place: its messages are follower messages, open to replies", async () => {
  const tmp = tempDir();
  try {
    const db = new Database(join(tmp.dir, "replyd.db"), { create: true });
    for (const m of MIGRATIONS.slice(0, 5)) db.exec(m as string);
    db.exec("PRAGMA user_version = 5");
    db.run(
      "INSERT INTO messages (received_at, msg_key, from_user, type, content, answer, unmatched) VALUES ('2026-11-21T09:00:00.000Z', 'm:1', 'o_old', 'text', 'still there?', 'fallback', 1)",
    );
    db.close();
    const store = openStore(tmp.dir);
    const page = await store.messages.list({ only: "unmatched", limit: 10, offset: 0 });
    expect(page.items[0]).toMatchObject({ from_user: "o_old", direction: "in", sent_by: null, reply_to: null, answered_at: null });
    // T0 is an hour after the message: the window is open, nothing sent yet.
    expect(store.replies.window("o_old", Date.parse("2026-11-21T10:00:00.000Z"))).toMatchObject({ open: true, sent: 0, left: 5 });
    expect(store.content.menu()).toBeNull();
    store.close();
  } finally {
    tmp.cleanup();
  }
});

test("a version-10 data folder is migrated in place: its articles keep their rows and get no questions, the body still the last column", async () => {
  const tmp = tempDir();
  try {
    const db = new Database(join(tmp.dir, "replyd.db"), { create: true });
    for (const m of MIGRATIONS.slice(0, 10)) db.exec(m as string);
    db.exec("PRAGMA user_version = 10");
    db.run(
      `INSERT INTO articles (seq, id, code, title, url, keywords, body, rev, created_at, updated_at) VALUES (7, 'refund', 'r1', '售后政策', 'https://e.com/', '["退货"]', ?, 3, ?, ?)`,
      ["本店支持七天无理由退货，在订单页面申请退款。".repeat(200), "2026-01-01T00:00:00.000Z", "2026-01-02T00:00:00.000Z"],
    );
    db.run("INSERT INTO meta (key, value) VALUES ('fts_rebuild_from', '0') ON CONFLICT(key) DO UPDATE SET value = '0'");
    db.close();
    const store = openStore(tmp.dir);
    try {
      expect((store.db.query("PRAGMA user_version").get() as { user_version: number }).user_version).toBe(SCHEMA_VERSION);
      const columns = (store.db.query("PRAGMA table_xinfo(articles)").all() as { name: string }[]).map((c) => c.name);
      expect(columns.at(-1)).toBe("body");
      expect(columns.indexOf("questions")).toBeLessThan(columns.indexOf("body"));
      expect((store.db.query("SELECT seq FROM articles WHERE id = 'refund'").get() as { seq: number }).seq).toBe(7);
      expect(store.articles.get("refund")).toMatchObject({ code: "r1", keywords: ["退货"], questions: [], rev: 3, updated_at: "2026-01-02T00:00:00.000Z" });
      expect(store.articles.getLiveByCode("R1")?.id).toBe("refund");
      await store.indexed();
      const ranked = await store.searcher.rank("怎么申请退款");
      expect(ranked && ranked !== "busy" ? ranked.articles[0]?.id : null).toBe("refund");
      expect(store.content.synonyms()).toEqual([]);
    } finally {
      store.close();
    }
  } finally {
    tmp.cleanup();
  }
});
