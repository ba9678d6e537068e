import type { Database } from "bun:sqlite";
import { closeSync, openSync, statSync } from "node:fs";
import { join } from "node:path";
import { PRIVATE_FILE, privateDir, privateFiles } from "../fsutil.ts";
import { articleJson, contentOf, sameContent, type Article } from "../article.ts";
import type { Clock } from "../clock.ts";
import { DocumentWriter, SECTIONS, type Matter, type ReplydDocument } from "../doc.ts";
import { ArticleRepo } from "./articles.ts";
import { BackupStore, type BackupInfo, type BackupKind } from "./backups.ts";
import { ContentRepo } from "./content.ts";
import { LogWriter } from "./logwriter.ts";
import { MessageLog } from "./messages.ts";
import { Searcher } from "./searcher.ts";
import { IndexKeeper } from "./indexer.ts";
import { checkCodes, resolveIds } from "./ids.ts";
import { openDatabase } from "./db.ts";

/** Bulk writes above this many records rebuild the search index afterwards instead of row by row. */
export const BULK_INDEX_THRESHOLD = 2000;

export interface StoreOptions {
  clock: Clock;
  /** Backups kept per matter. */
  keep: number;
  /** Failures of background work (the message log writer); stderr when not given. */
  logError?: (message: string) => void;
}

export interface ImportResult {
  added: number;
  updated: number;
  unchanged: number;
  removed: number;
  total: number;
  tags: number;
  rules: { added: number; updated: number; unchanged: number };
  texts: number;
  /** The automatic backup taken before an init replaced the articles. */
  backup?: BackupInfo;
}

export interface RestoreResult {
  matter: Matter;
  articles?: number;
  tags?: number;
  rules?: number;
  texts?: number;
  /** The automatic backup of what the restore replaced. */
  backup: BackupInfo;
}

/** The data folder: SQLite for live data, backups/ for documents, media/ for public files. */
export class Store {
  readonly articles: ArticleRepo;
  readonly content: ContentRepo;
  readonly backups: BackupStore;
  readonly messages: MessageLog;
  /** Follower searches, off the event loop. */
  readonly searcher: Searcher;
  private readonly indexer: IndexKeeper;
  readonly dbPath: string;
  readonly mediaDir: string;
  private readonly logError: (message: string) => void;

  private constructor(
    readonly dir: string,
    readonly db: Database,
    private readonly opts: StoreOptions,
  ) {
    this.dbPath = join(dir, "replyd.db");
    this.articles = new ArticleRepo(db);
    this.content = new ContentRepo(db);
    this.logError = opts.logError ?? ((message: string) => process.stderr.write(`${message}\n`));
    this.messages = new MessageLog(db, new LogWriter(this.dbPath, this.logError));
    this.searcher = new Searcher(this.dbPath, this.logError);
    this.indexer = new IndexKeeper(this.articles, this.searcher, this.logError);
    this.backups = new BackupStore(join(dir, "backups"), opts.clock, opts.keep);
    this.mediaDir = join(dir, "media");
    privateDir(this.mediaDir);
  }

  static open(dir: string, opts: StoreOptions): Store {
    privateDir(dir);
    const path = join(dir, "replyd.db");
    // Created 0600 before SQLite opens it: SQLite gives the WAL and shared-memory files the database's mode.
    closeSync(openSync(path, "a", PRIVATE_FILE));
    privateFiles(path, `${path}-wal`, `${path}-shm`);
    const store = new Store(dir, openDatabase(path), opts);
    // Messages a shutdown could not write (the disk was full) are logged now.
    store.messages.replaySpills(dir, store.logError);
    // A rebuild cut short (a crash, a restart) resumes where it stopped; a complete index is counted
    // against the articles off the event loop, and rebuilt if they disagree.
    store.indexer.inBackground();
    void store.indexer.verify();
    return store;
  }

