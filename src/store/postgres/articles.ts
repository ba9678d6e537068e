import type { SQL, TransactionSQL } from "bun";
import type { Article } from "../../article/article.ts";
import type { ArticleEdit, EditResult } from "../writer.ts";
import { codeTaken, decideEdit } from "../conflicts.ts";
import { lockWrites } from "./bulk.ts";
import { CONTENT } from "../../article/fields.ts";
import { CONTENT_COLUMNS, fromRow } from "../rows.ts";
import { content, ROW_SELECT, statement } from "./columns.ts";

/** An article's content values as PostgreSQL binds them (words as JSON text), in table order. */
const contentValues = (a: Article): unknown[] => CONTENT.map((f) => (f.kind === "words" ? JSON.stringify(a[f.name]) : a[f.name]));
/** `UPDATE articles SET code = $1, …, rev = $, created_at = $, updated_at = $, gen = … WHERE id = $`, in parts around its values. */
const UPDATE_PARTS = [
  "UPDATE articles SET " + CONTENT_COLUMNS[0] + " = ",
  ...[...CONTENT_COLUMNS.slice(1), "rev", "created_at", "updated_at"].map((c) => `, ${c} = `),
  ", gen = nextval('change_gen') WHERE id = ",
  "",
];
/** An INSERT continuing above the rev a purged id had (rev_high), in parts around id, the content, rev, rev, times, id. */
const INSERT_PARTS = [
  `INSERT INTO articles (id, ${content()}, rev, created_at, updated_at) SELECT `,
  ...CONTENT_COLUMNS.map(() => ", "),
  ", CASE WHEN h.rev IS NOT NULL AND ",
  " <= h.rev THEN h.rev + 1 ELSE ",
  " END, ",
  ", ",
  " FROM (SELECT 1) one LEFT JOIN rev_high h ON h.id = ",
  "",
];

/** The article as stored, read inside a writer's transaction. */
async function current(tx: TransactionSQL, id: string): Promise<Article | null> {
  const [row] = await tx.unsafe(`SELECT ${ROW_SELECT} FROM articles WHERE id = $1`, [id]);
  return row ? fromRow(row) : null;
}

/**
 * Writer.editArticle on PostgreSQL: decided under the write lock against the article as the
 * database holds it (another instance may have written since this one's copy was read). Answers it
 * as stored (an id made again continues above its old revs).
 */
export async function editArticlePg(sql: SQL, id: string, edit: ArticleEdit): Promise<EditResult> {
  return sql.begin(async (tx) => {
    await lockWrites(tx);
    const stored = await current(tx, id);
    const a = decideEdit(id, stored, edit);
    if (!a) return { article: stored as Article, created: false, changed: false };
    if (a.code !== null && !a.deleted) {
      const [owner] = (await tx`SELECT id FROM articles WHERE NOT deleted AND code IS NOT NULL AND lower(code) = lower(${a.code}) AND id <> ${a.id}`) as { id: string }[];
      if (owner) throw codeTaken(a.code, owner.id);
    }
    const values = contentValues(a);
    if (stored) await statement(tx, UPDATE_PARTS, [...values, a.rev, a.created_at, a.updated_at, a.id]);
    else await statement(tx, INSERT_PARTS, [a.id, ...values, a.rev, a.rev, a.created_at, a.updated_at, a.id]);
    return { article: (await current(tx, a.id)) as Article, created: !stored, changed: true };
  });
}

/** Writer.purgeArticle on PostgreSQL: removed for good, its highest rev kept, read copies told. */
export async function purgeArticlePg(sql: SQL, id: string): Promise<boolean> {
  return sql.begin(async (tx) => {
    await lockWrites(tx);
    const [gone] = (await tx`DELETE FROM articles WHERE id = ${id} RETURNING rev::text AS rev`) as { rev: string }[];
    if (!gone) return false;
    await tx`INSERT INTO rev_high (id, rev) VALUES (${id}, ${gone.rev}::bigint) ON CONFLICT (id) DO UPDATE SET rev = greatest(rev_high.rev, excluded.rev)`;
    await tx`INSERT INTO removals (id) VALUES (${id})`;
    return true;
  });
}
