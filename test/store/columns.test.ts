/**
 * The article's fields are declared once (src/article-fields.ts): every store's articles table has
 * exactly those columns, beside its own bookkeeping — so a field added to the table without its
 * migration on a store (or the other way round) fails here, not in production.
 */
import { afterAll, expect, test } from "bun:test";
import { SQL } from "bun";
import { CONTENT } from "../../src/article-fields.ts";
import { Model } from "../../src/store/model/model.ts";
import { prepareDatabase } from "../../src/store/postgres/connect.ts";
import { ARTICLE_COLUMNS } from "../../src/store/rows.ts";
import { tempDir } from "../helpers.ts";
import { testDatabase } from "../pg.ts";

const tmp = tempDir("replyd-columns-");
afterAll(() => tmp.cleanup());

test("the field table's columns: id, each content field in order, rev and the times", () => {
  expect(ARTICLE_COLUMNS).toEqual(["id", ...CONTENT.map((f) => f.name), "rev", "created_at", "updated_at"]);
});

test("SQLite's articles table holds exactly the table's columns, beside its row number and search columns", () => {
  const model = Model.open(tmp.dir);
  try {
    const names = (model.db.query("PRAGMA table_xinfo(articles)").all() as { name: string }[]).map((c) => c.name);
    expect(names.filter((n) => n !== "seq" && n !== "keyword_text" && n !== "question_text").sort()).toEqual([...ARTICLE_COLUMNS].sort());
  } finally {
    model.close();
  }
});

test("PostgreSQL's articles table holds exactly the table's columns, beside its change generation", async () => {
  const db = await testDatabase();
  const sql = new SQL(db.url);
  try {
    await prepareDatabase(sql, { now: new Date(), firstKey: false });
    const rows = (await sql`SELECT column_name FROM information_schema.columns WHERE table_name = 'articles'`) as { column_name: string }[];
    expect(rows.map((r) => r.column_name).filter((n) => n !== "gen").sort()).toEqual([...ARTICLE_COLUMNS].sort());
  } finally {
    await sql.close();
    await db.drop();
  }
});
