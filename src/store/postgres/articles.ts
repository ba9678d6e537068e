import type { SQL, TransactionSQL } from "bun";
import type { Article } from "../../article.ts";
import type { ArticleEdit, EditResult } from "../backend.ts";
import { codeTaken, decideEdit } from "../conflicts.ts";
import { lockWrites } from "./bulk.ts";
import { fromRow } from "../rows.ts";

const ROW = "id, code, tag, title, description, url, picurl, keywords, deleted, rev::text AS rev, created_at, updated_at, gen::text AS gen";

/** The article as stored, read inside a writer's transaction. */
async function current(tx: TransactionSQL, id: string): Promise<Article | null> {
  const [row] = await tx.unsafe(`SELECT ${ROW} FROM articles WHERE id = $1`, [id]);
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
    const keywords = JSON.stringify(a.keywords);
    if (stored)
      await tx`UPDATE articles SET code = ${a.code}, tag = ${a.tag}, title = ${a.title}, description = ${a.description}, url = ${a.url}, picurl = ${a.picurl},
                 keywords = ${keywords}, deleted = ${a.deleted}, rev = ${a.rev}, created_at = ${a.created_at}, updated_at = ${a.updated_at}, gen = nextval('change_gen')
               WHERE id = ${a.id}`;
    else
      await tx`INSERT INTO articles (id, code, tag, title, description, url, picurl, keywords, deleted, rev, created_at, updated_at)
               SELECT ${a.id}, ${a.code}, ${a.tag}, ${a.title}, ${a.description}, ${a.url}, ${a.picurl}, ${keywords}, ${a.deleted},
                      CASE WHEN h.rev IS NOT NULL AND ${a.rev} <= h.rev THEN h.rev + 1 ELSE ${a.rev} END, ${a.created_at}, ${a.updated_at}
               FROM (SELECT 1) one LEFT JOIN rev_high h ON h.id = ${a.id}`;
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
