import type { SQL } from "bun";
import type { Article } from "../../article.ts";
import { fromRow } from "../articles.ts";

/** What changed in the articles after a generation, one page at a time. */
export interface FeedPage {
  /** Every article was removed (a restore) before the ids and rows that follow. */
  wiped?: boolean;
  /** Ids purged (their rows are gone), then rows as they are now: applied in this order, a page is right whatever happened between. */
  removed: string[];
  articles: Article[];
}

/** An article row as PostgreSQL hands it over: keywords as stored (JSON text), bigints as text. */
export type PgRow = Omit<Article, "keywords" | "rev"> & { keywords: string; rev: string | number; gen: string | number };


/**
 * Hands `apply` every change after generation `from`, in pages of at most `pageSize` rows, all read
 * from one snapshot (a repeatable-read transaction); answers the generation the snapshot reaches,
 * which the caller keeps as its next `from`. Removals come before rows: an id purged and made
 * again is deleted, then written as it is now. Memory is one page.
 */
export async function readChanges(sql: SQL, from: bigint, apply: (page: FeedPage) => void | Promise<void>, pageSize = 5000): Promise<bigint> {
  return sql.begin(async (tx) => {
    await tx`SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY`;
    const [top] = await tx`SELECT greatest((SELECT max(gen) FROM articles), (SELECT max(gen) FROM removals), ${from.toString()}::bigint)::text AS gen`;
    const to = BigInt((top as { gen: string }).gen);
    if (to === from) return from;
    for (let after = from; ; ) {
      const rows = (await tx`SELECT gen::text AS gen, id FROM removals WHERE removals.gen > ${after.toString()}::bigint AND removals.gen <= ${to.toString()}::bigint ORDER BY removals.gen LIMIT ${pageSize}`) as { gen: string; id: string | null }[];
      if (!rows.length) break;
      // A wipe removes everything before it: the ids removed before it in this page need not be.
      const wipe = rows.findLastIndex((r) => r.id === null);
      await apply({ ...(wipe >= 0 ? { wiped: true } : {}), removed: rows.slice(wipe + 1).map((r) => r.id as string), articles: [] });
      after = BigInt((rows[rows.length - 1] as { gen: string }).gen);
    }
    for (let after = from; ; ) {
      const rows = (await tx`SELECT id, code, tag, title, description, url, picurl, keywords, deleted, rev::text AS rev, created_at, updated_at, gen::text AS gen
        FROM articles WHERE articles.gen > ${after.toString()}::bigint AND articles.gen <= ${to.toString()}::bigint ORDER BY articles.gen LIMIT ${pageSize}`) as PgRow[];
      if (!rows.length) break;
      await apply({ removed: [], articles: rows.map(fromRow) });
      after = BigInt((rows[rows.length - 1] as PgRow).gen);
    }
    return to;
  });
}
