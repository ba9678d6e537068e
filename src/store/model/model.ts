/**
 * The read model (read-model.ts): the articles, their search indexes and the content in one SQLite
 * file, with the follower search on its worker thread. The SQLite backend's store is one (its data
 * folder's database, written in place); the PostgreSQL backend keeps one in a temporary folder as
 * its local copy, written from the database's change feed. What only a data folder has (backups as
 * files, the message log, keys.json) is the SQLite backend's own (sqlite/store.ts).
 */
import type { Database } from "bun:sqlite";
import { closeSync, openSync, statSync } from "node:fs";
import { join } from "node:path";
import { PRIVATE_FILE, privateDir, privateFiles } from "../../base/fsutil.ts";
import { ArticleRepo } from "./articles.ts";
import { ContentRepo } from "./content.ts";
import { openDatabase } from "./db.ts";
import { IndexKeeper } from "./indexer.ts";
import { Searcher } from "./searcher.ts";

/** Bulk writes above this many records rebuild the search index afterwards instead of row by row. */
export const BULK_INDEX_THRESHOLD = 2000;

export interface ModelOptions {
  /** Failures of background work; stderr when not given. */
  logError?: (message: string) => void;
  /** False for a copy of data kept elsewhere (PostgreSQL's read copy): commits are not flushed to disk. */
  durable?: boolean;
}

export class Model {
  readonly articles: ArticleRepo;
  readonly content: ContentRepo;
  /** Follower searches, off the event loop. */
  readonly searcher: Searcher;
  protected readonly indexer: IndexKeeper;
  readonly dbPath: string;
  readonly mediaDir: string;
  protected readonly logError: (message: string) => void;

  protected constructor(
    readonly dir: string,
    readonly db: Database,
    opts: ModelOptions,
  ) {
    this.dbPath = join(dir, "replyd.db");
    this.logError = opts.logError ?? ((message: string) => process.stderr.write(`${message}\n`));
    this.articles = new ArticleRepo(db);
    this.content = new ContentRepo(db);
    this.searcher = new Searcher(this.dbPath, this.logError);
    this.indexer = new IndexKeeper(this.articles.index, this.searcher, this.logError);
    this.mediaDir = join(dir, "media");
    privateDir(this.mediaDir);
  }

  /** The folder's database, private to this user (0700, files 0600), migrated. */
  protected static database(dir: string, durable: boolean): Database {
    privateDir(dir);
    const path = join(dir, "replyd.db");
    // Created 0600 before SQLite opens it: SQLite gives the WAL and shared-memory files the database's mode.
    closeSync(openSync(path, "a", PRIVATE_FILE));
    privateFiles(path, `${path}-wal`, `${path}-shm`);
    return openDatabase(path, durable);
  }

  static open(dir: string, opts: ModelOptions = {}): Model {
    const model = new Model(dir, Model.database(dir, opts.durable ?? true), opts);
    model.startIndexing();
    return model;
  }

  /**
   * A rebuild cut short (a crash, a restart) resumes where it stopped; a complete index is counted
   * against the articles off the event loop, and rebuilt if they disagree.
   */
  protected startIndexing(): void {
    this.indexer.inBackground();
    void this.indexer.verify();
  }

  /** Stops the search worker and the indexer, and closes the database (checkpointed: one file again). */
  close(): void {
    this.indexer.close();
    this.searcher.close();
    this.db.close(false);
  }

  /** Uploads are spooled in this folder: on the data's disk, not a small or in-memory /tmp. */
  get spoolDir(): string {
    return this.dir;
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

  /**
   * One transaction of article writes. In bulk, rows are written without search indexing and the
   * index is emptied in the same transaction, then rebuilt in the background after the commit —
   * or, with `indexLater`, when the caller says (a read copy loading page after page would otherwise
   * index each page only to empty the index again for the next).
   */
  writeArticles(bulk: boolean, write: () => void, indexLater = false): void {
    try {
      // IMMEDIATE: the write lock is taken at BEGIN. A deferred transaction that reads first can
      // fail at once with SQLITE_BUSY_SNAPSHOT when the log writer commits between its read and its
      // first write; an immediate one waits its turn (busy_timeout) instead.
      this.db.transaction(() => {
        if (!bulk) return write();
        this.articles.index.withoutIndexing(write);
        this.articles.index.resetIndex();
      }).immediate();
    } catch (e) {
      // Rolled back: what the repository keeps in memory (the index's state, sizes and synonyms) is read again.
      this.articles.reload();
      throw e;
    }
    // A bulk write, or a single one that changed what every article is filed with (refilePassages).
    if (!indexLater) this.indexInBackground();
  }

  /** Rebuilds the search indexes in the background (after a bulk write, at start). */
  indexInBackground(): void {
    this.indexer.inBackground();
  }

  /** Holds the search index's writes until the answer is called (indexer.ts hold()). */
  holdIndexing(): () => void {
    return this.indexer.hold();
  }

  /** "checking" until the index has been counted against the articles after start. */
  get indexVerified(): IndexKeeper["verified"] {
    return this.indexer.verified;
  }

  /** Waits until the search index is complete (tests, benchmarks). */
  indexed(): Promise<void> {
    return this.indexer.complete();
  }
}
