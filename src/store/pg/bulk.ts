/**
 * Bulk writes on PostgreSQL, with the SQLite store's semantics (store/bulk.ts): the document's
 * records are streamed from its file into a temporary table a batch at a time (memory: one batch),
 * then merged into the articles by set-based statements inside the one transaction, under the
 * write lock. A record with any problem was refused before (doc.ts); what depends on the stored
 * articles (a live code kept by an article the merge leaves alone) is refused here, before any
 * article is written, and the transaction rolls back whole.
 */
import type { SQL, TransactionSQL } from "bun";
import { contentOf } from "../../article.ts";
import { SECTIONS, type Articles, type BulkDocument, type Matter } from "../../doc.ts";
import { InvalidDocumentError, MAX_PROBLEMS_LISTED, ProblemList } from "../../errors.ts";
import type { ImportResult, RestoreResult } from "../bulk.ts";
import { newArticleId } from "../ids.ts";
import type { BackupInfo } from "../backups.ts";
import { createBackupPg } from "./backups.ts";
import { LOCKS } from "./connect.ts";
import * as content from "./content.ts";

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

const stripCounts = ({ counts: _counts, ...info }: BackupInfo & { counts: Record<string, number> }): BackupInfo => info;

export const lockWrites = (tx: TransactionSQL) => tx`SELECT pg_advisory_xact_lock(${LOCKS.write.toString()}::bigint)`;

/** A batch as one JSON text: one parameter parsed by the server, rather than thirteen per row bound by the client. */
const insertBatch = (tx: TransactionSQL, rows: Record<string, unknown>[]) =>
  tx`INSERT INTO doc_in (idx, id, code, tag, title, description, url, picurl, keywords, deleted, rev, created_at, updated_at)
     SELECT * FROM json_to_recordset(${JSON.stringify(rows)}::text::json) AS r(idx integer, id text, code text, tag text, title text,
       description text, url text, picurl text, keywords text, deleted boolean, rev bigint, created_at text, updated_at text)`;

/**
 * Records that all have ids, into an articles table that is empty (an init into a store without
 * articles, or a restore after its purge): nothing to compare, purge or mint, so the batches go
 * straight into the articles, each rev above any its id had. An import's get rev 1 and `now`; a
 * restore's keep the document's revs and times.
 */
async function insertDirectly(tx: TransactionSQL, articles: Articles, now: string, asRestored: boolean): Promise<void> {
  const flush = (rows: string[]) => {
    const batch = `[${rows.join(",")}]`;
    return asRestored
      ? tx`INSERT INTO articles (id, code, tag, title, description, url, picurl, keywords, deleted, rev, created_at, updated_at)
           SELECT r.id, r.code, r.tag, r.title, r.description, r.url, r.picurl, r.keywords, r.deleted,
                  CASE WHEN h.rev IS NOT NULL AND coalesce(r.rev, 1) <= h.rev THEN h.rev + 1 ELSE coalesce(r.rev, 1) END,
                  coalesce(r.created_at, ${now}), coalesce(r.updated_at, r.created_at, ${now})
           FROM json_to_recordset(${batch}::text::json) AS r(idx integer, id text, code text, tag text, title text, description text,
             url text, picurl text, keywords text, deleted boolean, rev bigint, created_at text, updated_at text)
           LEFT JOIN rev_high h ON h.id = r.id ORDER BY r.idx`
      : tx`INSERT INTO articles (id, code, tag, title, description, url, picurl, keywords, deleted, rev, created_at, updated_at)
           SELECT r.id, r.code, r.tag, r.title, r.description, r.url, r.picurl, r.keywords, r.deleted, coalesce(h.rev + 1, 1), ${now}, ${now}
           FROM json_to_recordset(${batch}::text::json) AS r(idx integer, id text, code text, tag text, title text,
             description text, url text, picurl text, keywords text, deleted boolean)
           LEFT JOIN rev_high h ON h.id = r.id ORDER BY r.idx`;
  };
  const batches = new Pipeline();
  // Each row serialised as it is read: the records die young instead of waiting for their batch.
  let rows: string[] = [];
  let idx = 0;
  for (const rec of articles.values()) {
    const c = contentOf(rec);
    const row: Record<string, unknown> = { idx: idx++, id: rec.id, code: c.code, tag: c.tag, title: c.title, description: c.description, url: c.url, picurl: c.picurl, keywords: JSON.stringify(c.keywords), deleted: c.deleted };
    if (asRestored) {
      row.rev = rec.rev ?? null;
      row.created_at = rec.created_at ?? null;
      row.updated_at = rec.updated_at ?? null;
    }
    rows.push(JSON.stringify(row));
    if (rows.length === BATCH) {
      await batches.send(flush(rows));
      rows = [];
    }
  }
  if (rows.length) await batches.send(flush(rows));
  await batches.drain();
}

