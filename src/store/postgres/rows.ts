/**
 * A bulk write's records on their way into PostgreSQL's articles (bulk.ts, restore.ts): streamed
 * from the document a batch at a time (memory: a batch or two), either straight into the articles
 * (nothing there to compare with) or into a temporary table that set-based statements merge from.
 */
import type { TransactionSQL } from "bun";
import { CONTENT } from "../../article/fields.ts";
import { contentOf, TAUGHT_FIELDS, type ArticleInput } from "../../article/article.ts";
import type { Articles } from "../../doc/document.ts";
import type { StoredRow } from "../rows.ts";
import { newArticleId } from "../ids.ts";
import { Columns, CONTENT_DDL, content, type BatchRow } from "./columns.ts";
import type { Mirror } from "./mirror.ts";

const BATCH = 2000;

/**
 * One batch on its way to PostgreSQL while the next is read from the document: the server inserts
 * as we parse, where awaiting each batch left one side idle at a time. Memory: two batches.
 */
class Pipeline {
  private inFlight: Promise<unknown> | null = null;

  async send(batch: Promise<unknown>): Promise<void> {
    // Handled here so that, if reading the document throws before it is awaited, it is not unhandled.
    batch.catch(() => {});
    const previous = this.inFlight;
    this.inFlight = batch;
    await previous;
  }

  async drain(): Promise<void> {
    await this.inFlight;
  }
}
/** A record as its batch carries it, `rev` and times included (a restore keeps them; an import's statements ignore them). */
/** `absent`: a taught field's column of a record without it ("null": kept from the article, an import's; article.ts importedContent). */
const batchRow = (rec: ArticleInput, idx: number, absent = "[]"): BatchRow => {
  const c = contentOf(rec);
  const row: Record<string, unknown> = { idx, id: rec.id ?? null };
  for (const f of CONTENT) row[f.name] = f.kind === "words" ? JSON.stringify(c[f.name]) : c[f.name];
  for (const f of TAUGHT_FIELDS) if (rec[f] === undefined) row[f] = absent;
  row.rev = rec.rev ?? null;
  row.created_at = rec.created_at ?? null;
  row.updated_at = rec.updated_at ?? null;
  return row as BatchRow;
};

const insertBatch = (tx: TransactionSQL, batch: Columns) => tx`INSERT INTO doc_in (${tx.unsafe(Columns.columns)}) SELECT * FROM ${batch.from(tx)}`;

/**
 * Records that all have ids, into an articles table that is empty (an init into a store without
 * articles, or a restore after its purge): nothing to compare, purge or mint, so the batches go
 * straight into the articles, each rev above any its id had. An import's get rev 1 and `now`; a
 * restore's keep the document's revs and times. With a mirror, each batch's rows go on to the read
 * copy as PostgreSQL answers it (with the revs it gave them) while the next batch is written.
 */
