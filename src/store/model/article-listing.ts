/**
 * The articles as listed and counted: `replyd ls`, a tag's list in the order followers read it, the
 * help text's tags, health's counts, the titles the language is read from. What is asked on every
 * message is kept until the next write (ArticleRepo, articles.ts, drops it on each).
 */
import type { Database } from "bun:sqlite";
import { containing } from "./search.ts";
import type { ArticleSummary } from "../../article/article.ts";
import type { LongName } from "../../article/fields.ts";
import type { ListQuery } from "../read-model.ts";
import { SUMMARY_COLUMNS, columnList, fromRow, type Row } from "../rows.ts";

const SUMMARY = columnList(SUMMARY_COLUMNS);

/**
 * Articles in code order as a follower reads a list: codes of digits by their number (8, 9, 10 — as
 * text, 10 came first), then the others alphabetically, those without a code last. A tag's list
 * and `replyd ls` within each tag alike (ls had put 11 before 3, and the codeless first).
 */
const CODE_ORDER = "code IS NULL, NOT (code GLOB '[0-9]*' AND code NOT GLOB '*[^0-9]*'), length(code) * (code NOT GLOB '*[^0-9]*'), lower(code), id";

/** The listing queries; the repository that writes the rows (articles.ts) is one, and says when they change. */
export class ArticleListing {
  /** counts() until the next write. */
  private counted: { live: number; deleted: number } | null = null;
  private unlabelled: { chars: number; n: number } | null = null;
  /** tagCounts() until the next write: health, the help text and its warnings ask often, and the count reads every live row. */
  private tagged: ReadonlyMap<string, number> | null = null;
  /** newestTitles() until the next write: asked on every message that says no language of its own. */
  private titled: { n: number; titles: string[] } | null = null;

  constructor(protected readonly db: Database) {}

  /** A write: what is kept until one is read again. */
  protected changed(): void {
    this.counted = null;
    this.unlabelled = null;
    this.tagged = null;
    this.titled = null;
  }

  list(q: ListQuery): { items: ArticleSummary[]; total: number } {
    const where: string[] = [];
    const args: (string | number)[] = [];
    if (q.deleted === "live" || q.deleted === undefined) where.push("deleted = 0");
    else if (q.deleted === "only") where.push("deleted = 1");
    if (q.tag !== undefined) {
      where.push("tag = ?");
      args.push(q.tag);
    }
    if (q.code !== undefined) {
      where.push("lower(code) = lower(?)");
      args.push(q.code);
    }
    for (const word of (q.q ?? "").split(/\s+/).filter(Boolean)) {
      const pattern = containing(word.toLowerCase());
      where.push("(lower(title) LIKE ? ESCAPE '\\' OR lower(description) LIKE ? ESCAPE '\\' OR lower(keyword_text) LIKE ? ESCAPE '\\' OR lower(code) LIKE ? ESCAPE '\\')");
      args.push(pattern, pattern, pattern, pattern);
    }
    const clause = where.length ? "WHERE " + where.join(" AND ") : "";
    const total = (this.db.query(`SELECT count(*) AS n FROM articles ${clause}`).get(...args) as { n: number }).n;
    const rows = this.db
      .query(`SELECT ${SUMMARY} FROM articles ${clause} ORDER BY tag IS NULL, tag, ${CODE_ORDER} LIMIT ? OFFSET ?`)
      .all(...args, q.limit, q.offset) as Omit<Row, LongName>[];
    return { items: rows.map(fromRow), total };
  }

  /**
   * Live articles of a tag, in code order as a follower reads it: codes of digits by their number (8,
   * 9, 10 — as text, 10 came first), then the others alphabetically, those without a code last.
   */
  byTag(tag: string, limit: number): ArticleSummary[] {
    return (
      this.db
        .query(
          `SELECT ${SUMMARY} FROM articles WHERE tag = ? AND deleted = 0
           ORDER BY ${CODE_ORDER} LIMIT ?`,
        )
        .all(tag, limit) as Omit<Row, LongName>[]
    ).map((r) => fromRow(r));
  }

  /** Live articles per tag, for the help text; counted again after a write. */
  tagCounts(): ReadonlyMap<string, number> {
    if (this.tagged) return this.tagged;
    const out = new Map<string, number>();
    for (const r of this.db.query("SELECT tag, count(*) AS n FROM articles WHERE deleted = 0 AND tag IS NOT NULL GROUP BY tag ORDER BY tag").all() as { tag: string; n: number }[])
      out.set(r.tag, r.n);
    this.tagged = out;
    return out;
  }

  /** The titles of the `n` live articles added last: read backwards along the rowid, no count and no sort. */
  newestTitles(n: number): string[] {
    if (this.titled?.n === n) return this.titled.titles;
    const titles = (this.db.query("SELECT title FROM articles WHERE deleted = 0 ORDER BY seq DESC LIMIT ?").all(n) as { title: string }[]).map((r) => r.title);
    this.titled = { n, titles };
    return titles;
  }

  /** Rows, soft-deleted included. */
  total(): number {
    const { live, deleted } = this.counts();
    return live + deleted;
  }

  /** Cached between writes: health is asked for often and a count scans the table. */
  counts(): { live: number; deleted: number } {
    return (this.counted ??= this.countNow());
  }

  /**
   * Live articles whose code cannot label a list's entry — none, or longer than `chars`: a list of
   * answers holding one is numbered 1, 2, 3 rather than labelled by codes (wechat/answering/ranked-reply.ts).
   */
  unlabelledLive(chars: number): number {
    if (this.unlabelled?.chars !== chars) {
      const row = this.db.query("SELECT count(*) AS n FROM articles WHERE deleted = 0 AND (code IS NULL OR length(code) > ?)").get(chars) as { n: number };
      this.unlabelled = { chars, n: row.n };
    }
    return this.unlabelled.n;
  }

  private countNow(): { live: number; deleted: number } {
    const row = this.db.query("SELECT sum(deleted = 0) AS live, sum(deleted = 1) AS deleted FROM articles").get() as {
      live: number | null;
      deleted: number | null;
    };
    return { live: row.live ?? 0, deleted: row.deleted ?? 0 };
  }
}
