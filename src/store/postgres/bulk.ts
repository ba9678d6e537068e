/**
 * Bulk imports on PostgreSQL, with the SQLite store's semantics (sqlite/bulk.ts): the document's
 * records are streamed from its file into a temporary table a batch at a time (rows.ts), then
 * merged into the articles by set-based statements inside the one transaction, under the write
 * lock. A record with any problem was refused before (doc.ts); what depends on the stored articles
 * (a live code kept by an article the merge leaves alone) is refused here, before any article is
 * written, and the transaction rolls back whole.
 */
import type { SQL, TransactionSQL } from "bun";
import type { BulkDocument } from "../../doc/document.ts";
import { InvalidDocumentError, MAX_PROBLEMS_LISTED, ProblemList } from "../../base/errors.ts";
import { createBackupPg } from "./backups.ts";
import { LOCKS } from "./connect.ts";
import { SAME_CONTENT, sameField, setContent } from "./columns.ts";
import { CONTENT } from "../../article/fields.ts";
import type { Mirror } from "./mirror.ts";
import type { Outcome } from "./outcome.ts";
import { generation, insertDirectly, insertNew, keptTaught, loadRecords, mintIds, purgeArticles } from "./rows.ts";
import * as content from "./content.ts";
import { countLost, DROPPED_NAMED, NAMED_IN_REPORT, type Dropped, type ImportOptions, type ImportResult } from "../writer.ts";
import { questionsLeftOut, questionsMerged } from "../left-out.ts";
import { scopedWriteLock } from "./account-schema.ts";
import { type BackupInfo } from "../backup-ids.ts";
import { mergeSynonymGroups } from "../../doc/synonyms.ts";

export const stripCounts = ({ counts: _counts, ...info }: BackupInfo & { counts: Record<string, number> }): BackupInfo => info;

// An account's writes are ordered among themselves (its own sequence), not behind another account's.
export const lockWrites = (tx: TransactionSQL) => tx.unsafe(`SELECT pg_advisory_xact_lock(${scopedWriteLock(LOCKS.write)})`);

/** The content fields each of `ids` (changed rows of doc_in) differs in from its stored article, in the field table's order. */
async function fieldsChanged(tx: TransactionSQL, ids: readonly string[]): Promise<Record<string, string[]>> {
  if (!ids.length) return {};
  const differs = CONTENT.map((f) => `NOT (${sameField(f)}) AS "${f.name}"`).join(", ");
  const rows = (await tx.unsafe(`SELECT d.id, ${differs} FROM doc_in d JOIN articles a ON a.id = d.id WHERE d.id = ANY($1::text[])`, [[...ids]])) as Record<string, unknown>[];
  return Object.fromEntries(rows.map((r) => [r.id as string, CONTENT.filter((f) => r[f.name] === true).map((f) => f.name)]));
}

/** How many rows `rows` (id, idx) gives, and the first `named` ids in the document's order. */
async function namedCount(tx: TransactionSQL, rows: string, named = NAMED_IN_REPORT): Promise<{ count: number; ids: string[] }> {
  const got = (await tx.unsafe(`SELECT id, count(*) OVER ()::int AS n FROM (${rows}) r ORDER BY idx LIMIT ${named}`)) as { id: string; n: number }[];
  return { count: got[0]?.n ?? 0, ids: got.map((r) => r.id) };
}

/**
 * The changed articles whose record leaves out keywords the article holds, in any case, as
 * store/left-out.ts keywordsLeftOut reads them, but with lower() under the database's locale: on a
 * database created with LC_CTYPE=C only ASCII letters fold, and a non-ASCII keyword held in another
 * case (É, Ä) is named as lost there alone. Only the report says so; what is written is the record.
 */