export async function insertDirectly(tx: TransactionSQL, articles: Articles, now: string, asRestored: boolean, mirror?: Mirror): Promise<void> {
  const flush = (batch: Columns) => {
    const revs = mirror ? tx`RETURNING id, rev::text AS rev` : tx``;
    return asRestored
      ? tx`INSERT INTO articles (id, ${tx.unsafe(content())}, rev, created_at, updated_at)
           SELECT r.id, ${tx.unsafe(content("r."))},
                  CASE WHEN h.rev IS NOT NULL AND coalesce(r.rev, 1) <= h.rev THEN h.rev + 1 ELSE coalesce(r.rev, 1) END,
                  coalesce(r.created_at, ${now}), coalesce(r.updated_at, r.created_at, ${now})
           FROM ${batch.from(tx)} LEFT JOIN rev_high h ON h.id = r.id ORDER BY r.idx ${revs}`
      : tx`INSERT INTO articles (id, ${tx.unsafe(content())}, rev, created_at, updated_at)
           SELECT r.id, ${tx.unsafe(content("r."))}, coalesce(h.rev + 1, 1), ${now}, ${now}
           FROM ${batch.from(tx)} LEFT JOIN rev_high h ON h.id = r.id ORDER BY r.idx ${revs}`;
  };
  /** The rows as PostgreSQL stored them: its revs by id, the times as it filled them in. */
  const mirrored = (rows: BatchRow[], stored: { id: string; rev: string }[]) => {
    const revs = new Map(stored.map((r) => [r.id, r.rev]));
    for (const r of rows) {
      r.rev = revs.get(r.id as string) as string;
      if (asRestored) {
        r.updated_at ??= r.created_at ?? now;
        r.created_at ??= now;
      } else r.created_at = r.updated_at = now;
    }
    (mirror as Mirror).rows(rows as StoredRow[]);
  };
  mirror?.replaceAll();
  const batches = new Pipeline();
  let batch = new Columns();
  let copied: BatchRow[] = [];
  let idx = 0;
  const send = async () => {
    const written = flush(batch);
    const copy = copied;
    batch = new Columns();
    copied = [];
    await batches.send(mirror ? written.then((stored) => mirrored(copy, stored as { id: string; rev: string }[])) : written);
  };
  for (const rec of articles.values()) {
    const row = batchRow(rec, idx++);
    batch.add(row);
    if (mirror) copied.push(row);
    if (batch.length === BATCH) await send();
  }
  if (batch.length) await send();
  await batches.drain();
}

/** An import's records without a taught field take the article's (article.ts importedContent), a new one none: once ids are known. */
export async function keptTaught(tx: TransactionSQL): Promise<void> {
  for (const f of TAUGHT_FIELDS) {
    await tx.unsafe(`UPDATE doc_in d SET ${f} = a.${f} FROM articles a WHERE a.id = d.id AND d.${f} = 'null'`);
    await tx.unsafe(`UPDATE doc_in SET ${f} = '[]' WHERE ${f} = 'null'`);
  }
}

/** The generation the database has reached, this transaction's writes included (every writer holds the write lock). */
export async function generation(tx: TransactionSQL): Promise<bigint> {
  const [top] = (await tx`SELECT coalesce(greatest((SELECT max(gen) FROM articles), (SELECT max(gen) FROM removals)), 0)::text AS gen`) as [{ gen: string }];
  return BigInt(top.gen);
}

/**
 * The document's records into doc_in (dropped at commit), `rev` and times kept for a restore. With
 * `keepTaught` (an import) a record without questions or keywords is loaded with "null" there, for
 * keptTaught() to fill from the article.
 */
export async function loadRecords(tx: TransactionSQL, articles: Articles, opts: { keepTaught?: boolean } = {}): Promise<void> {
  await tx.unsafe(`CREATE TEMP TABLE doc_in (idx integer PRIMARY KEY, id text, ${CONTENT_DDL}, rev bigint, created_at text, updated_at text, status text) ON COMMIT DROP`);
  const batches = new Pipeline();
  let batch = new Columns();
  let idx = 0;
  for (const rec of articles.values()) {
    batch.add(batchRow(rec, idx++, opts.keepTaught ? "null" : "[]"));
    if (batch.length === BATCH) {
      await batches.send(insertBatch(tx, batch));
      batch = new Columns();
    }
  }
  if (batch.length) await batches.send(insertBatch(tx, batch));
  await batches.drain();
  await tx`CREATE INDEX ON doc_in (id)`;
  await tx`ANALYZE doc_in`;
}

/**
 * Records still without an id get one: readable from the code when that is free (in the articles,
 * in the document, among those minted), else random. Page by page; only the minted ids are held.
 */
