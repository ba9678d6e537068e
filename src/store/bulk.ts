/**
 * Bulk writes of whole documents: import (merge or init) and restore. Each checks the whole document
 * against the final state first, then writes it in one transaction (a crash leaves the old state or
 * the new one) after an automatic backup of what it replaces. The articles are handed over again
 * for each pass (doc.ts Articles: read again from the uploaded file), never held.
 */
import { contentOf, sameContent, type ArticleInput } from "../article.ts";
import { SECTIONS, type Articles, type BulkDocument, type Matter } from "../doc.ts";
import { InvalidDocumentError, ProblemList } from "../errors.ts";
import type { BackupInfo } from "./backups.ts";
import { DocumentIds } from "./ids.ts";
import type { Store } from "./store.ts";

/** Bulk writes above this many records rebuild the search index afterwards instead of row by row. */
export const BULK_INDEX_THRESHOLD = 2000;

export interface ImportResult {
  added: number;
  updated: number;
  unchanged: number;
  removed: number;
  total: number;
  tags: number;
  rules: { added: number; updated: number; unchanged: number };
  texts: number;
  /** The document's menu was stored (import never removes one; it is not pushed). */
  menu: boolean;
  /** The automatic backup taken before an init replaced the articles. */
  backup?: BackupInfo;
}

export interface RestoreResult {
  matter: Matter;
  articles?: number;
  tags?: number;
  rules?: number;
  texts?: number;
  /** The menu: stored, removed (the document's is null), or kept (an older all document has none). */
  menu?: "stored" | "removed" | "kept";
  /** The automatic backup of what the restore replaced. */
  backup: BackupInfo;
}

/** Where each record's id comes from: its own, or worked out once before writing (ids.ts). */
type IdOf = (record: ArticleInput, index: number) => string;
const ownId: IdOf = (r) => r.id as string;
const withId = (rec: ArticleInput, id: string) => (id === rec.id ? rec : { ...rec, id }) as ArticleInput & { id: string };

/**
 * Bulk add (merge: upsert by id, or by code when a record has no id) or initialize (init: the
 * document's articles become the only ones; an automatic backup is taken first). The whole
 * document is checked against the final state before anything is written, then written in one
 * transaction, its articles read again from the document's source as they are written: memory
 * holds a few bytes per record, never the records.
 */
export function importDocument(store: Store, doc: BulkDocument, mode: "merge" | "init"): ImportResult {
  const articles = doc.articles;
  const count = articles?.count ?? 0;
  const existing = store.articles.total();
  const checkCodes = mode === "merge" && existing > 0;
  // A record without id takes the id of the live article with its code, in both modes, so a re-import keeps ids.
  const ids =
    articles && (articles.missingIds || checkCodes)
      ? new DocumentIds(articles, true, (id) => store.articles.exists(id), (code) => store.articles.liveIdByCode(code))
      : null;
  const idOf: IdOf = ids ? (r, i) => ids.of(r, i) : ownId;
  if (checkCodes && articles && ids) refuseTakenCodes(store, articles, ids);

  const backup = mode === "init" && articles ? store.backup("articles", "auto") : undefined;
  const now = store.nowIso();
  const result: ImportResult = {
    added: 0,
    updated: 0,
    unchanged: 0,
    removed: 0,
    total: count,
    tags: 0,
    rules: { added: 0, updated: 0, unchanged: 0 },
    texts: 0,
    menu: false,
    ...(backup ? { backup } : {}),
  };

  // Past a few thousand records the search index is rebuilt afterwards rather than row by row.
  const bulk = count > BULK_INDEX_THRESHOLD || (mode === "init" && existing > BULK_INDEX_THRESHOLD);
  store.writeArticles(bulk, () => {
    if (articles) {
      const replacing = mode === "init" && existing > 0;
      const kept = replacing ? store.articles.noteKept() : null;
      // Live codes are unique per statement, so the codes that move are released before any is
      // written (two articles may swap codes within one document); released records are noted by
      // index, a bit each, as their stored code no longer says whether they changed.
      const released = existing ? new Uint8Array((count + 7) >>> 3) : null;
      if (released)
        articles.each((rec, index) => {
          const current = store.articles.get(idOf(rec, index));
          if (current && !current.deleted && current.code !== null && (current.code !== (rec.code ?? null) || rec.deleted)) {
            store.articles.releaseCode(current.id);
            released[index >>> 3] = (released[index >>> 3] as number) | (1 << (index & 7));
          }
        });
      articles.each((rec, index) => {
        const id = idOf(rec, index);
        kept?.keep(id);
        // On init, a live code still held here belongs to an article the document leaves out (one in
        // it would have had its code released, or be a duplicate the document was refused for).
        if (replacing && rec.code && !rec.deleted) {
          const holder = store.articles.liveIdByCode(rec.code);
          if (holder !== undefined && holder !== id && store.articles.purge(holder)) result.removed++;
        }
        const current = existing ? store.articles.get(id) : null;
        if (!current) {
          store.articles.insertRecord(withId(rec, id), 1, now, now);
          result.added++;
          return;
        }
        const content = contentOf(rec);
        const moved = released !== null && ((released[index >>> 3] as number) & (1 << (index & 7))) !== 0;
        if (!moved && sameContent(contentOf(current), content)) result.unchanged++;
        else {
          store.articles.update({ ...current, ...content, rev: current.rev + 1, updated_at: now });
          result.updated++;
        }
      });
      if (kept) result.removed += kept.purgeRest(bulk);
    }
    if (doc.tags) {
      if (mode === "init") store.content.replaceTags(doc.tags);
      else store.content.mergeTags(doc.tags);
      result.tags = Object.keys(doc.tags).length;
    }
    if (doc.rules) result.rules = store.content.mergeRules(doc.rules);
    if (doc.texts) {
      store.content.mergeTexts(doc.texts);
      result.texts = Object.keys(doc.texts).length;
    }
    if (doc.menu) {
      store.content.setMenu(doc.menu, now);
      result.menu = true;
    }
  });
  return result;
}

