/**
 * The articles' rows in the read model: written and looked up (by id, by live code through a cache
 * every write drops), with the revs kept for removed ids (rev_high); listed and counted as
 * article-listing.ts says. The search indexes each write files into are article-index.ts's.
 */
import type { Database, Statement } from "bun:sqlite";
import { ArticleIndex } from "./article-index.ts";
import { DeletedQuestions } from "./deleted-questions.ts";
import { ArticleListing } from "./article-listing.ts";
import { findArticles } from "./search.ts";
import type { Article, ArticleInput } from "../../article/article.ts";
import { BOUND_COLUMNS, columnList, fromRow, sqliteParams, sqliteRecordParams, sqliteRowParams, type Row, type StoredRow } from "../rows.ts";

/** Where the keywords' and the questions' JSON text stand among the bound values (the indexes take them). */
const KEYWORDS = BOUND_COLUMNS.indexOf("keywords");
const QUESTIONS = BOUND_COLUMNS.indexOf("questions");

// The article statements' column lists and placeholders, from the field table (?1 … ?n, id last).
const BOUND = columnList(BOUND_COLUMNS);
const PLACES = BOUND_COLUMNS.map((_, i) => `?${i + 1}`).join(", ");
const SETS = BOUND_COLUMNS.slice(0, -1).map((c, i) => `${c}=?${i + 1}`).join(", ");
const EXCLUDED = BOUND_COLUMNS.slice(0, -1).map((c) => `${c}=excluded.${c}`).join(", ");

/**
 * Queries over the articles table; every write goes through here, which is what makes the
 * code cache exact: any write drops it (a rolled-back write too; the next read reloads).
 */
export class ArticleRepo extends ArticleListing {
  /** Live article by lower-cased code, for the follower hot path. Misses are not cached. */
  private readonly codeCache = new Map<string, Article>();
  private static readonly CODE_CACHE_MAX = 50_000;

  private readonly byId: Statement<Row, [string]>;
  private readonly byLiveCode: Statement<Row, [string]>;
  private readonly insertStmt: Statement;
  private readonly updateStmt: Statement;
  private readonly deleteStmt: Statement<{ seq: number; rev: number }, [string]>;
  private readonly upsertStmt: Statement;
  private readonly revHighOf: Statement<{ rev: number }, [string]>;
  private readonly existsStmt: Statement<{ one: number }, [string]>;
  private readonly liveIdStmt: Statement<{ id: string }, [string]>;
  private readonly keepRevHigh: Statement;
  /** Whether any id was ever removed: until then, inserts need not look up rev_high. */
  private anyRevHigh: boolean;
  /** The search indexes, filed on each write made here; their callers reach them here (article-index.ts). */
  readonly index: ArticleIndex;
  private readonly deletedQuestions: DeletedQuestions;

  constructor(db: Database) {
    // ArticleListing's constructor must call nothing overridable: changed() reads the fields below, set after it.
    super(db);
    this.byId = db.query("SELECT * FROM articles WHERE id = ?");
    this.byLiveCode = db.query("SELECT * FROM articles WHERE lower(code) = lower(?) AND deleted = 0 AND code IS NOT NULL");
    this.insertStmt = db.query(`INSERT INTO articles (${BOUND}) VALUES (${PLACES})`);
    this.updateStmt = db.query(`UPDATE articles SET ${SETS} WHERE id=?${BOUND_COLUMNS.length} RETURNING seq`);
    this.deleteStmt = db.query("DELETE FROM articles WHERE id = ? RETURNING seq, rev");
    this.upsertStmt = db.query(`INSERT INTO articles (${BOUND}) VALUES (${PLACES}) ON CONFLICT(id) DO UPDATE SET ${EXCLUDED} RETURNING seq`);
    this.revHighOf = db.query("SELECT rev FROM rev_high WHERE id = ?");
    this.existsStmt = db.query("SELECT 1 AS one FROM articles WHERE id = ?");
    this.liveIdStmt = db.query("SELECT id FROM articles WHERE lower(code) = lower(?) AND deleted = 0 AND code IS NOT NULL");
    this.keepRevHigh = db.query("INSERT INTO rev_high (id, rev) VALUES (?, ?) ON CONFLICT(id) DO UPDATE SET rev = max(rev, excluded.rev)");
    this.anyRevHigh = db.query("SELECT 1 FROM rev_high LIMIT 1").get() !== null;
    this.index = new ArticleIndex(db);
    this.deletedQuestions = new DeletedQuestions(db);
  }