async function keywordsDropped(tx: TransactionSQL): Promise<Dropped> {
  const lostOf = (json: string) => `SELECT k FROM json_array_elements_text(a.keywords::json) k
       WHERE lower(k) NOT IN (SELECT lower(g) FROM json_array_elements_text(${json}) g)`;
  const { count, ids } = await namedCount(tx, `SELECT d.id, d.idx FROM doc_in d JOIN articles a ON a.id = d.id WHERE d.status = 'changed' AND EXISTS (${lostOf("d.keywords::json")})`, DROPPED_NAMED);
  if (!ids.length) return { count, ids, lost: [], more: [] };
  // What each named article lost, by the same comparison: DROPPED_NAMED rows at most.
  const rows = (await tx.unsafe(
    `SELECT d.id, (SELECT coalesce(json_agg(x.k), '[]'::json) FROM (${lostOf("d.keywords::json")}) x)::text AS lost
     FROM doc_in d JOIN articles a ON a.id = d.id WHERE d.status = 'changed' AND d.id = ANY(string_to_array($1::text, ','))`,
    // Ids hold no comma (article/text-rules.ts ID_PATTERN).
    [ids.join(",")],
  )) as { id: string; lost: string }[];
  const byId = new Map(rows.map((r) => [r.id, JSON.parse(r.lost) as string[]]));
  const out: Dropped = { count: 0, ids: [], lost: [], more: [] };
  for (const id of ids) countLost(out, id, byId.get(id) ?? []);
  return { ...out, count };
}

/** Rows read a page at a time: a million-record import holds no more of them at once. */
const PAGE = 1000;

/**
 * Each row `page(after)` gives — the rows past index `after`, in index order, PAGE at most — handed
 * to `each`, a page at a time, until a page comes short.
 */
async function eachRow<T extends { idx: number }>(page: (after: number) => Promise<T[]>, each: (row: T) => void | Promise<void>): Promise<void> {
  for (let after = -1; ; ) {
    const rows = await page(after);
    for (const r of rows) await each(r);
    if (rows.length < PAGE) return;
    after = (rows[rows.length - 1] as T).idx;
  }
}

/**
 * The changed articles whose record leaves out questions the article holds, compared in JavaScript
 * as a follower's message meets them (store/left-out.ts): only rows whose questions differ as
 * stored are read, few where questions are taught.
 */
async function questionsDropped(tx: TransactionSQL): Promise<ImportResult["questions_dropped"]> {
  const out: ImportResult["questions_dropped"] = { count: 0, ids: [], lost: [], more: [] };
  await eachRow(
    async (after) =>
      (await tx`SELECT d.idx, d.id, a.questions AS held, d.questions AS given FROM doc_in d JOIN articles a ON a.id = d.id
                WHERE d.status = 'changed' AND d.idx > ${after} AND a.questions <> '[]' AND a.questions <> d.questions ORDER BY d.idx LIMIT ${PAGE}`) as { idx: number; id: string; held: string; given: string }[],
    (r) => {
      const lost = questionsLeftOut(JSON.parse(r.held), JSON.parse(r.given));
      if (lost.length) countLost(out, r.id, lost);
    },
  );
  return out;
}

/**
 * Records listing questions keep the article's others after their own (writer.ts ImportOptions),
 * before keptTaught() fills the records that list none: only rows whose questions differ as stored
 * are read and rewritten, few where questions are taught. What each kept is noted beside it for
 * questionsKept().
 */
async function mergeQuestions(tx: TransactionSQL): Promise<void> {
  await tx`ALTER TABLE doc_in ADD COLUMN kept text`;
  await eachRow(
    async (after) =>
      (await tx`SELECT d.idx, a.questions AS held, d.questions AS given FROM doc_in d JOIN articles a ON a.id = d.id
                WHERE d.idx > ${after} AND d.questions <> 'null' AND a.questions <> '[]' AND a.questions <> d.questions ORDER BY d.idx LIMIT ${PAGE}`) as { idx: number; held: string; given: string }[],
    async (r) => {
      const m = questionsMerged(JSON.parse(r.held), JSON.parse(r.given));
      if (m.kept.length) await tx`UPDATE doc_in SET questions = ${JSON.stringify(m.questions)}, kept = ${JSON.stringify(m.kept)} WHERE idx = ${r.idx}`;
    },
  );
}

