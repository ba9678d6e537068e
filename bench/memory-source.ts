/**
 * The ranking's source (src/ranking/rank.ts `RankingSource`) held in memory, filed as the passage
 * index files it (store/model/passage-index.ts: each article under its words and its head's
 * characters, at the tier of its weight there; df over heads and passages): the real ranking
 * code over a set of articles, without a store. Used by bench/followups.ts.
 */
import type { RankingSource } from "../src/ranking/rank.ts";
import { analyse, termImpacts, type CorpusStats } from "../src/ranking/score.ts";
import { tierOf } from "../src/ranking/tiers.ts";
import type { CandidateRow } from "../src/ranking/types.ts";
import { filed } from "../src/store/model/passage-index.ts";

export interface MemoryArticle {
  id: string;
  title: string;
  keywords: string;
  body: string;
  description?: string;
  /** Phrasings followers use, one a line (issue 34 D). */
  questions?: string;
}

export class MemorySource implements RankingSource {
  private readonly rowsBySeq = new Map<number, CandidateRow>();
  private readonly dfs = new Map<string, number>();
  private readonly filed = new Map<string, number[]>();
  private readonly corpus: CorpusStats;

  constructor(articles: readonly MemoryArticle[]) {
    const analysed = articles.map((a) => analyse({ title: a.title, keywords: a.keywords, questions: a.questions ?? "", description: a.description ?? "", body: a.body }));
    let units = 0;
    let passages = 0;
    let passageTerms = 0;
    let headTerms = 0;
    for (const x of analysed) {
      units += x.passages.length + 1;
      passages += x.passages.length;
      headTerms += x.headLen;
      for (const p of x.passages) {
        passageTerms += p.len;
        for (const t of p.counts.keys()) this.dfs.set(t, (this.dfs.get(t) ?? 0) + 1);
      }
      for (const t of x.head.keys()) this.dfs.set(t, (this.dfs.get(t) ?? 0) + 1);
    }
    this.corpus = { passages: units, passageLen: passages ? passageTerms / passages : 60, headLen: articles.length ? headTerms / articles.length : 8 };
    analysed.forEach((x, i) => {
      const seq = i + 1;
      const a = articles[i] as MemoryArticle;
      this.rowsBySeq.set(seq, { seq, id: a.id, title: a.title, keywords: a.keywords, description: a.description ?? "", questions: a.questions ?? "", body: a.body, url: `https://example.com/${a.id}`, picurl: null });
      for (const [t, w] of termImpacts(x, this.corpus)) {
        if (!filed(t, x)) continue;
        const key = `${t}\u0000${tierOf(w)}`;
        (this.filed.get(key) ?? this.filed.set(key, []).get(key)!).push(seq);
      }
    });
  }

  stats(): CorpusStats {
    return this.corpus;
  }

  df(term: string): number {
    return this.dfs.get(term) ?? 0;
  }

  postings(term: string, tier: number, limit: number): number[] {
    return (this.filed.get(`${term}\u0000${tier}`) ?? []).slice(0, limit);
  }

  rows(seqs: readonly number[]): CandidateRow[] {
    return seqs.map((s) => this.rowsBySeq.get(s)).filter((r): r is CandidateRow => r !== undefined);
  }
}
