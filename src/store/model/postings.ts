/**
 * What ranking reads of the read model (src/ranking/rank.ts `RankingSource`), on the search
 * worker's connection: the passage index's counts and entries, and the candidates' rows.
 */
import type { Database, Statement } from "bun:sqlite";
import type { RankingSource } from "../../ranking/rank.ts";
import type { CorpusStats } from "../../ranking/score.ts";
import type { CandidateRow } from "../../ranking/types.ts";
import { PassageIndex, tierToken } from "./passage-index.ts";

export class SqlitePostings implements RankingSource {
  private readonly dfOf: Statement<{ df: number }, [string]>;
  private readonly match: Statement<{ seq: number }, [string, number]>;

  constructor(private readonly db: Database) {
    this.dfOf = db.query("SELECT df FROM answer_df WHERE term = ?");
    this.match = db.query("SELECT rowid AS seq FROM answer_terms WHERE answer_terms MATCH ? LIMIT ?");
  }

  stats(): CorpusStats {
    return PassageIndex.stats(this.db);
  }

  df(term: string): number {
    return this.dfOf.get(term)?.df ?? 0;
  }

  postings(term: string, tier: number, limit: number): number[] {
    return this.match.all(`"${tierToken(term, tier)}"`, limit).map((r) => r.seq);
  }

  rows(seqs: readonly number[]): CandidateRow[] {
    return this.db
      .query(`SELECT seq, id, title, keyword_text AS keywords, question_text AS questions, description, body, url, picurl FROM articles WHERE deleted = 0 AND seq IN (${seqs.map(() => "?").join(",")})`)
      .all(...seqs) as CandidateRow[];
  }
}
