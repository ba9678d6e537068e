/**
 * Bulk writes of whole documents: import (merge or init) and restore. Each checks the whole document
 * against the final state first, then writes it in one transaction (a crash leaves the old state or
 * the new one) after an automatic backup of what it replaces. The articles are handed over again
 * for each pass (doc.ts Articles: read again from the uploaded file), never held.
 */
import { changedFields, contentOf, importedContent, sameContent, type ArticleInput } from "../../article/article.ts";
import { keywordsLeftOut, questionsLeftOut, questionsMerged } from "../left-out.ts";
import { SECTIONS, type BulkDocument, type Matter } from "../../doc/document.ts";
import { InvalidDocumentError, ProblemList } from "../../base/errors.ts";
import { DocumentIds } from "../ids.ts";
import { countLost, countNamed, NAMED_IN_REPORT, type ImportOptions, type ImportResult, type RestoreResult } from "../writer.ts";
import type { BackupInfo, BackupKind } from "../backup-ids.ts";
import { BULK_INDEX_THRESHOLD, type Model } from "../model/model.ts";
import { mergeSynonymGroups, sameSynonyms } from "../../doc/synonyms.ts";

/**
 * What a bulk write needs of the data folder (DataFolder is one): its model's articles, content
 * and writes, an automatic backup of what it replaces, and the time. Declared here, not taken as
 * DataFolder, so that the data folder, which hands itself to these functions, is not imported back.
 */
export type BulkTarget = Pick<Model, "articles" | "content" | "writeArticles"> & {
  backup(matter: Matter, kind: BackupKind): BackupInfo;
  nowIso(): string;
};

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
export function importDocument(store: BulkTarget, doc: BulkDocument, mode: "merge" | "init", opts: ImportOptions = {}): ImportResult {
  const articles = doc.articles;
  const count = articles?.count ?? 0;
  const existing = store.articles.total();
  // A record without id takes the id of the live article with its code, in both modes, so a re-import
  // keeps ids. A merge may not give a record a live code that an article the document leaves alone
  // keeps: each record's code is looked up as its id is worked out, and the holders checked after.
  const taken: [index: number, code: string, holder: string, id: string][] = [];
  const ids =
    articles && (articles.missingIds || existing)
      ? new DocumentIds(
          articles,
          true,
          (id) => store.articles.exists(id),
          (code) => store.articles.liveIdByCode(code),
          mode === "merge" && existing
            ? (rec, index, id) => {
                if (!rec.code || rec.deleted) return;
                const holder = store.articles.liveIdByCode(rec.code);
                if (holder !== undefined && holder !== id) taken.push([index, rec.code, holder, id]);
              }
            : undefined,
        )
      : null;
  const idOf: IdOf = ids ? (r, i) => ids.of(r, i) : ownId;
  const problems = new ProblemList();
  for (const [index, code, holder, id] of taken)
    if (!ids?.mayHold(holder)) problems.push({ section: "articles", index, id, field: "code", reason: `"${code}" is already the code of live article "${holder}"` });
  if (problems.length) throw new InvalidDocumentError(problems);

  const backup = mode === "init" && articles ? store.backup("articles", "auto") : undefined;
  const now = store.nowIso();
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
    total: count,
    tags: 0,
    tags_removed: [],
    rules: { added: 0, updated: 0, unchanged: 0 },
    texts: 0,
    menu: false,
    synonyms: { added: 0, updated: 0, unchanged: 0 },
    ...(backup ? { backup } : {}),
  };
  const synonyms = doc.synonyms ? mergeSynonymGroups(store.content.synonyms(), doc.synonyms) : null;
  const newSynonyms = synonyms !== null && (synonyms.added > 0 || synonyms.updated > 0);

  // Past a few thousand records the search index is rebuilt afterwards rather than row by row; new
  // synonyms rebuild the passage index whatever the count, as every article is filed with them (below).
  const bulk = count > BULK_INDEX_THRESHOLD || (mode === "init" && existing > BULK_INDEX_THRESHOLD);
  store.writeArticles(bulk, () => {
    if (articles) {
      const kept = mode === "init" && existing ? store.articles.noteKept() : null;
      // Live codes are unique per statement: before a record takes a live code, the article holding
      // it lets go. One the document holds too (two articles may swap codes) has its code released
      // and is noted, as its stored code no longer says whether it changed; on init, one it leaves
      // out is purged now rather than with the rest.
      // Each with the code it had: what an import changed of it is said against that (updated_fields).
      const released = new Map<string, string>();
      const free = (code: string, id: string) => {
        const holder = store.articles.liveIdByCode(code);
        if (holder === undefined || holder === id) return;
        if (kept && !ids?.mayHold(holder)) {
          if (store.articles.purge(holder)) result.removed++;
          return;
        }
        released.set(holder, store.articles.get(holder)?.code ?? code);
        store.articles.releaseCode(holder);
      };
      articles.each((rec, index) => {
        const id = idOf(rec, index);
        kept?.keep(id);
        const current = existing ? store.articles.get(id) : null;
        const content = importedContent(rec, current);
        // The article's questions the record does not list stay after its own (writer.ts ImportOptions).
        const merged = current && rec.questions !== undefined && !opts.replaceQuestions ? questionsMerged(current.questions, content.questions) : null;
        if (merged) content.questions = merged.questions;
        // Said of an article the import leaves unchanged too: a question taken out of the file stays (a B&B's walkthrough had been told nothing).
        if (merged?.kept.length && result.questions_kept) countLost(result.questions_kept, id, merged.kept);
        const takesCode = content.code !== null && !content.deleted;
        if (!current) {
          if (takesCode && existing) free(content.code as string, id);
          store.articles.insertRecord(withId(rec, id), 1, now, now);
          result.added++;
          return;
        }
        if (!released.has(id) && sameContent(contentOf(current), content)) {
          result.unchanged++;
          return;
        }
        if (takesCode && (current.deleted || current.code?.toLowerCase() !== content.code?.toLowerCase())) free(content.code as string, id);
        store.articles.update({ ...current, ...content, rev: current.rev + 1, updated_at: now });
        if (result.updated++ < NAMED_IN_REPORT) {
          result.updated_ids.push(id);
          // Against the code it held before another record took it (a property test: SQLite had said no field changed, PostgreSQL "code").
          const before = contentOf(current);
          result.updated_fields[id] = changedFields(released.has(id) ? { ...before, code: released.get(id) ?? before.code } : before, content);
        }
        const keywordsLost = keywordsLeftOut(current.keywords, content.keywords);
        if (keywordsLost.length) countLost(result.keywords_dropped, id, keywordsLost);
        const questionsLost = merged ? merged.lost : questionsLeftOut(current.questions, content.questions);
        if (questionsLost.length) countLost(result.questions_dropped, id, questionsLost);
        if (current.tag && !content.tag) countNamed(result.tag_dropped, id);
        if (current.description && !content.description) countNamed(result.description_dropped, id);
        if (current.body && current.body !== content.body) countNamed(result.bodies_replaced, id);
        if (current.deleted && !content.deleted && result.undeleted++ < NAMED_IN_REPORT) result.undeleted_ids.push(id);
        if (!current.deleted && content.deleted && result.deleted_now++ < NAMED_IN_REPORT) result.deleted_now_ids.push(id);
      });
      if (kept) result.removed += kept.purgeRest(bulk);
    }
    if (doc.tagsRemoved && mode === "merge") result.tags_removed = store.content.removeTags(doc.tagsRemoved);
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
    if (synonyms) {
      if (newSynonyms) {
        store.content.replaceSynonyms(synonyms.groups);
        store.articles.index.refilePassages();
      }
      const { groups: _, ...merged } = synonyms;
      result.synonyms = merged;
    }
  });
  return result;
}

