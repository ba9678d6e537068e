/**
 * The articles' search indexes kept in step with their rows: the trigram table (articles_fts), the
 * grams table (articles_grams) and the passage index questions are ranked from, with the rebuild's
 * marker. Apart from articles.ts because it is a second state with its own
 * rules — filed row by row, skipped during a bulk write, rebuilt in batches behind the marker —
 * that the rows' queries only report to; articles.ts calls it on each write it makes.
 *
 * Two rebuilds behind the one marker (rebuild-marker.ts): of every index after a bulk write, or of
 * the passage index alone when only what it is filed with changed — another version of the ranking
 * (an upgrade), the operator's synonyms. The title and keyword search stays whole through the
 * second: on a million passages it is minutes.
 */
import type { Database, Statement } from "bun:sqlite";
import { PassageIndex, type Indexed } from "./passage-index.ts";
import { gramsOf } from "./grams.ts";
import { keywordText, questionText } from "../rows.ts";
import { markRebuild, rebuildState } from "./rebuild-marker.ts";

/** An article's columns as the indexes read them (keywords and questions as text). */
const INDEXED = "title, keyword_text AS keywords, question_text AS questions, description, body, deleted";

/** One article as a write files it: keywords and questions as their bound JSON text. */
export interface ArticleFiled {
  title: string;
  description: string;
  keywords: string;
  questions: string;
  body?: string;
  deleted?: number | boolean;
}

export class ArticleIndex {
  /** Articles with seq above this still await indexing; null when the indexes are complete. */
  private pendingFrom: number | null = null;
  /** The rebuild under way files the passage index alone: the search indexes are whole. */
  private passagesOnly = false;
  /** Set during bulk writes: the index is rebuilt afterwards instead of row by row. */
  private bulk = false;
  /** The passage index questions are ranked from. */
  readonly passages: PassageIndex;
  private readonly filedById: Statement<Indexed & { seq: number; deleted: number }, [string]>;

  constructor(private readonly db: Database) {
    this.passages = new PassageIndex(db);
    this.filedById = db.query(`SELECT seq, ${INDEXED} FROM articles WHERE id = ?`);
    this.loadIndexState();
    // Filed by another version of the ranking (an upgrade): rebuilt in the background from start,
    // questions meanwhile ranked against what is filed again (docs/answers.md).
    if (this.passages.outdated()) this.db.transaction(() => this.refilePassages()).immediate();
  }

  /**
   * What the passage index holds for an article now (read before its row changes, so that the
   * index can take it back): null when it holds nothing, as for a soft-deleted article, a row the
   * rebuild has not reached yet, or during a bulk write.
   */
  filed(id: string): (Indexed & { seq: number }) | null {
    if (this.bulk) return null;
    const row = this.filedById.get(id);
    if (!row || row.deleted || (this.pendingFrom !== null && row.seq > this.pendingFrom)) return null;
    return row;
  }

  /** Keeps one article's search entries in step with its row (delete + insert by rowid is always safe). */
  file(seq: number, a: ArticleFiled | null, old: Indexed | null = null): void {
    if (this.bulk) return;
    // Past the rebuild's marker the rebuild files it (and would count it twice).
    const live = a && !a.deleted && (this.pendingFrom === null || seq <= this.pendingFrom);
    this.passages.replace(seq, old, live ? { title: a.title, keywords: keywordText(a.keywords), questions: questionText(a.questions), description: a.description, body: a.body ?? "" } : null);
    this.db.run("DELETE FROM articles_fts WHERE rowid = ?", [seq]);
    this.db.run("DELETE FROM articles_grams WHERE rowid = ?", [seq]);
    if (!a) return;
    const keywords = keywordText(a.keywords);
    this.db.run("INSERT INTO articles_fts (rowid, title, keywords, description) VALUES (?, ?, ?, ?)", [seq, a.title, keywords, a.description]);
    this.db.run("INSERT INTO articles_grams (rowid, grams) VALUES (?, ?)", [seq, gramsOf(`${a.title} ${keywords}`)]);
  }

  /** Every article was removed: the passage index is emptied with them, unless a bulk write rebuilds it anyway. */
  cleared(): void {
    if (!this.bulk) this.passages.reset();
  }

  /** Runs `fn` without per-row indexing; the caller then calls resetIndex() in the same transaction. */
  withoutIndexing<T>(fn: () => T): T {
    this.bulk = true;
    try {
      return fn();
    } finally {
      this.bulk = false;
    }
  }

  /** Empties the search index and schedules a full rebuild; call inside the bulk write's transaction. */
  resetIndex(): void {
    this.passages.reset();
    this.db.exec(`DROP TABLE articles_fts; CREATE VIRTUAL TABLE articles_fts USING fts5(title, keywords, description, tokenize='trigram');
                  DROP TABLE articles_grams; CREATE VIRTUAL TABLE articles_grams USING fts5(grams, detail=none, tokenize='unicode61 remove_diacritics 0');`);
    this.startRebuild(false);
  }

