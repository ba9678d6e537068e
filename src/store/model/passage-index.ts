/**
 * The passage index that questions are ranked from (docs/answers.md): every live article filed under
 * each of its terms (src/ranking/words.ts) at one of a few weight tiers (src/ranking/tiers.ts), in a contentless FTS5 table keyed
 * by the article's row number — "退款_3" is the term 退款 where it weighs most. A question reads
 * each of its terms' tiers heaviest first and stops at a fixed number of entries (src/ranking/rank.ts), so a
 * common word costs the same as a rare one: the top of its list, never all of it.
 *
 * Beside it, how many units (heads and passages) hold each term, for idf, and the corpus's sizes in
 * meta. Kept row by row by single writes (the old content read before the row changes, so its
 * counts can be taken back) and rebuilt in batches after bulk writes, with the search indexes and
 * under the same marker (articles.ts).
 */
import type { Database, Statement } from "bun:sqlite";
import { analyse, type Analysis, type CorpusStats } from "../../ranking/score.ts";
import { filings, TIERS } from "../../ranking/tiers.ts";

/** What the index reads of an article. */
export interface Indexed {
  title: string;
  keywords: string;
  description: string;
  body: string;
}

/** A term at a tier as the index files it: "退款_4" is 退款 where it weighs most. */
export const tierToken = (term: string, tier: number) => `${term}_${TIERS.length - tier}`;

/** A table that has never counted anything ranks with these sizes until it has. */
const EMPTY_STATS: CorpusStats = { passages: 0, passageLen: 60, headLen: 8 };

export const ANSWER_INDEX_DDL = `
  CREATE VIRTUAL TABLE answer_terms USING fts5(terms, content='', contentless_delete=1, detail=none, tokenize="unicode61 remove_diacritics 0 tokenchars '_'");
  CREATE TABLE answer_df (term TEXT PRIMARY KEY, df INTEGER NOT NULL) WITHOUT ROWID;`;

export interface Sizes {
  /** Units (heads and passages) counted. */
  units: number;
  heads: number;
  headTerms: number;
  passages: number;
  passageTerms: number;
}

export class PassageIndex {
  private readonly dfOf: Statement<{ df: number }, [string]>;
  private readonly addDf: Statement;
  private readonly insertTerms: Statement;
  private readonly deleteTerms: Statement;
  private sizes: Sizes;

  constructor(private readonly db: Database) {
    this.dfOf = db.query("SELECT df FROM answer_df WHERE term = ?");
    this.addDf = db.query("INSERT INTO answer_df (term, df) VALUES (?1, ?2) ON CONFLICT(term) DO UPDATE SET df = df + ?2");
    this.insertTerms = db.query("INSERT INTO answer_terms (rowid, terms) VALUES (?, ?)");
    this.deleteTerms = db.query("DELETE FROM answer_terms WHERE rowid = ?");
    this.sizes = PassageIndex.sizesIn(db);
  }

  /** The sizes as `db` holds them now (this connection's, or another's: the search worker's). */
  static sizesIn(db: Database): Sizes {
    const row = db.query("SELECT value FROM meta WHERE key = 'answer_sizes'").get() as { value: string } | null;
    return row ? (JSON.parse(row.value) as Sizes) : { units: 0, heads: 0, headTerms: 0, passages: 0, passageTerms: 0 };
  }

  private saveSizes(): void {
    this.db.run("INSERT INTO meta (key, value) VALUES ('answer_sizes', ?1) ON CONFLICT(key) DO UPDATE SET value = ?1", [JSON.stringify(this.sizes)]);
  }

  /** Sizes as another connection (the search worker) reads them. */
  static stats(db: Database): CorpusStats {
    return statsOf(PassageIndex.sizesIn(db));
  }

  get stats(): CorpusStats {
    return statsOf(this.sizes);
  }

  /** Articles filed (every live one once whole) and their passages, for health. */
  sizesNow(): { articles: number; passages: number } {
    return { articles: this.sizes.heads, passages: this.sizes.passages };
  }

  /** Counts an article's terms and sizes in (`sign` 1) or out (-1). */
  private count(x: Analysis, sign: 1 | -1, df: Map<string, number>): void {
    for (const p of x.passages) for (const t of p.counts.keys()) df.set(t, (df.get(t) ?? 0) + sign);
    for (const t of x.head.keys()) df.set(t, (df.get(t) ?? 0) + sign);
    this.sizes.units += sign * (x.passages.length + 1);
    this.sizes.heads += sign;
    this.sizes.headTerms += sign * x.headLen;
    this.sizes.passages += sign * x.passages.length;
    this.sizes.passageTerms += sign * x.passages.reduce((n, p) => n + p.len, 0);
  }

  private tokens(x: Analysis): string {
    return filings(x, this.stats)
      .map(([t, tier]) => tierToken(t, tier))
      .join(" ");
  }

  private writeDf(df: Map<string, number>): void {
    for (const [t, d] of df) if (d !== 0) this.addDf.run(t, d);
  }

  /** One article changes: `old` (as it was, null when new or not filed) out, `now` (null when gone or not live) in. */
  replace(seq: number, old: Indexed | null, now: Indexed | null): void {
    const df = new Map<string, number>();
    if (old) {
      this.deleteTerms.run(seq);
      this.count(analyse(old), -1, df);
    }
    if (now) {
      const x = analyse(now);
      this.count(x, 1, df);
      this.insertTerms.run(seq, this.tokens(x));
    }
    this.writeDf(df);
    if (old || now) this.saveSizes();
  }

  /** A batch of articles not filed before (a rebuild): counted together, their terms' counts written once each. */
  addBatch(rows: (Indexed & { seq: number })[]): void {
    const df = new Map<string, number>();
    // One article at a time, its analysis dropped at once: 2,000 analyses held together cost five
    // times as much in garbage collection as the analysing itself.
    for (const r of rows) {
      const x = analyse(r);
      this.count(x, 1, df);
      this.insertTerms.run(r.seq, this.tokens(x));
    }
    this.writeDf(df);
    this.saveSizes();
  }

  /** Empties the index; call inside the bulk write's transaction (articles.ts resetIndex). */
  reset(): void {
    this.db.exec(`DROP TABLE answer_terms; DROP TABLE answer_df; ${ANSWER_INDEX_DDL}`);
    this.sizes = { units: 0, heads: 0, headTerms: 0, passages: 0, passageTerms: 0 };
    this.saveSizes();
  }

  /** Re-reads the sizes (after a rolled-back transaction, or another connection's writes). */
  reload(): void {
    this.sizes = PassageIndex.sizesIn(this.db);
  }

  df(term: string): number {
    return this.dfOf.get(term)?.df ?? 0;
  }
}

/** The corpus's sizes as ranking reads them (also bench/eval/memory-source.ts's). */
export function statsOf(s: Sizes): CorpusStats {
  if (!s.heads) return EMPTY_STATS;
  return { passages: s.units, passageLen: s.passages ? s.passageTerms / s.passages : EMPTY_STATS.passageLen, headLen: s.headTerms / s.heads };
}