  /** Another connection rewrote the articles: what is known of them here is read again. */
  reload(): void {
    this.changed();
    this.index.reload();
  }

  get(id: string): Article | null {
    const row = this.byId.get(id);
    return row ? fromRow(row) : null;
  }

  deletedTaught(form: string): string | null {
    return this.deletedQuestions.articleOf(form);
  }

  getLiveByCode(code: string): Article | null {
    // Folded as SQLite's lower() folds, ASCII letters only: "É1" lower-cased in JavaScript had matched no stored "É1" (a review).
    const key = code.replace(/[A-Z]+/g, (c) => c.toLowerCase());
    const cached = this.codeCache.get(key);
    if (cached) return cached;
    const row = this.byLiveCode.get(key);
    if (!row) return null;
    const article = fromRow(row);
    if (this.codeCache.size >= ArticleRepo.CODE_CACHE_MAX) this.codeCache.clear();
    this.codeCache.set(key, article);
    return article;
  }

  protected override changed(): void {
    super.changed();
    this.deletedQuestions.changed();
    this.codeCache.clear();
  }

  /** Answers the rev the article got (above any rev its id had before it was removed). */
  insert(a: Article): number {
    return this.insertRecord(a, a.rev, a.created_at, a.updated_at);
  }

  /**
   * A new row straight from a validated record, with contentOf's defaults: bulk writes insert a
   * million of these, and binding the values directly spares an Article and a parameter array per row.
   */
  insertRecord(rec: ArticleInput & { id: string }, wantedRev: number, createdAt: string, updatedAt: string): number {
    this.changed();
    // An id that existed before continues above the highest rev it had: a stale rev=N never matches again.
    const high = this.anyRevHigh ? this.revHighOf.get(rec.id)?.rev : undefined;
    const rev = high !== undefined && wantedRev <= high ? high + 1 : wantedRev;
    const params = sqliteRecordParams(rec, rev, createdAt, updatedAt);
    const { lastInsertRowid } = this.insertStmt.run(...(params as never[]));
    this.index.file(Number(lastInsertRowid), { title: rec.title ?? "", description: rec.description ?? "", keywords: params[KEYWORDS] as string, questions: params[QUESTIONS] as string, body: rec.body ?? "", deleted: rec.deleted ?? false });
    return rev;
  }

  /** Writes a whole article row; the caller has already worked out rev and times. */
  update(a: Article): void {
    this.changed();
    const old = this.index.filed(a.id);
    const params = sqliteParams(a);
    const row = this.updateStmt.get(...(params as never[])) as { seq: number } | null;
    if (row) this.index.file(row.seq, { title: a.title, description: a.description, keywords: params[KEYWORDS] as string, questions: params[QUESTIONS] as string, body: a.body, deleted: a.deleted }, old);
  }

  /**
   * An article exactly as another store holds it (a read copy catching up): revs are that store's,
   * so the rev kept for purged ids here plays no part.
   */
  putExact(r: StoredRow): void {
    this.changed();
    const old = this.index.filed(r.id);
    const row = this.upsertStmt.get(...(sqliteRowParams(r) as never[])) as { seq: number };
    this.index.file(row.seq, r, old);
  }

