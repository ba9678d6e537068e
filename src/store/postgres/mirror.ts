import type { Database } from "bun:sqlite";
import { ArticleRepo } from "../model/articles.ts";
import type { StoredRow } from "../rows.ts";
import { openDatabase } from "../model/db.ts";

/**
 * What a bulk write that replaces every article (a restore, an init into an empty database) hands
 * the read copy as it goes, so that the copy need not read a million rows back once it commits.
 */
export interface Mirror {
  /** Every article is about to be replaced: the copy's own are removed first. */
  replaceAll(): void;
  /** Rows as the database stored them (its revs), in the order written. */
  rows(rows: StoredRow[]): void;
  /** The generation the database reaches with this write, read inside its transaction before it commits. */
  reached(gen: bigint): void;
}

/**
 * The read copy's side of a Mirror: the rows written on a connection of its own, in one transaction
 * that commits only after the database's has (the copy's readers, on the main connection, see the
 * old articles until then). Anything going wrong here leaves the copy as it was, at its old
 * generation, and the usual catch-up from the change feed does the work instead: the copy never
 * fails the database's write.
 */
export class CopyMirror implements Mirror {
  private db: Database | null = null;
  private repo: ArticleRepo | null = null;
  private gen: bigint | null = null;
  private failed = false;

  constructor(
    private readonly path: string,
    private readonly logError: (message: string) => void,
  ) {}

  private attempt(what: string, fn: () => void): void {
    if (this.failed) return;
    try {
      fn();
    } catch (e) {
      this.logError(`the local copy could not be written alongside the database (${what}: ${(e as Error).message}); it catches up from the database instead`);
      this.failed = true;
      this.abandon();
    }
  }

  replaceAll(): void {
    this.attempt("emptying it", () => {
      if (this.db) throw new Error("replaceAll twice in one write");
      const db = openDatabase(this.path, false);
      this.db = db;
      const repo = new ArticleRepo(db);
      this.repo = repo;
      db.run("BEGIN IMMEDIATE");
      repo.clear();
      // Indexed in the background once committed, as after any bulk write.
      repo.index.resetIndex();
    });
  }

  rows(rows: StoredRow[]): void {
    this.attempt("writing articles", () => {
      const repo = this.repo;
      if (!repo) throw new Error("rows before replaceAll");
      repo.index.withoutIndexing(() => {
        for (const r of rows) repo.insertExact(r);
      });
    });
  }

  reached(gen: bigint): void {
    this.gen = gen;
  }

  /**
   * Once the database has committed: the copy commits at the generation the write reached, which it
   * answers; null when nothing was mirrored (the write took another path) or the copy failed.
   */
  commit(): bigint | null {
    const gen = this.gen;
    if (!this.db || gen === null) {
      this.abandon();
      return null;
    }
    const db = this.db;
    let done = false;
    this.attempt("committing", () => {
      db.run("INSERT INTO meta (key, value) VALUES ('pg_gen', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value", [gen.toString()]);
      db.run("COMMIT");
      done = true;
      this.abandon();
    });
    return done ? gen : null;
  }

  /** The database's write did not commit (or the copy failed): the copy stays as it was. */
  abandon(): void {
    const db = this.db;
    this.db = null;
    this.repo = null;
    if (!db) return;
    try {
      if (db.inTransaction) db.run("ROLLBACK");
    } catch {}
    try {
      db.close(false);
    } catch {}
  }
}