/** The document's records into doc_in (dropped at commit), `rev` and times kept for a restore. */
async function loadRecords(tx: TransactionSQL, articles: Articles): Promise<void> {
  await tx`CREATE TEMP TABLE doc_in (
    idx integer PRIMARY KEY, id text, code text, tag text, title text NOT NULL, description text NOT NULL, url text NOT NULL,
    picurl text, keywords text NOT NULL, deleted boolean NOT NULL, rev bigint, created_at text, updated_at text, status text
  ) ON COMMIT DROP`;
  const batches = new Pipeline();
  let rows: Record<string, unknown>[] = [];
  let idx = 0;
  for (const rec of articles.values()) {
    const c = contentOf(rec);
    rows.push({
      idx: idx++,
      id: rec.id ?? null,
      code: c.code,
      tag: c.tag,
      title: c.title,
      description: c.description,
      url: c.url,
      picurl: c.picurl,
      keywords: JSON.stringify(c.keywords),
      deleted: c.deleted,
      rev: rec.rev ?? null,
      created_at: rec.created_at ?? null,
      updated_at: rec.updated_at ?? null,
    });
    if (rows.length === BATCH) {
      await batches.send(insertBatch(tx, rows));
      rows = [];
    }
  }
  if (rows.length) await batches.send(insertBatch(tx, rows));
  await batches.drain();
  await tx`CREATE INDEX ON doc_in (id)`;
  await tx`ANALYZE doc_in`;
}

/**
 * Records still without an id get one: readable from the code when that is free (in the articles,
 * in the document, among those minted), else random. Page by page; only the minted ids are held.
 */
