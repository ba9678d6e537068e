/**
 * The scoring formula (docs/answers.md "How articles are ranked"): BM25F over a whole article, its
 * head (title and keywords — where an operator's own phrasings will go too) and its body as two
 * fields, each normalised by its own length against the account's average, their term counts
 * combined with the head's weighing headWeight times before one saturation; idf over the account's
 * articles. Pure numbers: what an article holds comes from score.ts, the counts from the store.
 */

/** Tunable by bench/answers-tune.ts (`--set k=v`); nothing else changes them. */
export const RANKING: { k1: number; b: number; headWeight: number; localIdf: number; shownContext: number; shownEarlier: number; titleBoost: number; keywordBoost: number; charCredit: number; charsAsWord: number; explanation: number } = {
  /** Term-frequency saturation and length normalisation (each field against its own average): BM25's usual values, and the best on the tuning halves. */
  k1: 1.2,
  b: 0.75,
  /** A term in the head counts this many times one in the body (before its length normalisation: a short title's word weighs more). */
  headWeight: 1,
  /** The within-article weight's exponent when choosing the passage to show (0: plain BM25). */
  localIdf: 1,
  /**
   * A follow-up's earlier question's words, in choosing the passage to show, weigh this share of
   * what they weigh in the ranking (question.ts CONTEXT.weight of their idf): the follower's own
   * words choose the passage, the earlier question's tell apart passages holding them alike. No
   * set measures the passage a follow-up shows; a half keeps the earlier words from outweighing a
   * follower's one word (the Jersey test of test/server/answers.test.ts fails at 1).
   */
  shownContext: 0.5,
  /**
   * The passage shown is the article's first scoring at least this share of its best: an article
   * opens on its answer, its later paragraphs add the exceptions and notes that repeat the
   * question's words ("导出成pdf" had been shown the private notes' caveat "…才能导出", not the way to
   * export). Session 36: the passage shown on every set with it, none losing (CMRC dev 0.865 →
   * 0.878, our English FAQ 0.48 → 0.52); 0.75 was the best on the tuning halves (0.7 and 0.8 near).
   */
  shownEarlier: 0.75,
  /** An article whose whole title the question writes out scores this much more (names.ts). */
  titleBoost: 0.2,
  /**
   * …and one of whose keywords (two characters or more) the question writes out whole, this much
   * (names.ts namesKeyword): the operator said the article is about that word. "服务中心在哪" had
   * listed three articles mentioning the service centre in passing before the one keyworded 服务中心
   * (a residential compound's walkthrough). Session 38, on the tuning halves of our FAQ accounts:
   * 0.3 and 0.4 best (first 0.743 → 0.800 Chinese, offered 0.833 → 0.848 English, single wrong the
   * same), 0.3 the smaller; the follow-up set's tuning half 0.820 → 0.828.
   */
  keywordBoost: 0.3,
  /**
   * A question's Han character that the article holds only outside the question's pairs counts
   * this share of its place in the share held (score.ts): followers write 订了位 where the article
   * says 订位. 1 let the invoice question of test/server/answers.test.ts hold 30 % of the refund
   * article; 0.5 was best on the tuning halves (docs/performance.md Session 18).
   */
  charCredit: 0.5,
  /**
   * Han characters of the question an article holds, no pair of them, that count as holding a word
   * of it (score.ts `word`, which the choice requires): a character or two in common is no
   * relevance ("天" in 七天 and 天气). 2 and 3 measured the same on the tuning halves (Session 21).
   */
  charsAsWord: 3,
  /**
   * The share of its place a word weighs in the share held (score.ts) when it is only in the
   * follower's explanation after the question (explanation.ts: "能上门取件吗 我在家带娃出不去", "can you
   * send letters in large print, my eyesight's not good"). Session 49, on every FAQ set: 0.5 five
   * more right first, one more offered, one single wrong article fewer, as many refused; 0.25 more
   * right first on the third fresh English set, refusals lost on three halves.
   */
  explanation: 0.5,
};

/** The account's sizes, over every indexed article. */
export interface CorpusStats {
  /** Articles indexed: idf's N. */
  articles: number;
  /** Mean terms per head, per body, per passage. */
  headLen: number;
  bodyLen: number;
  passageLen: number;
}

export interface QueryTerm {
  term: string;
  idf: number;
  /** Some article holds it (its df is above 0): only these are looked up. */
  known: boolean;
  /** A follow-up's earlier question's, not the follower's own words (question.ts withContext). */
  earlier?: true;
}

export const idf = (df: number, n: number) => Math.log(1 + (n - df + 0.5) / (df + 0.5));

/** One field's length normalisation. */
const norm = (len: number, avg: number, b: number) => 1 - b + (b * len) / Math.max(avg, 1);

/** A combined (pseudo) term frequency saturated: at most k1 + 1. */
const saturate = (tf: number) => (tf * (RANKING.k1 + 1)) / (tf + RANKING.k1);

/** What an article holds, as BM25F reads it: each field's term counts and length. */
export interface Fields {
  head: Map<string, number>;
  headLen: number;
  body: Map<string, number>;
  bodyLen: number;
}

/** `term`'s weight in the article short of its idf: its saturated combined frequency (what the index files it at, tiers.ts). */
export function termWeight(term: string, f: Fields, stats: CorpusStats): number {
  const tf = (RANKING.headWeight * (f.head.get(term) ?? 0)) / norm(f.headLen, stats.headLen, RANKING.b) + (f.body.get(term) ?? 0) / norm(f.bodyLen, stats.bodyLen, RANKING.b);
  return tf > 0 ? saturate(tf) : 0;
}

/** The article's score for the question's terms. */
export function articleScore(q: readonly QueryTerm[], f: Fields, stats: CorpusStats): number {
  let s = 0;
  for (const t of q) s += t.idf * termWeight(t.term, f, stats);
  return s;
}

/** Plain BM25 of one passage (its terms counted), for choosing the passage to show. */
export function passageScore(q: readonly QueryTerm[], counts: Map<string, number>, len: number, avg: number): number {
  let s = 0;
  const n = norm(len, avg, RANKING.b);
  for (const { term, idf } of q) {
    const f = counts.get(term);
    if (f) s += idf * saturate(f / n);
  }
  return s;
}
