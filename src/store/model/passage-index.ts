/**
 * The passage index that questions are ranked from (docs/answers.md): every live article filed under
 * each of its terms (src/ranking/words.ts) at one of a few weight tiers (src/ranking/tiers.ts), in a contentless FTS5 table keyed
 * by the article's row number — "退款_3" is the term 退款 where it weighs most. A question reads
 * each of its terms' tiers heaviest first and stops at a fixed number of entries (src/ranking/rank.ts), so a
 * common word costs the same as a rare one: the top of its list, never all of it.
 *
 * Beside it, how many articles hold each term, for idf, and the corpus's sizes in meta, with the
 * version of the ranking that filed them (src/ranking/tiers.ts INDEX_VERSION). Kept row by row by
 * single writes (the old content read before the row changes, so its counts can be taken back) and
 * rebuilt in batches: with the search indexes after bulk writes, alone when an index filed by
 * another version is found or the synonyms change (article-index.ts refilePassages). Articles are
 * read with the operator's synonyms (src/ranking/synonyms.ts) as stored beside them: whoever writes
 * those rebuilds the index.
 */
import type { Database, Statement } from "bun:sqlite";
import { analyse, fieldsOf, type Analysis, type CorpusStats } from "../../ranking/score.ts";
import type { Fields } from "../../ranking/bm25.ts";
import { filings, INDEX_VERSION, TIERS } from "../../ranking/tiers.ts";
import { withSynonyms, type SynonymTable } from "../../ranking/synonyms.ts";
import { synonymsVersion, synonymTableIn } from "./synonyms.ts";
import { TermCounts } from "./term-counts.ts";

/** What the index reads of an article. */
export interface Indexed {
  title: string;
  keywords: string;
  /** The questions it answers, one a line (articles.question_text). */
  questions: string;
  description: string;
  body: string;
}

/** A term at a tier as the index files it: "退款_4" is 退款 where it weighs most. */
export const tierToken = (term: string, tier: number) => `${term}_${TIERS.length - tier}`;

/** A table that has never counted anything ranks with these sizes until it has. */
const EMPTY_STATS: CorpusStats = { articles: 0, headLen: 8, bodyLen: 120, passageLen: 60 };

export const ANSWER_INDEX_DDL = `
  CREATE VIRTUAL TABLE answer_terms USING fts5(terms, content='', contentless_delete=1, detail=none, tokenize="unicode61 remove_diacritics 0 tokenchars '_'");
  CREATE TABLE answer_df (term TEXT PRIMARY KEY, df INTEGER NOT NULL) WITHOUT ROWID;`;

export interface Sizes {
  /** Articles counted (each has one head). */
  heads: number;
  headTerms: number;
  passages: number;
  passageTerms: number;
  /**
   * Writes to the index so far, never back (a reset keeps counting): the search worker keeps the
   * entries it read until this moves (postings.ts). Absent in an index no write has counted yet.
   */
  writes?: number;
}

export class PassageIndex {
  private readonly dfOf: Statement<{ df: number }, [string]>;
  private readonly addDf: Statement;
  private readonly insertTerms: Statement;
  private readonly deleteTerms: Statement;
  private sizes: Sizes;
  /** The operator's synonyms, as articles are filed with them, and the version they were read at. */
  private synonyms: SynonymTable | null = null;
  private synonymsAt: string | null = null;

  constructor(private readonly db: Database) {
    this.dfOf = db.query("SELECT df FROM answer_df WHERE term = ?");
    this.addDf = db.query("INSERT INTO answer_df (term, df) VALUES (?1, ?2) ON CONFLICT(term) DO UPDATE SET df = df + ?2");
    this.insertTerms = db.query("INSERT INTO answer_terms (rowid, terms) VALUES (?, ?)");
    this.deleteTerms = db.query("DELETE FROM answer_terms WHERE rowid = ?");
    this.sizes = PassageIndex.sizesIn(db);
    this.readSynonyms();
  }

  /** The synonyms read again when their version moved (a table of the most, 20,000 phrases, takes ~0.1 s to build). */
  private readSynonyms(): void {
    const version = synonymsVersion(this.db);
    if (version === this.synonymsAt) return;
    this.synonyms = synonymTableIn(this.db);
    this.synonymsAt = version;
  }

  /** The sizes as `db` holds them now (this connection's, or another's: the search worker's). */
  static sizesIn(db: Database): Sizes {
    const row = db.query("SELECT value FROM meta WHERE key = 'answer_sizes'").get() as { value: string } | null;
    return row ? (JSON.parse(row.value) as Sizes) : { heads: 0, headTerms: 0, passages: 0, passageTerms: 0 };
  }

  private saveSizes(): void {
    this.sizes.writes = (this.sizes.writes ?? 0) + 1;
    this.db.run("INSERT INTO meta (key, value) VALUES ('answer_sizes', ?1) ON CONFLICT(key) DO UPDATE SET value = ?1", [JSON.stringify(this.sizes)]);
  }

  get stats(): CorpusStats {
    return statsOf(this.sizes);
  }