export async function mintIds(tx: TransactionSQL): Promise<void> {
  const minted = new Set<string>();
  for (let after = -1; ; ) {
    const page = (await tx`SELECT idx, code FROM doc_in WHERE id IS NULL AND idx > ${after} ORDER BY idx LIMIT ${BATCH}`) as { idx: number; code: string | null }[];
    if (!page.length) return;
    const wanted = page.map((r) => r.code?.toLowerCase()).filter((c): c is string => !!c);
    const list = JSON.stringify(wanted);
    const taken = new Set(
      ((await tx`WITH w AS (SELECT jsonb_array_elements_text(${list}::text::jsonb) AS id)
                 SELECT id FROM articles WHERE id IN (SELECT id FROM w) UNION SELECT id FROM doc_in WHERE id IN (SELECT id FROM w)`) as { id: string }[]).map((r) => r.id),
    );
    // A random id is 1 in 36^9: checked against the ids known here, the primary key catches the rest.
    const used = { has: (id: string) => taken.has(id) || minted.has(id) };
    const ids = page.map((r) => {
      const id = newArticleId(r.code, used);
      minted.add(id);
      return { idx: r.idx, id };
    });
    await tx`UPDATE doc_in d SET id = m.id FROM (SELECT * FROM jsonb_to_recordset(${JSON.stringify(ids)}::text::jsonb) AS x(idx integer, id text)) m WHERE d.idx = m.idx`;
    after = (page[page.length - 1] as { idx: number }).idx;
  }
}

/**
 * Purges the articles the document does not hold (`notInDocument`), or every article, keeping each
 * id's highest rev; answers how many. Read copies learn of each id purged, or of one wipe.
 */
export async function purgeArticles(tx: TransactionSQL, notInDocument: boolean): Promise<number> {
  if (!notInDocument) {
    await tx`INSERT INTO rev_high (id, rev) SELECT id, rev FROM articles ON CONFLICT (id) DO UPDATE SET rev = greatest(rev_high.rev, excluded.rev)`;
    const [{ n }] = (await tx`WITH gone AS (DELETE FROM articles RETURNING 1) SELECT count(*)::int AS n FROM gone`) as [{ n: number }];
    await tx`INSERT INTO removals (id) VALUES (NULL)`;
    return n;
  }
  await tx`INSERT INTO rev_high (id, rev) SELECT id, rev FROM articles WHERE NOT EXISTS (SELECT 1 FROM doc_in d WHERE d.id = articles.id)
           ON CONFLICT (id) DO UPDATE SET rev = greatest(rev_high.rev, excluded.rev)`;
  const [{ n }] = (await tx`WITH gone AS (DELETE FROM articles WHERE NOT EXISTS (SELECT 1 FROM doc_in d WHERE d.id = articles.id) RETURNING id),
                                 noted AS (INSERT INTO removals (id) SELECT id FROM gone RETURNING 1)
                            SELECT count(*)::int AS n FROM noted`) as [{ n: number }];
  return n;
}

/**
 * doc_in's new rows into the articles, in document order, each rev above any its id had before: rev 1
 * and `now` for an import, the document's own revs and times for a restore.
 */
export const insertNew = (tx: TransactionSQL, asRestored: boolean, now: string) =>
  asRestored
    ? tx`INSERT INTO articles (id, ${tx.unsafe(content())}, rev, created_at, updated_at)
         SELECT d.id, ${tx.unsafe(content("d."))},
                CASE WHEN h.rev IS NOT NULL AND coalesce(d.rev, 1) <= h.rev THEN h.rev + 1 ELSE coalesce(d.rev, 1) END,
                coalesce(d.created_at, ${now}), coalesce(d.updated_at, d.created_at, ${now})
         FROM doc_in d LEFT JOIN rev_high h ON h.id = d.id ORDER BY d.idx`
    : tx`INSERT INTO articles (id, ${tx.unsafe(content())}, rev, created_at, updated_at)
         SELECT d.id, ${tx.unsafe(content("d."))},
                CASE WHEN h.rev IS NOT NULL THEN h.rev + 1 ELSE 1 END, ${now}, ${now}
         FROM doc_in d LEFT JOIN rev_high h ON h.id = d.id WHERE d.status IS NULL ORDER BY d.idx`;
