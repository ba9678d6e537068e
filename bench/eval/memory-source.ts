/**
 * The passage index held in maps: a `RankingSource` (src/ranking/rank.ts) that files and counts
 * articles exactly as store/model/passage-index.ts does — one article at a time in row order, its
 * terms counted into the sizes before it is filed (filings() with the sizes so far, as a rebuild
 * does), each term's entries per tier in row order (as FTS5 gives them) — so that tuning runs the
 * ranking the binary runs, in seconds. test/ranking-source.test.ts checks that it ranks as the
 * SQLite index does. The one in-memory source: bench/answers-tune.ts, bench/followups.ts and
 * test/ranking-question.test.ts rank over it.
 */
import type { RankingSource } from "../../src/ranking/rank.ts";
import { analyse, type CorpusStats } from "../../src/ranking/score.ts";
import { filings } from "../../src/ranking/tiers.ts";
import type { CandidateRow } from "../../src/ranking/types.ts";
import { countInto, statsOf, type Sizes } from "../../src/store/model/passage-index.ts";
import { TermCounts } from "../../src/store/model/term-counts.ts";

export interface SourceArticle {
  id: string;
  title: string;
  keywords: string;
  /** Phrasings followers use, one a line (issue 34 D); none when absent. */
  questions?: string;
  description?: string;
  body: string;
}

export class MemorySource implements RankingSource {
  private readonly dfs = new TermCounts();
  /** term → per tier, the row numbers filed there, ascending. */
  private readonly filed = new Map<string, number[][]>();
  private readonly sizes: Sizes = { heads: 0, headTerms: 0, passages: 0, passageTerms: 0 };
  private readonly corpus: CorpusStats;

  /** Article i is row i + 1. */
  constructor(private readonly articles: readonly SourceArticle[]) {
    articles.forEach((a, i) => {
      const x = analyse({ ...a, questions: a.questions ?? "", description: a.description ?? "" });
      countInto(x, this.sizes, this.dfs, 1);
      for (const [t, tier] of filings(x, statsOf(this.sizes))) {
        const tiers = this.filed.get(t) ?? this.filed.set(t, []).get(t)!;
        (tiers[tier] ?? (tiers[tier] = [])).push(i + 1);
      }
    });
    this.corpus = statsOf(this.sizes);
  }

  stats(): CorpusStats {
    return this.corpus;
  }

  df(term: string): number {
    return this.dfs.get(term);
  }

  postings(term: string, tier: number, limit: number): number[] {
    return (this.filed.get(term)?.[tier] ?? []).slice(0, limit);
  }

  rows(seqs: readonly number[]): CandidateRow[] {
    const out: CandidateRow[] = [];
    for (const seq of [...seqs].sort((a, b) => a - b)) {
      const a = this.articles[seq - 1];
      if (a) out.push({ seq, id: a.id, title: a.title, keywords: a.keywords, questions: a.questions ?? "", description: a.description ?? "", body: a.body, url: `#${seq - 1}`, picurl: null });
    }
    return out;
  }
}