  /**
   * Closes the store. Follower messages the log could not write (the disk is full) are kept in a
   * spill file in the data folder, logged at the next start; answers how many were not logged and
   * whether they were kept (`lost` > 0: not even the spill file could be written).
   */
  close(logWaitMs = 10_000): { spilled: number; lost: number; file: string | null } {
    this.indexer.close();
    this.searcher.close();
    let outcome = { spilled: 0, lost: 0, file: null as string | null };
    try {
      const r = this.messages.close(join(this.dir, `messages-unwritten-${Date.now()}.jsonl`), logWaitMs);
      if (r.unwritten) {
        outcome = r.spilled ? { spilled: r.unwritten, lost: 0, file: r.spilled } : { spilled: 0, lost: r.unwritten, file: null };
        this.logError(
          r.spilled
            ? `${r.unwritten} follower messages could not be written to the log; kept in ${r.spilled}, logged at the next start`
            : `${r.unwritten} follower messages could not be written to the log and are lost: ${r.error}`,
        );
      }
    } catch (e) {
      this.logError((e as Error).message);
    }
    // A clean close checkpoints the WAL so the data folder is one file again.
    this.db.close(false);
    return outcome;
  }

  private nowIso(): string {
    return new Date(this.opts.clock.now()).toISOString();
  }

  private dbSizeCache = { at: -Infinity, size: 0 };

  /** Bytes on disk of the database, its WAL included; looked up once a second at most (health asks on every call). */
  dbSize(): number {
    const at = performance.now();
    if (at - this.dbSizeCache.at < 1000) return this.dbSizeCache.size;
    let size = 0;
    for (const f of [this.dbPath, this.dbPath + "-wal"]) {
      try {
        size += statSync(f).size;
      } catch {}
    }
    this.dbSizeCache = { at, size };
    return size;
  }

  /** A consistent snapshot of `matter` written as a server-side backup. */
  backup(matter: Matter, kind: BackupKind = "manual"): BackupInfo & { counts: Record<string, number> } {
    const counts: Record<string, number> = {};
    // One read transaction: every section comes from the same instant even if a write is waiting.
    const info = this.db.transaction(() =>
      this.backups.create(matter, kind, (sink, createdAt) => {
        const w = new DocumentWriter(sink, matter, createdAt);
        const sections = SECTIONS[matter];
        if (sections.includes("articles")) counts.articles = w.array("articles", this.articles.iterateAll(), articleJson);
        if (sections.includes("tags")) {
          const tags = this.content.tags();
          counts.tags = Object.keys(tags).length;
          w.field("tags", tags);
        }
        if (sections.includes("rules")) counts.rules = w.array("rules", this.content.rules());
        if (sections.includes("texts")) {
          const texts = this.content.texts();
          counts.texts = Object.keys(texts).length;
          w.field("texts", texts);
        }
        return w.finish();
      }),
    )();
    return { ...info, counts };
  }

  /**
   * Bulk add (merge: upsert by id, or by code when a record has no id) or initialize (init: the
   * document's articles become the only ones; an automatic backup is taken first). The whole
   * document is checked against the final state before anything is written, then written in one transaction.
   */
  importDocument(doc: ReplydDocument, mode: "merge" | "init"): ImportResult {
    const records = doc.articles ?? [];
    const existingIds = this.articles.ids();
    // A record without id takes the id of the live article with its code, in both modes, so a re-import keeps ids.
    const resolved = resolveIds(records, true, existingIds, (code) => this.articles.getLiveByCode(code)?.id);
    checkCodes(resolved, mode === "merge" ? this.articles.liveCodes() : new Map());

    const backup = mode === "init" && doc.articles ? this.backup("articles", "auto") : undefined;
    const now = this.nowIso();
    const result: ImportResult = {
      added: 0,
      updated: 0,
      unchanged: 0,
      removed: 0,
      total: records.length,
      tags: 0,
      rules: { added: 0, updated: 0, unchanged: 0 },
      texts: 0,
      ...(backup ? { backup } : {}),
    };

    // Past a few thousand records the search index is rebuilt afterwards rather than row by row.
    const bulk = records.length > BULK_INDEX_THRESHOLD || (mode === "init" && existingIds.size > BULK_INDEX_THRESHOLD);
    this.writeArticles(bulk, () => {
      if (doc.articles) {
        // Purge first in init mode: a document may give a removed article's code to a new id.
        if (mode === "init" && existingIds.size) {
          const keep = new Set(resolved.map((r) => r.id));
          for (const id of existingIds) if (!keep.has(id) && this.articles.purge(id)) result.removed++;
        }
        const currents = new Map<string, Article>();
        for (const rec of resolved)
          if (existingIds.has(rec.id)) {
            const current = this.articles.get(rec.id);
            if (current) currents.set(rec.id, current);
          }
        // Live codes are unique per statement, so release the codes that move before writing any:
        // two articles may swap codes within one document.
        for (const rec of resolved) {
          const current = currents.get(rec.id);
          if (current && !current.deleted && current.code !== null && current.code !== (rec.code ?? null)) this.articles.releaseCode(rec.id);
        }
        for (const rec of resolved) {
          const current = currents.get(rec.id);
          if (!current) {
            this.articles.insertRecord(rec, 1, now, now);
            result.added++;
            continue;
          }
          const content = contentOf(rec);
          if (sameContent(contentOf(current), content)) result.unchanged++;
          else {
            this.articles.update({ ...current, ...content, rev: current.rev + 1, updated_at: now });
            result.updated++;
          }
        }
      }
      if (doc.tags) {
        if (mode === "init") this.content.replaceTags(doc.tags);
        else this.content.mergeTags(doc.tags);
        result.tags = Object.keys(doc.tags).length;
      }
      if (doc.rules) result.rules = this.content.mergeRules(doc.rules);
      if (doc.texts) {
        this.content.mergeTexts(doc.texts);
        result.texts = Object.keys(doc.texts).length;
      }
    });
    return result;
  }