/** The articles that kept questions their record does not list (mergeQuestions), changed or not: a question taken out of the file stays, and is said. */
async function questionsKept(tx: TransactionSQL): Promise<Dropped> {
  const out: Dropped = { count: 0, ids: [], lost: [], more: [] };
  await eachRow(
    async (after) => (await tx`SELECT idx, id, kept FROM doc_in WHERE kept IS NOT NULL AND idx > ${after} ORDER BY idx LIMIT ${PAGE}`) as { idx: number; id: string; kept: string }[],
    (r) => countLost(out, r.id, JSON.parse(r.kept)),
  );
  return out;
}

/** When a bulk write happens (the clock's reading), and how many backups to keep per matter. */
export interface BulkClock {
  now: number;
  keep: number;
}

/** `mirror`: the read copy, loaded alongside when the write replaces every article (mirror.ts). */
export async function importDocumentPg(sql: SQL, doc: BulkDocument, mode: "merge" | "init", at: BulkClock, mirror?: Mirror, outcome?: Outcome<ImportResult>, opts: ImportOptions = {}): Promise<ImportResult> {
  const now = new Date(at.now).toISOString();
  return sql.begin(async (tx) => {
    await lockWrites(tx);
    // Of exactly what the init replaces: in its own transaction, after the lock.
    const backup = mode === "init" && doc.articles ? await createBackupPg(tx, "articles", "auto", at.now, at.keep) : undefined;
    const articles = doc.articles;
    const result: ImportResult = {
      added: 0,
      updated: 0,
      updated_ids: [],
      updated_fields: {},
      unchanged: 0,
      removed: 0,
      undeleted: 0,
      undeleted_ids: [],
      deleted_now: 0,
      deleted_now_ids: [],
      keywords_dropped: { count: 0, ids: [], lost: [], more: [] },
      questions_dropped: { count: 0, ids: [], lost: [], more: [] },
      // Absent when the record's questions replace the article's: nothing is kept.
      ...(opts.replaceQuestions ? {} : { questions_kept: { count: 0, ids: [], lost: [], more: [] } }),
      tag_dropped: { count: 0, ids: [] },
      description_dropped: { count: 0, ids: [] },
      bodies_replaced: { count: 0, ids: [] },
      total: articles?.count ?? 0,
      tags: 0,
      tags_removed: [],
      rules: { added: 0, updated: 0, unchanged: 0 },
      texts: 0,
      menu: false,
      synonyms: { added: 0, updated: 0, unchanged: 0 },
      ...(backup ? { backup: stripCounts(backup) } : {}),
    };
    const empty = !(await tx`SELECT 1 FROM articles LIMIT 1`).length;
    if (articles && mode === "init" && empty && !articles.missingIds) {
      await insertDirectly(tx, articles, now, false, mirror);
      result.added = articles.count;
      mirror?.reached(await generation(tx));
    } else if (articles) {
      await loadRecords(tx, articles, { keepTaught: true });
      // A record without id takes the id of the live article with its code, in both modes.
      if (articles.missingIds) {
        await tx`UPDATE doc_in d SET id = a.id FROM articles a WHERE d.id IS NULL AND d.code IS NOT NULL AND NOT a.deleted AND a.code IS NOT NULL AND lower(a.code) = lower(d.code)`;
        await mintIds(tx);
      }
      if (!opts.replaceQuestions) await mergeQuestions(tx);
      await keptTaught(tx);
      if (mode === "merge") await refuseTakenCodes(tx);
      await tx`UPDATE doc_in d SET status = CASE WHEN ${tx.unsafe(SAME_CONTENT)} THEN 'same' ELSE 'changed' END FROM articles a WHERE a.id = d.id`;
      const undeleted = await namedCount(tx, "SELECT d.id, d.idx FROM doc_in d JOIN articles a ON a.id = d.id WHERE d.status = 'changed' AND a.deleted AND NOT d.deleted");
      [result.undeleted, result.undeleted_ids] = [undeleted.count, undeleted.ids];
      const deletedNow = await namedCount(tx, "SELECT d.id, d.idx FROM doc_in d JOIN articles a ON a.id = d.id WHERE d.status = 'changed' AND NOT a.deleted AND d.deleted");
      [result.deleted_now, result.deleted_now_ids] = [deletedNow.count, deletedNow.ids];
      result.updated_ids = (await namedCount(tx, "SELECT id, idx FROM doc_in WHERE status = 'changed'")).ids;
      result.updated_fields = await fieldsChanged(tx, result.updated_ids);
      result.keywords_dropped = await keywordsDropped(tx);
      result.questions_dropped = await questionsDropped(tx);
      if (!opts.replaceQuestions) result.questions_kept = await questionsKept(tx);
      result.tag_dropped = await namedCount(tx, "SELECT d.id, d.idx FROM doc_in d JOIN articles a ON a.id = d.id WHERE d.status = 'changed' AND a.tag IS NOT NULL AND d.tag IS NULL");
      result.description_dropped = await namedCount(tx, "SELECT d.id, d.idx FROM doc_in d JOIN articles a ON a.id = d.id WHERE d.status = 'changed' AND a.description <> '' AND d.description = ''");
      result.bodies_replaced = await namedCount(tx, "SELECT d.id, d.idx FROM doc_in d JOIN articles a ON a.id = d.id WHERE d.status = 'changed' AND a.body <> '' AND d.body IS DISTINCT FROM a.body");
      // Purge first in init mode: a document may give a removed article's code to a new id.
      if (mode === "init") result.removed = await purgeArticles(tx, true);
      // Live codes are unique per row written, so the codes that move are released before any is written.
      await tx`UPDATE articles a SET code = NULL FROM doc_in d
               WHERE a.id = d.id AND d.status = 'changed' AND NOT a.deleted AND a.code IS NOT NULL AND (a.code IS DISTINCT FROM d.code OR d.deleted)`;
      await tx`UPDATE articles a SET ${tx.unsafe(setContent("d"))}, rev = a.rev + 1, updated_at = ${now}, gen = nextval('change_gen')
               FROM doc_in d WHERE a.id = d.id AND d.status = 'changed'`;
      await insertNew(tx, false, now);
      // Status: null (new), same or changed.
      for (const r of (await tx`SELECT status, count(*)::int AS n FROM doc_in GROUP BY status`) as { status: string | null; n: number }[]) {
        if (r.status === null) result.added = r.n;
        else if (r.status === "changed") result.updated = r.n;
        else result.unchanged = r.n;
      }
    }
    if (doc.tagsRemoved && mode === "merge") result.tags_removed = await content.removeTags(tx, doc.tagsRemoved);
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
    if (doc.synonyms) {
      const { groups, ...merged } = mergeSynonymGroups(await content.synonyms(tx), doc.synonyms);
      if (merged.added || merged.updated) await content.replaceSynonyms(tx, groups);
      result.synonyms = merged;
    }
    return outcome ? outcome.mark(tx, result) : result;
  });
}

/** A merge may not give a record a live code that an article the document leaves alone keeps. */
async function refuseTakenCodes(tx: TransactionSQL): Promise<void> {
  const taken = (await tx`SELECT d.idx, d.id, d.code, a.id AS holder FROM doc_in d
      JOIN articles a ON NOT a.deleted AND a.code IS NOT NULL AND lower(a.code) = lower(d.code)
      WHERE d.code IS NOT NULL AND NOT d.deleted AND a.id <> d.id AND NOT EXISTS (SELECT 1 FROM doc_in x WHERE x.id = a.id)
      ORDER BY d.idx LIMIT ${MAX_PROBLEMS_LISTED + 1}`) as { idx: number; id: string; code: string; holder: string }[];
  if (!taken.length) return;
  const problems = new ProblemList();
  for (const t of taken) problems.push({ section: "articles", index: t.idx, id: t.id, field: "code", reason: `"${t.code}" is already the code of live article "${t.holder}"` });
  throw new InvalidDocumentError(problems);
}