  /**
   * Empties the passage index and schedules its rebuild alone, once what every article is filed
   * with has changed (the synonyms, written before this is called); call inside the write's
   * transaction. During a bulk write nothing is done (the rebuild after it files every index);
   * during a rebuild of every index, that rebuild starts over (what it filed is filed the old way).
   */
  refilePassages(): void {
    if (this.bulk) return;
    if (this.pendingFrom !== null && !this.passagesOnly) return this.resetIndex();
    this.passages.reset();
    this.startRebuild(true);
  }

  private startRebuild(passagesOnly: boolean): void {
    markRebuild(this.db, { from: 0, passagesOnly });
    this.pendingFrom = 0;
    this.passagesOnly = passagesOnly;
  }

  /** Reads the index state from the database (at start, and after a rolled-back transaction). */
  loadIndexState(): void {
    const state = rebuildState(this.db);
    this.pendingFrom = state?.from ?? null;
    this.passagesOnly = state?.passagesOnly ?? false;
    // Nothing left beyond the marker (a new or emptied store): the index is complete already.
    if (this.pendingFrom !== null && !this.db.query("SELECT 1 FROM articles WHERE seq > ? LIMIT 1").get(this.pendingFrom)) {
      markRebuild(this.db, null);
      this.pendingFrom = null;
      this.passagesOnly = false;
    }
  }

  /** Another connection rewrote the articles: the index's state and the passage index are read again. */
  reload(): void {
    this.loadIndexState();
    this.passages.reload();
  }

  /** Empties the indexes and starts over (they were found not to agree with the articles). */
  rebuildIndex(): void {
    this.db.transaction(() => this.resetIndex()).immediate();
  }

  /**
   * Share of the articles indexed, for health: 1 when complete. Read from where the rebuild stands in
   * the range of row numbers (two index lookups), not by counting rows: health is polled (load
   * balancers, every second or so) and counting a million rows took 20–40 ms of the event loop.
   * Row numbers are dense after a bulk write, which is when there is a rebuild to follow.
   */
  indexProgress(): number {
    if (this.pendingFrom === null) return 1;
    const row = this.db.query("SELECT (SELECT min(seq) FROM articles) AS lo, (SELECT max(seq) FROM articles) AS hi").get() as { lo: number | null; hi: number | null };
    if (row.lo === null || row.hi === null) return 1;
    const done = Math.min(Math.max(this.pendingFrom - row.lo + 1, 0), row.hi - row.lo + 1);
    return done / (row.hi - row.lo + 1);
  }

  /**
   * Indexes the next `limit` articles in one small transaction (crash-safe: the progress marker
   * commits with the entries). Answers true when the index is complete. The position kept in
   * memory moves only once the transaction has committed: a batch whose commit fails is done again,
   * the passage index's sizes it had counted in memory read back as committed.
   */
  indexBatch(limit: number): boolean {
    if (this.pendingFrom === null) return true;
    const passagesOnly = this.passagesOnly;
    let next: number | null;
    try {
      next = this.db.transaction((): number | null => {
        const from = this.pendingFrom as number;
        const rows = this.db.query(`SELECT seq, ${INDEXED} FROM articles WHERE seq > ? ORDER BY seq LIMIT ?`).all(from, limit) as (Indexed & {
          seq: number;
          deleted: number;
        })[];
        const last = rows.length ? (rows[rows.length - 1] as { seq: number }).seq : from;
        if (!passagesOnly) this.searchBatch(rows, from, last);
        this.passages.addBatch(rows.filter((r) => !r.deleted));
        const done = rows.length < limit;
        markRebuild(this.db, done ? null : { from: last, passagesOnly });
        return done ? null : last;
      })();
    } catch (e) {
      this.passages.reload();
      throw e;
    }
    this.pendingFrom = next;
    if (next === null) this.passagesOnly = false;
    return next === null;
  }

  /** The search indexes' entries of a batch of a rebuild of every index (seq from `from`, exclusive, to `last`). */
  private searchBatch(rows: readonly (Indexed & { seq: number })[], from: number, last: number): void {
    // Entries a single write made meanwhile in this range are replaced, not duplicated.
    if (rows.length) {
      this.db.run("DELETE FROM articles_fts WHERE rowid > ? AND rowid <= ?", [from, last]);
      this.db.run("DELETE FROM articles_grams WHERE rowid > ? AND rowid <= ?", [from, last]);
    }
    const fts = this.db.query("INSERT INTO articles_fts (rowid, title, keywords, description) VALUES (?, ?, ?, ?)");
    const grams = this.db.query("INSERT INTO articles_grams (rowid, grams) VALUES (?, ?)");
    for (const r of rows) {
      fts.run(r.seq, r.title, r.keywords, r.description);
      grams.run(r.seq, gramsOf(`${r.title} ${r.keywords}`));
    }
  }

  passageIndexSizes(): { articles: number; passages: number } {
    return this.passages.sizesNow();
  }

  /** Every index is complete: nothing is being rebuilt. */
  get indexComplete(): boolean {
    return this.pendingFrom === null;
  }

  /** The title and keyword search indexes are complete (a rebuild of the passage index alone may be under way). */
  get searchIndexComplete(): boolean {
    return this.pendingFrom === null || this.passagesOnly;
  }
}