  /**
   * Replaces `matter` with the document's content, exactly (revs and times included), after an
   * automatic backup of what it replaces. One transaction: a crash leaves the old state or the new.
   */
  restore(doc: ReplydDocument, matter: Matter): RestoreResult {
    const sections = SECTIONS[matter];
    // The document replaces every article, and its own duplicate codes were refused when it was validated.
    const resolved = sections.includes("articles") ? resolveIds(doc.articles ?? [], false, new Set(), () => undefined) : [];
    const backup = this.backup(matter, "auto");
    const now = this.nowIso();
    const result: RestoreResult = { matter, backup };
    this.writeArticles(sections.includes("articles"), () => {
      if (sections.includes("articles")) {
        this.articles.deleteAll();
        for (const rec of resolved) this.articles.insertRecord(rec, rec.rev ?? 1, rec.created_at ?? now, rec.updated_at ?? rec.created_at ?? now);
        result.articles = resolved.length;
        this.content.replaceTags(doc.tags ?? {});
        result.tags = Object.keys(doc.tags ?? {}).length;
      }
      if (sections.includes("rules")) {
        this.content.replaceRules(doc.rules ?? []);
        result.rules = (doc.rules ?? []).length;
      }
      if (sections.includes("texts")) {
        this.content.replaceTexts(doc.texts ?? {});
        result.texts = Object.keys(doc.texts ?? {}).length;
      }
    });
    return result;
  }

  /**
   * One transaction of article writes. In bulk, rows are written without search indexing and the
   * index is emptied in the same transaction, then rebuilt in the background after the commit.
   */
  private writeArticles(bulk: boolean, write: () => void): void {
    try {
      // IMMEDIATE: the write lock is taken at BEGIN. A deferred transaction that reads first can
      // fail at once with SQLITE_BUSY_SNAPSHOT when the log writer commits between its read and its
      // first write; an immediate one waits its turn (busy_timeout) instead.
      this.db.transaction(() => {
        if (!bulk) return write();
        this.articles.withoutIndexing(write);
        this.articles.resetIndex();
      }).immediate();
    } catch (e) {
      this.articles.loadIndexState();
      throw e;
    }
    if (bulk) this.indexInBackground();
  }

  /** Rebuilds the search indexes in the background (after a bulk write, at start). */
  indexInBackground(): void {
    this.indexer.inBackground();
  }

  /** "checking" until the index has been counted against the articles after start. */
  get indexVerified(): IndexKeeper["verified"] {
    return this.indexer.verified;
  }

  /** Waits until the search index is complete (tests, benchmarks). */
  indexed(): Promise<void> {
    return this.indexer.complete();
  }

  /** One article written exactly as given (the caller has set rev and times), with its search entries, in one immediate transaction. */
  putArticle(a: Article, isNew: boolean): void {
    this.writeArticles(false, () => (isNew ? this.articles.insert(a) : this.articles.update(a)));
  }

  /** Removes an article for good, with its search entries. */
  purgeArticle(id: string): boolean {
    let removed = false;
    this.writeArticles(false, () => void (removed = this.articles.purge(id)));
    return removed;
  }
}
