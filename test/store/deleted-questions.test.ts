/** The questions taught to deleted articles, as the read model finds them (src/store/model/deleted-questions.ts). */
import { expect, test } from "bun:test";
import { withDb, type ModelDb } from "./model-db.ts";
import { DELETED_QUESTIONS_ARTICLES, DELETED_QUESTIONS_QUERY, DeletedQuestions } from "../../src/store/model/deleted-questions.ts";


const put = (db: ModelDb, id: string, deleted: boolean, questions: string[], at: string) =>
  db.query("INSERT INTO articles (id, title, url, deleted, questions, created_at, updated_at) VALUES (?, ?, '', ?, ?, ?, ?)").run(id, id, deleted ? 1 : 0, JSON.stringify(questions), at, at);

test("only deleted articles' questions, by taught form, the most recently changed first; read again after changed()", () =>
  withDb((db) => {
    put(db, "live", false, ["opening hours"], "2026-01-01T00:00:00Z");
    put(db, "old", true, ["How much deposit?"], "2026-01-01T00:00:00Z");
    put(db, "new", true, ["how much deposit"], "2026-01-02T00:00:00Z");
    const d = new DeletedQuestions(db);
    expect(d.articleOf("how much deposit")).toBe("new");
    expect(d.articleOf("opening hours")).toBeNull();
    put(db, "later", true, ["opening hours"], "2026-01-03T00:00:00Z");
    expect(d.articleOf("opening hours")).toBeNull(); // cached until a write says so
    d.changed();
    expect(d.articleOf("opening hours")).toBe("later");
  }));

test(`the ${DELETED_QUESTIONS_ARTICLES} most recently changed deleted articles are looked at, not one more`, () =>
  withDb((db) => {
    db.transaction(() => {
      for (let i = 0; i <= DELETED_QUESTIONS_ARTICLES; i++) put(db, `a${i}`, true, [`question ${i}`], new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString());
    })();
    const d = new DeletedQuestions(db);
    expect(d.articleOf("question 1")).toBe("a1");
    expect(d.articleOf("question 0")).toBeNull();
  }));

test("the partial index answers the lookup (no scan of the live articles)", () =>
  withDb((db) => {
    const plan = db.query(`EXPLAIN QUERY PLAN ${DELETED_QUESTIONS_QUERY}`).all(DELETED_QUESTIONS_ARTICLES) as { detail: string }[];
    expect(plan.map((p) => p.detail).join("\n")).toContain("articles_deleted_questions");
  }));
