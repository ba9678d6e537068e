import type { SQL } from "bun";
import type { StoredRow } from "../rows.ts";
import { ROW_SELECT } from "./columns.ts";

/** What changed in the articles after a generation, one page at a time. */
export interface FeedPage {
  /** Every article was removed (a restore) before the ids and rows that follow. */
  wiped?: boolean;
  /** Ids purged (their rows are gone), then rows as they are now: applied in this order, a page is right whatever happened between. */
  removed: string[];
  /** As stored (keywords as JSON text): the copy stores them so, and a million need not be parsed on the way. */
  articles: StoredRow[];
}

/** An article row as PostgreSQL hands it over: keywords as stored (JSON text), bigints as text. */
export type PgRow = StoredRow & { gen: string | number };


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
    // No "gen <= to" in the pages: nothing in this snapshot is above it, and with the bound
    // PostgreSQL read the whole range to the top for every page (three times slower at 200,000 rows).
    for (let after = from; ; ) {
      const rows = (await tx`SELECT gen::text AS gen, id FROM removals WHERE removals.gen > ${after.toString()}::bigint ORDER BY removals.gen LIMIT ${pageSize}`) as { gen: string; id: string | null }[];
      if (!rows.length) break;
      // A wipe removes everything before it: the ids removed before it in this page need not be.
      const wipe = rows.findLastIndex((r) => r.id === null);
      await apply({ ...(wipe >= 0 ? { wiped: true } : {}), removed: rows.slice(wipe + 1).map((r) => r.id as string), articles: [] });
      after = BigInt((rows[rows.length - 1] as { gen: string }).gen);
    }
    // The next page is asked for before this one is applied: PostgreSQL reads it while we write.
    const page = (after: bigint): Promise<unknown> => {
      const q = tx`SELECT ${tx.unsafe(ROW_SELECT)}
        FROM articles WHERE articles.gen > ${after.toString()}::bigint ORDER BY articles.gen LIMIT ${pageSize}`.execute();
      // Settled here too: if applying the page before it throws, nothing awaits it.
      q.catch(() => {});
      return q;
    };
    for (let next = page(from); ; ) {
      const rows = (await next) as PgRow[];
      if (!rows.length) break;
      next = rows.length < pageSize ? Promise.resolve([]) : page(BigInt((rows[rows.length - 1] as PgRow).gen));
      await apply({ removed: [], articles: rows });
    }
    return to;
  });
}
