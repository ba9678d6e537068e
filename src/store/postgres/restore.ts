/**
 * Restores on PostgreSQL, with the SQLite store's semantics (sqlite/bulk.ts restoreDocument): what
 * the document's matter covers is replaced whole, in one transaction under the write lock.
 */
import type { SQL, TransactionSQL } from "bun";
import { SECTIONS, type BulkDocument, type Matter } from "../../doc/document.ts";
import { createBackupPg } from "./backups.ts";
import { lockWrites, stripCounts, type BulkClock } from "./bulk.ts";
import * as content from "./content.ts";
import type { Mirror } from "./mirror.ts";
import type { Outcome } from "./outcome.ts";
import { generation, insertDirectly, insertNew, loadRecords, mintIds, purgeArticles } from "./rows.ts";
import { type BackupInfo } from "../backup-ids.ts";
import { type RestoreResult } from "../writer.ts";

/**
 * Replaces `matter` with the document's content, exactly (revs and times included), in one
 * transaction, after an automatic backup of what it replaces (taken alongside: backupAlongside).
 * `mirror`: the read copy, loaded alongside (mirror.ts).
 */
export async function restoreDocumentPg(sql: SQL, doc: BulkDocument, matter: Matter, at: BulkClock, mirror?: Mirror, outcome?: Outcome<RestoreResult>): Promise<RestoreResult> {
  const now = new Date(at.now).toISOString();
  return sql.begin(async (tx) => {
    await lockWrites(tx);
    const { taken } = await backupAlongside(sql, tx, matter, at);
    try {
      const result = await replace(tx, doc, matter, now, mirror);
      const { matter: _matter, ...replaced } = result;
      const answer: RestoreResult = { matter, backup: stripCounts(await taken), ...replaced };
      return outcome ? outcome.mark(tx, answer) : answer;
    } finally {
      // A restore that failed still waits for its backup (kept, as on SQLite): nothing is left running.
      await taken.catch(() => {});
    }
  });
}

/** The restore's writes, in its transaction after the write lock. */
async function replace(tx: TransactionSQL, doc: BulkDocument, matter: Matter, now: string, mirror?: Mirror): Promise<Omit<RestoreResult, "backup">> {
  const sections = SECTIONS[matter];
  const result: Omit<RestoreResult, "backup"> = { matter };
  if (sections.includes("articles")) {
    await purgeArticles(tx, false);
    if (doc.articles?.missingIds) {
      await loadRecords(tx, doc.articles);
      await mintIds(tx);
      await insertNew(tx, true, now);
    } else if (doc.articles) {
      // The purge left the table empty, and a backup's records all have ids.
      await insertDirectly(tx, doc.articles, now, true, mirror);
    } else {
      mirror?.replaceAll();
    }
    mirror?.reached(await generation(tx));
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
    const had = ((await tx`SELECT 1 FROM menu WHERE id = 1`) as unknown[]).length > 0;
    if (doc.menu !== undefined) await content.setMenu(tx, doc.menu, now);
    result.menu = doc.menu === undefined ? "kept" : doc.menu ? "stored" : had ? "removed" : "none";
  }
  // An `all` document written before synonyms has none: they are kept, as its menu.
  if (sections.includes("synonyms") && doc.synonyms !== undefined) {
    await content.replaceSynonyms(tx, doc.synonyms);
    result.synonyms = doc.synonyms.length;
  }
  return result;
}

/**
 * The automatic backup of what a restore replaces, taken on a connection of its own from the
 * restore's snapshot (exported after the write lock, before any write), while the restore removes
 * and writes: encoding and compressing a million articles is this process's work, removing them is
 * PostgreSQL's, and one after the other left each idle in turn (≈ 5 s at 1M). It commits on its own
 * as soon as it is written, as on SQLite, where the backup file is written before the restore's
 * transaction: a restore that fails leaves it. Needs a second connection in the pool (Bun's default is 10).
 */
async function backupAlongside(sql: SQL, tx: TransactionSQL, matter: Matter, at: BulkClock): Promise<{ taken: Promise<BackupInfo & { counts: Record<string, number> }> }> {
  const [{ snapshot }] = (await tx`SELECT pg_export_snapshot() AS snapshot`) as [{ snapshot: string }];
  if (!/^[0-9A-F-]+$/i.test(snapshot)) throw new Error(`unexpected snapshot id from the database: ${JSON.stringify(snapshot)}`);
  // The snapshot is the restore's only while its transaction runs without an error: one the restore
  // meets (a duplicate key) ends it, and a backup importing it after that fails — the backup a failed
  // restore keeps was lost so on a loaded machine (a test that failed once in a fresh clone). The
  // restore writes nothing before the backup holds the snapshot.
  let imported!: () => void;
  const holding = new Promise<void>((resolve) => (imported = resolve));
  const backup = sql.begin(async (b) => {
    await b`SET TRANSACTION ISOLATION LEVEL REPEATABLE READ`;
    await b.unsafe(`SET TRANSACTION SNAPSHOT '${snapshot}'`);
    imported();
    return createBackupPg(b, matter, "auto", at.now, at.keep);
  });
  // Awaited by the restore; handled here too, in case the restore fails before it looks.
  backup.catch(() => {});
  await Promise.race([holding, backup.then(() => {}, () => {})]);
  // Wrapped: an async function answering the promise itself would wait for it.
  return { taken: backup };
}
