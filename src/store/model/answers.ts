/**
 * A follower's question ranked against the account's articles (docs/answers.md), on the search
 * worker's connection. Bounded whatever the question: at most ANSWER_LIMITS.terms of its terms take
 * part, the passage index gives at most ANSWER_LIMITS.postings entries in all (each term its
 * heaviest tiers first, rarest terms first), and only the best ANSWER_LIMITS.candidates articles by
 * those entries are read and scored exactly (src/ranking.ts), their bodies cut and counted again —
 * at most SCORED_PASSAGES passages of each (src/scored-passages.ts), whatever its size.
 */
import type { Database, Statement } from "bun:sqlite";
import { excerpt, passageText, queryTerms, scoreArticle, titleForm, type QueryTerm } from "../../ranking.ts";
import { AnswerIndex, TIERS, tierToken } from "./answer-index.ts";

export const ANSWER_LIMITS = {
  /** Characters of a question that take part. */
  questionChars: 600,
  /** Terms of a question that take part (the rarest). */
  terms: 32,
  /** Index entries read per question, and per term. */
  postings: 4096,
  postingsPerTerm: 1024,
  /** Articles scored exactly. */
  candidates: 16,
  /** Articles answered. */
  ranked: 5,
  /** UTF-8 bytes of the cut-down passage each answered article carries for a list. */
  excerptBytes: 560,
} as const;

/** What each tier adds to a candidate's provisional score, per unit of idf: about the middle of its range. */
const TIER_WEIGHT = [2.6, 1.8, 1.1, 0.6] as const;

export interface RankedArticle {
  id: string;
  title: string;
  description: string;
  url: string;
  picurl: string | null;
  score: number;
  coverage: number;
  word: boolean;
  /** The head's (title and keywords) part of the score. */
  head: number;
  /** The passage that answers, whole (null: the article has only its head). */
  passage: string | null;
  passageScore: number;
  /** The passage cut down around its best sentence to fit a list (ANSWER_LIMITS.excerptBytes). */
  excerpt: string | null;
  /** The article's best passages, for `replyd ask`. */
  passages: { text: string; score: number }[];
}

export interface Answer {
  terms: QueryTerm[];
  /** Index entries read. */
  postings: number;
  candidates: number;
  articles: RankedArticle[];
}

interface CandidateRow {
  seq: number;
  id: string;
  title: string;
  keywords: string;
  description: string;
  body: string;
  url: string;
  picurl: string | null;
}

export class AnswerRanker {
  private readonly df: Statement<{ df: number }, [string]>;
  private readonly match: Statement<{ seq: number }, [string, number]>;

  constructor(private readonly db: Database) {
    this.df = db.query("SELECT df FROM answer_df WHERE term = ?");
    this.match = db.query("SELECT rowid AS seq FROM answer_terms WHERE answer_terms MATCH ? LIMIT ?");
  }

  rank(question: string): Answer {
    const stats = AnswerIndex.stats(this.db);
    const all = queryTerms(question.slice(0, ANSWER_LIMITS.questionChars), (t) => this.df.get(t)?.df ?? 0, stats);
    // The rarest known terms are looked up; the others still weigh in the share of the question an article holds.
    const terms = all
      .filter((t) => t.known)
      .sort((a, b) => b.idf - a.idf)
      .slice(0, ANSWER_LIMITS.terms);
    const scoring = [...terms, ...all.filter((t) => !t.known).slice(0, ANSWER_LIMITS.terms)];
    const asked = titleForm(question.slice(0, ANSWER_LIMITS.questionChars));
    const provisional = new Map<number, number>();
    let read = 0;
    for (const t of terms) {
      let mine = 0;
      for (let tier = 0; tier < TIERS.length; tier++) {
        const room = Math.min(ANSWER_LIMITS.postingsPerTerm - mine, ANSWER_LIMITS.postings - read);
        if (room <= 0) break;
        const rows = this.match.all(`"${tierToken(t.term, tier)}"`, room);
        mine += rows.length;
        read += rows.length;
        const w = t.idf * (TIER_WEIGHT[tier] as number);
        for (const r of rows) provisional.set(r.seq, (provisional.get(r.seq) ?? 0) + w);
      }
    }
    const seqs = [...provisional]
      .sort((a, b) => b[1] - a[1] || a[0] - b[0])
      .slice(0, ANSWER_LIMITS.candidates)
      .map(([seq]) => seq);
    const rows = seqs.length
      ? (this.db
          .query(`SELECT seq, id, title, keyword_text AS keywords, description, body, url, picurl FROM articles WHERE deleted = 0 AND seq IN (${seqs.map(() => "?").join(",")})`)
          .all(...seqs) as CandidateRow[])
      : [];
    const scored = rows
      .map((r) => ({ r, s: scoreArticle(scoring, r, stats, asked) }))
      .filter((x) => x.s.score > 0)
      .sort((a, b) => b.s.score - a.s.score || (a.r.id < b.r.id ? -1 : 1))
      .slice(0, ANSWER_LIMITS.ranked);
    const articles = scored.map(({ r, s }): RankedArticle => {
      const text = passageText(r);
      const shown = s.shown;
      return {
        id: r.id,
        title: r.title,
        description: r.description,
        url: r.url,
        picurl: r.picurl,
        score: round(s.score),
        coverage: round(s.coverage),
        word: s.word,
        head: round(s.head),
        passage: shown ? text.slice(shown.start, shown.end).trim() : null,
        passageScore: shown ? round(shown.score) : 0,
        excerpt: shown ? excerpt(text, shown, terms, ANSWER_LIMITS.excerptBytes) : null,
        passages: [...s.passages]
          .sort((a, b) => b.score - a.score)
          .slice(0, 3)
          .filter((p) => p.score > 0)
          .map((p) => ({ text: text.slice(p.start, p.end).trim(), score: round(p.score) })),
      };
    });
    return { terms: terms.map((t) => ({ term: t.term, idf: round(t.idf), known: true })), postings: read, candidates: seqs.length, articles };
  }
}

const round = (x: number) => Math.round(x * 1000) / 1000;