/**
 * A merge may not give a record a live code another article keeps: one the document leaves alone.
 * An article the document holds too is writing its own code anew, so it does not keep it.
 */
function refuseTakenCodes(store: Store, articles: Articles, ids: DocumentIds): void {
  const problems = new ProblemList();
  articles.each((rec, index) => {
    if (!rec.code || rec.deleted) return;
    const holder = store.articles.liveIdByCode(rec.code);
    if (holder !== undefined && holder !== ids.of(rec, index) && !ids.mayHold(holder))
      problems.push({ section: "articles", index, field: "code", reason: `"${rec.code}" is already the code of live article "${holder}"` });
  });
  if (problems.length) throw new InvalidDocumentError(problems);
}

/**
 * Replaces `matter` with the document's content, exactly (revs and times included), after an
 * automatic backup of what it replaces. One transaction: a crash leaves the old state or the new.
 */
export function restoreDocument(store: Store, doc: BulkDocument, matter: Matter): RestoreResult {
  const sections = SECTIONS[matter];
  const articles = sections.includes("articles") ? doc.articles : undefined;
  // The document replaces every article, and its own duplicate codes were refused when it was validated.
  const ids = articles?.missingIds ? new DocumentIds(articles, false, () => false, () => undefined) : null;
  const idOf: IdOf = ids ? (r, i) => ids.of(r, i) : ownId;
  const backup = store.backup(matter, "auto");
  const now = store.nowIso();
  const result: RestoreResult = { matter, backup };
  store.writeArticles(sections.includes("articles"), () => {
    if (sections.includes("articles")) {
      store.articles.deleteAll();
      articles?.each((rec, index) => {
        const id = idOf(rec, index);
        store.articles.insertRecord(withId(rec, id), rec.rev ?? 1, rec.created_at ?? now, rec.updated_at ?? rec.created_at ?? now);
      });
      result.articles = articles?.count ?? 0;
      store.content.replaceTags(doc.tags ?? {});
      result.tags = Object.keys(doc.tags ?? {}).length;
    }
    if (sections.includes("rules")) {
      store.content.replaceRules(doc.rules ?? []);
      result.rules = (doc.rules ?? []).length;
    }
    if (sections.includes("texts")) {
      store.content.replaceTexts(doc.texts ?? {});
      result.texts = Object.keys(doc.texts ?? {}).length;
    }
    if (sections.includes("menu")) {
      if (doc.menu !== undefined) store.content.setMenu(doc.menu, now);
      result.menu = doc.menu === undefined ? "kept" : doc.menu ? "stored" : "removed";
    }
  });
  return result;
}
