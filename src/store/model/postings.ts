/**
 * What ranking reads of the read model (src/ranking/rank.ts `RankingSource`), on the search
 * worker's connection: the passage index's counts and entries, and the candidates' rows.
 */
import type { Database, Statement } from "bun:sqlite";
import type { RankingSource } from "../../ranking/rank.ts";
import type { CorpusStats } from "../../ranking/score.ts";
import type { CandidateRow } from "../../ranking/types.ts";
import { PassageIndex, statsOf, tierToken } from "./passage-index.ts";
import type { SynonymTable } from "../../ranking/synonyms.ts";
import { synonymsVersion, synonymTableIn } from "./synonyms.ts";
import { CostBoundMap } from "../../base/lru.ts";
import { liveQuestions, liveQuestionsMark, stillTaught } from "./live-questions.ts";

/** Index entries kept between questions, over every term, per account (the worker has a connection each): some 2 MB (tests lower it). */
export const POSTINGS_KEPT = { entries: 250_000 };

export class SqlitePostings implements RankingSource {
  private readonly dfOf: Statement<{ df: number }, [string]>;
  private readonly match: Statement<unknown, [string, number]>;
  private synonymsAt: string | null = null;
  /** The entries read, by tier and term, the read last at the end; as of the index's `writes` count keptAt. */
  private readonly kept = new CostBoundMap<string, { limit: number; seqs: readonly number[] }>(
    () => POSTINGS_KEPT.entries,
    (k) => k.seqs.length,
  );
  private keptAt: number | undefined = -1;
  private table: SynonymTable | null = null;
  /** The live articles' taught questions (live-questions.ts), as of their mark; the mark looked at again once the index was written (keptAt). */
  private taughtForms: { map: Map<string, string>; mark: string; at: number | undefined } | null = null;

  constructor(private readonly db: Database) {
    this.dfOf = db.query("SELECT df FROM answer_df WHERE term = ?");
    this.match = db.query("SELECT rowid AS seq FROM answer_terms WHERE answer_terms MATCH ? LIMIT ?");
  }

  /**
   * The operator's synonyms, read again whenever their version moved (one row looked up a question):
   * the question's terms are made with them, as the articles' were (search-worker.ts).
   */
  synonyms(): SynonymTable | null {
    const version = synonymsVersion(this.db);
    if (version !== this.synonymsAt) {
      this.table = synonymTableIn(this.db);
      this.synonymsAt = version;
    }
    return this.table;
  }

  /** Read first for each question (rank.ts): what was kept of the index's entries is forgotten when the index has been written since. */
  stats(): CorpusStats {
    const sizes = PassageIndex.sizesIn(this.db);
    if (sizes.writes !== this.keptAt) {
      this.kept.clear();
      this.keptAt = sizes.writes;
    }
    return statsOf(sizes);
  }

  taught(form: string): number | undefined {
    let t = this.taughtForms;
    if (t === null || t.at !== this.keptAt) {
      const mark = liveQuestionsMark(this.db);
      t = this.taughtForms = t?.mark === mark ? { ...t, at: this.keptAt } : { map: liveQuestions(this.db), mark, at: this.keptAt };
    }
    const id = t.map.get(form);
    return id === undefined ? undefined : stillTaught(this.db, id, form);
  }

  df(term: string): number {
    return this.dfOf.get(term)?.df ?? 0;
  }

  /** What is kept of the index's entries (tests). */
  keptSize(): { lists: number; entries: number } {
    return { lists: this.kept.size, entries: this.kept.cost };
  }

  /**
   * The entries of `term` at `tier`, as read last while the index has not been written since: the
   * same words come back question after question (a common character, the account's own words),
   * and reading them was two fifths of a question's ranking (docs/performance.md, Session 40). A
   * list shorter than the limit it was read with is all there is, for any limit.
   */
  postings(term: string, tier: number, limit: number): readonly number[] {
    const key = `${tier}\u0000${term}`;
    const kept = this.kept.get(key);
    if (kept && (kept.limit >= limit || kept.seqs.length < kept.limit)) return kept.seqs.length > limit ? kept.seqs.slice(0, limit) : kept.seqs;
    // As arrays, not objects: a question reads up to 4,096 entries, and making an object of each was
    // most of what reading them cost.
    const seqs = (this.match.values(`"${tierToken(term, tier)}"`, limit) as [number][]).map((r) => r[0]);
    this.kept.set(key, { limit, seqs });
    return seqs;
  }

  rows(seqs: readonly number[]): CandidateRow[] {
    const rows = this.db
      .query(`SELECT seq, id, title, keyword_text AS keywords, question_text AS questions, description, body, url, picurl FROM articles WHERE deleted = 0 AND seq IN (${seqs.map(() => "?").join(",")})`)
      .all(...seqs) as CandidateRow[];
    for (const r of rows) if (r.questions.includes("\\")) r.questions = unescaped(r.questions);
    return rows;
  }
}

/**
 * question_text is the JSON array's text between its quotes: a question holding a quote or a
 * backslash is still escaped there (\" \\). Read back as written, so that a follower typing it
 * meets it (wechat/answering/taught.ts); a line JSON cannot read is kept as it is.
 */
function unescaped(lines: string): string {
  return lines
    .split("\n")
    .map((line) => {
      try {
        return JSON.parse(`"${line}"`) as string;
      } catch {
        return line;
      }
    })
    .join("\n");
}
