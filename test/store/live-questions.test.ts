/** The questions taught to live articles, as the ranking's source finds them (src/store/model/live-questions.ts, postings.ts `taught`). */
import { expect, test } from "bun:test";
import { withDb, type ModelDb } from "./model-db.ts";
import { LIVE_QUESTIONS, liveQuestions, liveQuestionsMark } from "../../src/store/model/live-questions.ts";
import { SqlitePostings } from "../../src/store/model/postings.ts";



const put = (db: ModelDb, id: string, questions: string[], at: string, deleted = false) =>
  Number(db.query("INSERT INTO articles (id, title, url, deleted, questions, created_at, updated_at) VALUES (?, ?, '', ?, ?, ?, ?)").run(id, id, deleted ? 1 : 0, JSON.stringify(questions), at, at).lastInsertRowid);

/** A write to the passage index, as each batch of a rebuild makes: its count of writes moves. */
const indexWritten = (db: ModelDb) => {
  const row = db.query("SELECT value FROM meta WHERE key = 'answer_sizes'").get() as { value: string } | null;
  const sizes = row ? JSON.parse(row.value) : { heads: 0, headTerms: 0, passages: 0, passageTerms: 0 };
  sizes.writes = (sizes.writes ?? 0) + 1;
  db.run("INSERT INTO meta (key, value) VALUES ('answer_sizes', ?1) ON CONFLICT(key) DO UPDATE SET value = ?1", [JSON.stringify(sizes)]);
};

test("live articles' questions by taught form, of two alike the one changed last; deleted articles' not", () =>
  withDb((db) => {
    put(db, "old", ["Do I need to book?"], "2026-01-01T00:00:00Z");
    put(db, "new", ["do i need to book"], "2026-01-02T00:00:00Z");
    put(db, "gone", ["opening hours"], "2026-01-03T00:00:00Z", true);
    const forms = liveQuestions(db);
    expect(forms.get("do i need to book")).toBe("new");
    expect(forms.has("opening hours")).toBe(false);
  }));

test("the questions read stop at their bound (LIVE_QUESTIONS.questions), the articles changed last read first", () =>
  withDb((db) => {
    const kept = { ...LIVE_QUESTIONS };
    try {
      LIVE_QUESTIONS.questions = 3;
      put(db, "a1", ["q1a", "q1b"], "2026-01-01T00:00:00Z");
      put(db, "a2", ["q2a", "q2b"], "2026-01-02T00:00:00Z");
      put(db, "a3", ["q3a", "q3b"], "2026-01-03T00:00:00Z");
      // a3's two, then a2's two reach three: a1 is not read.
      expect([...liveQuestions(db).keys()].sort()).toEqual(["q2a", "q2b", "q3a", "q3b"]);
      LIVE_QUESTIONS.questions = 4;
      expect(liveQuestions(db).has("q1a")).toBe(false);
      LIVE_QUESTIONS.questions = 5;
      expect(liveQuestions(db).has("q1a")).toBe(true);
    } finally {
      Object.assign(LIVE_QUESTIONS, kept);
    }
  }));

test("the mark moves when an article holding questions is written or one more holds any, even with an older date; not for an article without", () =>
  withDb((db) => {
    put(db, "a1", ["q1"], "2026-01-02T00:00:00Z");
    const first = liveQuestionsMark(db);
    put(db, "plain", [], "2026-01-05T00:00:00Z");
    expect(liveQuestionsMark(db)).toBe(first);
    db.run("UPDATE articles SET questions = '[\"q1\",\"q2\"]', updated_at = '2026-01-06T00:00:00Z' WHERE id = 'a1'");
    const second = liveQuestionsMark(db);
    expect(second).not.toBe(first);
    // Restored from a backup with its own older date: counted.
    put(db, "restored", ["q3"], "2025-06-01T00:00:00Z");
    expect(liveQuestionsMark(db)).not.toBe(second);
  }));

test("the mark and the questions are read through the partial index of the live articles holding questions", () =>
  withDb((db) => {
    for (const sql of [
      "SELECT max(updated_at) AS latest FROM articles WHERE deleted = 0 AND questions != '[]'",
      "SELECT count(*) AS n FROM (SELECT 1 FROM articles WHERE deleted = 0 AND questions != '[]' LIMIT 20001)",
      "SELECT id, questions FROM articles WHERE deleted = 0 AND questions != '[]' ORDER BY updated_at DESC LIMIT 20000",
    ]) {
      const plan = db.query(`EXPLAIN QUERY PLAN ${sql}`).all() as { detail: string }[];
      expect({ sql, plan: plan.map((p) => p.detail).join("\n") }).toEqual({ sql, plan: expect.stringContaining("articles_live_questions") });
    }
  }));

test("the ranking's source reads the questions again only when their mark moved, not on every write to the passage index (a rebuild's batches)", () =>
  withDb((db) => {
    const seq = put(db, "bars", ["do i need to book"], "2026-01-01T00:00:00Z");
    const source = new SqlitePostings(db);
    source.stats();
    expect(source.taught("do i need to book")).toBe(seq);
    // Changed behind the mark's back (no write does this: it shows the map was not read again).
    db.run("UPDATE articles SET questions = '[\"can i bring food\"]' WHERE id = 'bars'");
    indexWritten(db);
    source.stats();
    expect(source.taught("can i bring food")).toBeUndefined();
    // …and what the map still says is checked against the row: the article no longer holds it.
    expect(source.taught("do i need to book")).toBeUndefined();
    // A write the mark sees: read again.
    db.run("UPDATE articles SET questions = '[\"can i bring food\"]', updated_at = '2026-01-02T00:00:00Z' WHERE id = 'bars'");
    indexWritten(db);
    source.stats();
    expect(source.taught("can i bring food")).toBe(seq);
  }));

test("after a restore (every article inserted again under new row numbers, dates and counts as they were), the taught question finds its article, not the row it had", () =>
  withDb((db) => {
    put(db, "zbars", ["do i need to book"], "2026-01-01T00:00:00Z");
    put(db, "afees", [], "2026-01-01T00:00:00Z");
    const source = new SqlitePostings(db);
    source.stats();
    expect(source.taught("do i need to book")).toBe(1);
    // A restore: deleted and inserted again in id order; the mark (latest date, count) does not move.
    const mark = liveQuestionsMark(db);
    db.run("DELETE FROM articles");
    put(db, "afees", [], "2026-01-01T00:00:00Z");
    const bars = put(db, "zbars", ["do i need to book"], "2026-01-01T00:00:00Z");
    expect(liveQuestionsMark(db)).toBe(mark);
    indexWritten(db);
    source.stats();
    expect(source.taught("do i need to book")).toBe(bars);
  }));