/**
 * Replaces `matter` with the document's content, exactly (revs and times included), after an
 * automatic backup of what it replaces. One transaction: a crash leaves the old state or the new.
 */
export function restoreDocument(store: BulkTarget, doc: BulkDocument, matter: Matter): RestoreResult {
  const sections = SECTIONS[matter];
  const articles = sections.includes("articles") ? doc.articles : undefined;
  // The document replaces every article, and its own duplicate codes were refused when it was validated.
  const ids = articles?.missingIds ? new DocumentIds(articles, false, () => false, () => undefined) : null;
  const idOf: IdOf = ids ? (r, i) => ids.of(r, i) : ownId;
  const backup = store.backup(matter, "auto");
  const now = store.nowIso();
  const result: RestoreResult = { matter, backup };
  // An `all` document written before synonyms has none: they are kept, as its menu.
  const synonyms = sections.includes("synonyms") ? doc.synonyms : undefined;
  const newSynonyms = synonyms !== undefined && !sameSynonyms(store.content.synonyms(), synonyms);
  // Every article is filed with the synonyms: new ones rebuild the passage index (below), new articles every index.
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
      const had = store.content.menu() !== null;
      if (doc.menu !== undefined) store.content.setMenu(doc.menu, now);
      result.menu = doc.menu === undefined ? "kept" : doc.menu ? "stored" : had ? "removed" : "none";
    }
    if (synonyms !== undefined) {
      if (newSynonyms) {
        store.content.replaceSynonyms(synonyms);
        store.articles.index.refilePassages();
      }
      result.synonyms = synonyms.length;
    }
  });
  return result;
}
