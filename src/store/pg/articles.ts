import type { SQL, TransactionSQL } from "bun";
import type { Article } from "../../article.ts";
import { codeTaken, idExists, revMismatch } from "../conflicts.ts";
import { lockWrites } from "./bulk.ts";
import { fromRow } from "../articles.ts";

const ROW = "id, code, tag, title, description, url, picurl, keywords, deleted, rev::text AS rev, created_at, updated_at, gen::text AS gen";

/** The article as stored, read inside a writer's transaction. */
async function current(tx: TransactionSQL, id: string): Promise<Article | null> {
  const [row] = await tx.unsafe(`SELECT ${ROW} FROM articles WHERE id = $1`, [id]);
  return row ? fromRow(row) : null;
}

/**
 * Store.putArticle on PostgreSQL: the article written as given if the stored one is still at rev
 * `base` (null: there is none) and its live code is free, under the write lock. Checked here, in
 * the transaction, not only by the caller against its read copy: another instance may have written
 * since. Answers it as stored (an id made again continues above its old revs).
 */
export async function putArticlePg(sql: SQL, a: Article, base: number | null): Promise<Article> {
  return sql.begin(async (tx) => {
    await lockWrites(tx);
    const stored = await current(tx, a.id);
    if (base === null && stored) throw idExists(a.id);
    if (base !== null && stored?.rev !== base) throw revMismatch(a.id, stored?.rev ?? null, base);
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
    return (await current(tx, a.id)) as Article;
  });
}

/** Store.purgeArticle on PostgreSQL: removed for good, its highest rev kept, read copies told. */
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