async function mintIds(tx: TransactionSQL): Promise<void> {
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
async function purgeArticles(tx: TransactionSQL, notInDocument: boolean): Promise<number> {
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
const insertNew = (tx: TransactionSQL, asRestored: boolean, now: string) =>
  asRestored
    ? tx`INSERT INTO articles (id, code, tag, title, description, url, picurl, keywords, deleted, rev, created_at, updated_at)
         SELECT d.id, d.code, d.tag, d.title, d.description, d.url, d.picurl, d.keywords, d.deleted,
                CASE WHEN h.rev IS NOT NULL AND coalesce(d.rev, 1) <= h.rev THEN h.rev + 1 ELSE coalesce(d.rev, 1) END,
                coalesce(d.created_at, ${now}), coalesce(d.updated_at, d.created_at, ${now})
         FROM doc_in d LEFT JOIN rev_high h ON h.id = d.id ORDER BY d.idx`
    : tx`INSERT INTO articles (id, code, tag, title, description, url, picurl, keywords, deleted, rev, created_at, updated_at)
         SELECT d.id, d.code, d.tag, d.title, d.description, d.url, d.picurl, d.keywords, d.deleted,
                CASE WHEN h.rev IS NOT NULL THEN h.rev + 1 ELSE 1 END, ${now}, ${now}
         FROM doc_in d LEFT JOIN rev_high h ON h.id = d.id WHERE d.status IS NULL ORDER BY d.idx`;

/** When a bulk write happens (the clock's reading), and how many backups to keep per matter. */
export interface BulkClock {
  now: number;
  keep: number;
}

export async function importDocumentPg(sql: SQL, doc: BulkDocument, mode: "merge" | "init", at: BulkClock): Promise<ImportResult> {
  const now = new Date(at.now).toISOString();
  return sql.begin(async (tx) => {
    await lockWrites(tx);
    // Of exactly what the init replaces: in its own transaction, after the lock.
    const backup = mode === "init" && doc.articles ? await createBackupPg(tx, "articles", "auto", at.now, at.keep) : undefined;
    const articles = doc.articles;
    const result: ImportResult = {
      added: 0,
      updated: 0,
      unchanged: 0,
      removed: 0,
      total: articles?.count ?? 0,
      tags: 0,
      rules: { added: 0, updated: 0, unchanged: 0 },
      texts: 0,
      menu: false,
      ...(backup ? { backup: stripCounts(backup) } : {}),
    };
    const empty = !(await tx`SELECT 1 FROM articles LIMIT 1`).length;
    if (articles && mode === "init" && empty && !articles.missingIds) {
      await insertDirectly(tx, articles, now, false);
      result.added = articles.count;
    } else if (articles) {
      await loadRecords(tx, articles);
      // A record without id takes the id of the live article with its code, in both modes.
      if (articles.missingIds) {
        await tx`UPDATE doc_in d SET id = a.id FROM articles a WHERE d.id IS NULL AND d.code IS NOT NULL AND NOT a.deleted AND a.code IS NOT NULL AND lower(a.code) = lower(d.code)`;
        await mintIds(tx);
      }
      if (mode === "merge") await refuseTakenCodes(tx);
      await tx`UPDATE doc_in d SET status = CASE WHEN a.code IS NOT DISTINCT FROM d.code AND a.tag IS NOT DISTINCT FROM d.tag AND a.title = d.title
                 AND a.description = d.description AND a.url = d.url AND a.picurl IS NOT DISTINCT FROM d.picurl AND a.keywords = d.keywords
                 AND a.deleted = d.deleted THEN 'same' ELSE 'changed' END
               FROM articles a WHERE a.id = d.id`;
      // Purge first in init mode: a document may give a removed article's code to a new id.
      if (mode === "init") result.removed = await purgeArticles(tx, true);
      // Live codes are unique per row written, so the codes that move are released before any is written.
      await tx`UPDATE articles a SET code = NULL FROM doc_in d
               WHERE a.id = d.id AND d.status = 'changed' AND NOT a.deleted AND a.code IS NOT NULL AND (a.code IS DISTINCT FROM d.code OR d.deleted)`;
      await tx`UPDATE articles a SET code = d.code, tag = d.tag, title = d.title, description = d.description, url = d.url, picurl = d.picurl,
                 keywords = d.keywords, deleted = d.deleted, rev = a.rev + 1, updated_at = ${now}, gen = nextval('change_gen')
               FROM doc_in d WHERE a.id = d.id AND d.status = 'changed'`;
      await insertNew(tx, false, now);
      // Status: null (new), same or changed.
      for (const r of (await tx`SELECT status, count(*)::int AS n FROM doc_in GROUP BY status`) as { status: string | null; n: number }[]) {
        if (r.status === null) result.added = r.n;
        else if (r.status === "changed") result.updated = r.n;
        else result.unchanged = r.n;
      }
    }
    if (doc.tags) {
      await (mode === "init" ? content.replaceTags(tx, doc.tags) : content.mergeTags(tx, doc.tags));
      result.tags = Object.keys(doc.tags).length;
    }
    if (doc.rules) result.rules = await content.mergeRules(tx, doc.rules);
    if (doc.texts) {
      await content.mergeTexts(tx, doc.texts);
      result.texts = Object.keys(doc.texts).length;
    }
    if (doc.menu) {
      await content.setMenu(tx, doc.menu, now);
      result.menu = true;
    }
    return result;
  });
}

/** A merge may not give a record a live code that an article the document leaves alone keeps. */
async function refuseTakenCodes(tx: TransactionSQL): Promise<void> {
  const taken = (await tx`SELECT d.idx, d.code, a.id AS holder FROM doc_in d
      JOIN articles a ON NOT a.deleted AND a.code IS NOT NULL AND lower(a.code) = lower(d.code)
      WHERE d.code IS NOT NULL AND NOT d.deleted AND a.id <> d.id AND NOT EXISTS (SELECT 1 FROM doc_in x WHERE x.id = a.id)
      ORDER BY d.idx LIMIT ${MAX_PROBLEMS_LISTED + 1}`) as { idx: number; code: string; holder: string }[];
  if (!taken.length) return;
  const problems = new ProblemList();
  for (const t of taken) problems.push({ section: "articles", index: t.idx, field: "code", reason: `"${t.code}" is already the code of live article "${t.holder}"` });
  throw new InvalidDocumentError(problems);
}

/** Replaces `matter` with the document's content, exactly (revs and times included). One transaction. */
export async function restoreDocumentPg(sql: SQL, doc: BulkDocument, matter: Matter, at: BulkClock): Promise<RestoreResult> {
  const now = new Date(at.now).toISOString();
  return sql.begin(async (tx) => {
    await lockWrites(tx);
    const sections = SECTIONS[matter];
    const result: RestoreResult = { matter, backup: stripCounts(await createBackupPg(tx, matter, "auto", at.now, at.keep)) };
    if (sections.includes("articles")) {
      await purgeArticles(tx, false);
      if (doc.articles?.missingIds) {
        await loadRecords(tx, doc.articles);
        await mintIds(tx);
        await insertNew(tx, true, now);
      } else if (doc.articles) {
        // The purge left the table empty, and a backup's records all have ids.
        await insertDirectly(tx, doc.articles, now, true);
      }
      result.articles = doc.articles?.count ?? 0;
      await content.replaceTags(tx, doc.tags ?? {});
      result.tags = Object.keys(doc.tags ?? {}).length;
    }
    if (sections.includes("rules")) {
      await content.replaceRules(tx, doc.rules ?? []);
      result.rules = (doc.rules ?? []).length;
    }
    if (sections.includes("texts")) {
      await content.replaceTexts(tx, doc.texts ?? {});
      result.texts = Object.keys(doc.texts ?? {}).length;
    }
    if (sections.includes("menu")) {
      if (doc.menu !== undefined) await content.setMenu(tx, doc.menu, now);
      result.menu = doc.menu === undefined ? "kept" : doc.menu ? "stored" : "removed";
    }
    return result;
  });
}
