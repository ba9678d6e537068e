/**
 * Bulk writes of whole documents: import (merge or init) and restore. Each checks the whole document
 * against the final state first, then writes it in one transaction (a crash leaves the old state or
 * the new one) after an automatic backup of what it replaces.
 */
import { contentOf, sameContent, type Article } from "../article.ts";
import { SECTIONS, type Matter, type ReplydDocument } from "../doc.ts";
import type { BackupInfo } from "./backups.ts";
import { checkCodes, resolveIds } from "./ids.ts";
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

/**
 * Bulk add (merge: upsert by id, or by code when a record has no id) or initialize (init: the
 * document's articles become the only ones; an automatic backup is taken first). The whole
 * document is checked against the final state before anything is written, then written in one transaction.
 */
export function importDocument(store: Store, doc: ReplydDocument, mode: "merge" | "init"): ImportResult {
  const records = doc.articles ?? [];
  const existingIds = store.articles.ids();
  // A record without id takes the id of the live article with its code, in both modes, so a re-import keeps ids.
  const resolved = resolveIds(records, true, existingIds, (code) => store.articles.getLiveByCode(code)?.id);
  checkCodes(resolved, mode === "merge" ? store.articles.liveCodes() : new Map());

  const backup = mode === "init" && doc.articles ? store.backup("articles", "auto") : undefined;
  const now = store.nowIso();
  const result: ImportResult = {
    added: 0,
    updated: 0,
    unchanged: 0,
    removed: 0,
    total: records.length,
    tags: 0,
    rules: { added: 0, updated: 0, unchanged: 0 },
    texts: 0,
    menu: false,
    ...(backup ? { backup } : {}),
  };

  // Past a few thousand records the search index is rebuilt afterwards rather than row by row.
  const bulk = records.length > BULK_INDEX_THRESHOLD || (mode === "init" && existingIds.size > BULK_INDEX_THRESHOLD);
  store.writeArticles(bulk, () => {
    if (doc.articles) {
      // Purge first in init mode: a document may give a removed article's code to a new id.
      if (mode === "init" && existingIds.size) {
        const keep = new Set(resolved.map((r) => r.id));
        for (const id of existingIds) if (!keep.has(id) && store.articles.purge(id)) result.removed++;
      }
      const currents = new Map<string, Article>();
      for (const rec of resolved)
        if (existingIds.has(rec.id)) {
          const current = store.articles.get(rec.id);
          if (current) currents.set(rec.id, current);
        }
      // Live codes are unique per statement, so release the codes that move before writing any:
      // two articles may swap codes within one document.
      for (const rec of resolved) {
        const current = currents.get(rec.id);
        if (current && !current.deleted && current.code !== null && current.code !== (rec.code ?? null)) store.articles.releaseCode(rec.id);
      }
      for (const rec of resolved) {
        const current = currents.get(rec.id);
        if (!current) {
          store.articles.insertRecord(rec, 1, now, now);
          result.added++;
          continue;
        }
        const content = contentOf(rec);
        if (sameContent(contentOf(current), content)) result.unchanged++;
        else {
          store.articles.update({ ...current, ...content, rev: current.rev + 1, updated_at: now });
          result.updated++;
        }
      }
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
 * Replaces `matter` with the document's content, exactly (revs and times included), after an
 * automatic backup of what it replaces. One transaction: a crash leaves the old state or the new.
 */
export function restoreDocument(store: Store, doc: ReplydDocument, matter: Matter): RestoreResult {
  const sections = SECTIONS[matter];
  // The document replaces every article, and its own duplicate codes were refused when it was validated.
  const resolved = sections.includes("articles") ? resolveIds(doc.articles ?? [], false, new Set(), () => undefined) : [];
  const backup = store.backup(matter, "auto");
  const now = store.nowIso();
  const result: RestoreResult = { matter, backup };
  store.writeArticles(sections.includes("articles"), () => {
    if (sections.includes("articles")) {
      store.articles.deleteAll();
      for (const rec of resolved) store.articles.insertRecord(rec, rec.rev ?? 1, rec.created_at ?? now, rec.updated_at ?? rec.created_at ?? now);
      result.articles = resolved.length;
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