  /**
   * The same into a copy known not to hold its id or its live code (a read copy loading into an
   * empty table): a plain insert, with none of putExact's conflict handling.
   */
  insertExact(r: StoredRow): void {
    this.changed();
    const { lastInsertRowid } = this.insertStmt.run(...(sqliteRowParams(r) as never[]));
    this.index.file(Number(lastInsertRowid), r);
  }

  /** Every article removed, with no rev kept for their ids: a read copy's revs are another store's. */
  clear(): void {
    this.changed();
    this.db.run("DELETE FROM articles");
    this.index.cleared();
  }

  /** Clears a code for the rest of a transaction that is about to write it again. */
  releaseCode(id: string): void {
    this.changed();
    this.db.run("UPDATE articles SET code = NULL WHERE id = ?", [id]);
  }

  purge(id: string): boolean {
    this.changed();
    const old = this.index.filed(id);
    const row = this.deleteStmt.get(id);
    if (row) {
      this.index.file(row.seq, null, old);
      this.keepRevHigh.run(id, row.rev);
      this.anyRevHigh = true;
    }
    return row !== null;
  }

  deleteAll(): number {
    this.changed();
    const kept = this.db.run("INSERT INTO rev_high (id, rev) SELECT id, rev FROM articles WHERE true ON CONFLICT(id) DO UPDATE SET rev = max(rev, excluded.rev)").changes;
    if (kept) this.anyRevHigh = true;
    return this.db.run("DELETE FROM articles").changes;
  }

  /** The live articles that best match these words, best first (search.ts; followers' searches run in the search worker). */
  search(words: string[], limit = 1): Article[] {
    return findArticles(this.db, words, limit)
      .map((id) => this.get(id))
      .filter((a): a is Article => a !== null);
  }

  /** Every article, soft-deleted included, in id order, without holding them all in memory. */
  *iterateAll(): Generator<Article> {
    for (const row of this.db.query("SELECT * FROM articles ORDER BY id").iterate() as IterableIterator<Row>) yield fromRow(row);
  }

  /** Whether a row (live or soft-deleted) has this id. */
  exists(id: string): boolean {
    return this.existsStmt.get(id) !== null;
  }

  /** The id of the live article with this code (ignoring case), uncached: bulk writes ask once per record. */
  liveIdByCode(code: string): string | undefined {
    return this.liveIdStmt.get(code)?.id;
  }

  /**
   * The end of a bulk write that replaces every article: ids are noted as the document is written
   * (in a temporary table, not in memory), then every article not noted is purged; answers how many.
   * Per row (with its search entries) unless `bulk`, where the index is rebuilt afterwards anyway.
   */
  noteKept(): { keep(id: string): void; purgeRest(bulk: boolean): number } {
    this.db.exec("CREATE TEMP TABLE IF NOT EXISTS kept_ids (id TEXT PRIMARY KEY) WITHOUT ROWID; DELETE FROM temp.kept_ids;");
    const add = this.db.query("INSERT OR IGNORE INTO temp.kept_ids (id) VALUES (?)");
    return {
      keep: (id) => void add.run(id),
      purgeRest: (bulk) => {
        let removed = 0;
        if (bulk) {
          this.changed();
          const rest = "FROM articles WHERE id NOT IN (SELECT id FROM temp.kept_ids)";
          if (this.db.run(`INSERT INTO rev_high (id, rev) SELECT id, rev ${rest} ON CONFLICT(id) DO UPDATE SET rev = max(rev, excluded.rev)`).changes) this.anyRevHigh = true;
          removed = this.db.run(`DELETE ${rest}`).changes;
        } else {
          const ids = (this.db.query("SELECT id FROM articles WHERE id NOT IN (SELECT id FROM temp.kept_ids)").all() as { id: string }[]).map((r) => r.id);
          for (const id of ids) if (this.purge(id)) removed++;
        }
        this.db.exec("DELETE FROM temp.kept_ids");
        return removed;
      },
    };
  }
}