  /** Articles filed (every live one once whole) and their passages, for health. */
  sizesNow(): { articles: number; passages: number } {
    return { articles: this.sizes.heads, passages: this.sizes.passages };
  }

  /** Counts an article's terms and sizes out. */
  private uncount(x: Analysis, df: TermCounts): void {
    countInto(x, this.sizes, df, -1);
  }

  /** Counts an article's terms and sizes in and answers what it is filed under: its fields made once for both. */
  private file(x: Analysis, df: TermCounts): string {
    const f = fieldsOf(x);
    countInto(x, this.sizes, df, 1, f);
    return filings(x, this.stats, f)
      .map(([t, tier]) => tierToken(t, tier))
      .join(" ");
  }

  private writeDf(df: TermCounts): void {
    for (const [t, d] of df.entries()) if (d !== 0) this.addDf.run(t, d);
  }

  /** One article changes: `old` (as it was, null when new or not filed) out, `now` (null when gone or not live) in. */
  replace(seq: number, old: Indexed | null, now: Indexed | null): void {
    withSynonyms(this.synonyms, () => this.replaceNow(seq, old, now));
  }

  private replaceNow(seq: number, old: Indexed | null, now: Indexed | null): void {
    const df = new TermCounts();
    if (old) {
      this.deleteTerms.run(seq);
      this.uncount(analyse(old), df);
    }
    if (now) this.insertTerms.run(seq, this.file(analyse(now), df));
    this.writeDf(df);
    if (old || now) this.saveSizes();
  }

  /** A batch of articles not filed before (a rebuild): counted together, their terms' counts written once each. */
  addBatch(rows: (Indexed & { seq: number })[]): void {
    withSynonyms(this.synonyms, () => this.addBatchNow(rows));
  }

  private addBatchNow(rows: (Indexed & { seq: number })[]): void {
    const df = new TermCounts();
    // One article at a time, its analysis dropped at once: 2,000 analyses held together cost five
    // times as much in garbage collection as the analysing itself.
    for (const r of rows) this.insertTerms.run(r.seq, this.file(analyse(r), df));
    this.writeDf(df);
    this.saveSizes();
  }

  /**
   * Empties the index; call inside the write's transaction (article-index.ts resetIndex, refilePassages), after any
   * change to the synonyms in it: they are read again, and the rebuild files every article with them.
   */
  reset(): void {
    this.db.exec(`DROP TABLE answer_terms; DROP TABLE answer_df; ${ANSWER_INDEX_DDL}`);
    this.sizes = { heads: 0, headTerms: 0, passages: 0, passageTerms: 0, writes: this.sizes.writes };
    this.saveSizes();
    this.db.run("INSERT INTO meta (key, value) VALUES ('answer_version', ?1) ON CONFLICT(key) DO UPDATE SET value = ?1", [String(INDEX_VERSION)]);
    this.readSynonyms();
  }

  /**
   * Whether what the index holds was filed by another version of the ranking (or by one from
   * before versions were kept): its entries and counts mean something else, and it must be rebuilt.
   * An index that holds nothing is merely marked as this version's.
   */
  outdated(): boolean {
    const row = this.db.query("SELECT value FROM meta WHERE key = 'answer_version'").get() as { value: string } | null;
    if (row?.value === String(INDEX_VERSION)) return false;
    const holds = this.db.query("SELECT 1 FROM answer_df LIMIT 1").get() !== null;
    if (!holds) this.reset();
    return holds;
  }

  /** Re-reads the sizes and the synonyms (after a rolled-back transaction, or another connection's writes). */
  reload(): void {
    this.sizes = PassageIndex.sizesIn(this.db);
    this.readSynonyms();
  }

  df(term: string): number {
    return this.dfOf.get(term)?.df ?? 0;
  }
}

/**
 * An article counted into the sizes and the terms' document frequencies (`sign` 1) or out (-1):
 * each term once per article, wherever it holds it (also bench/eval/memory-source.ts's counting).
 * `f`: its fields (score.ts fieldsOf), when the caller has them already.
 */
export function countInto(x: Analysis, sizes: Sizes, df: TermCounts, sign: 1 | -1, f: Fields = fieldsOf(x)): void {
  // The head's terms, then the body's it lacks: each once, with no Set of them made for each
  // article (docs/performance.md, Session 20).
  for (const t of f.head.keys()) df.add(t, sign);
  for (const t of f.body.keys()) if (!f.head.has(t)) df.add(t, sign);
  sizes.heads += sign;
  sizes.headTerms += sign * x.headLen;
  sizes.passages += sign * x.passages.length;
  sizes.passageTerms += sign * x.passages.reduce((n, p) => n + p.len, 0);
}

/** The corpus's sizes as ranking reads them (also bench/eval/memory-source.ts's). */
export function statsOf(s: Sizes): CorpusStats {
  if (!s.heads) return EMPTY_STATS;
  return {
    articles: s.heads,
    headLen: s.headTerms / s.heads,
    bodyLen: s.passageTerms / s.heads,
    passageLen: s.passages ? s.passageTerms / s.passages : EMPTY_STATS.passageLen,
  };
}
