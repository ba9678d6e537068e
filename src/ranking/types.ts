/** What a ranking is made of and gives, as the callback, `replyd ask` and the store's index share it. */
import type { QueryTerm } from "./score.ts";

/** An article as scoring reads it, with what an answer shows of it. */
export interface CandidateRow {
  /** The article's row number, as the index files it. */
  seq: number;
  id: string;
  title: string;
  keywords: string;
  /** The questions it answers, one a line. */
  questions: string;
  description: string;
  body: string;
  url: string;
  picurl: string | null;
}

export interface RankedArticle {
  id: string;
  title: string;
  description: string;
  url: string;
  picurl: string | null;
  score: number;
  coverage: number;
  /** The share of the question its head alone holds (score.ts). */
  headCoverage: number;
  /** Of a follow-up, the share of the follower's own words it holds; of a question alone, its coverage (score.ts). */
  ownCoverage: number;
  word: boolean;
  /** The questions the operator taught it, as kept (wechat/answering/taught.ts compares a message to them). */
  questions: string[];
  /** Its keywords, as kept (taught.ts: a message that is one of them, and no other article's). */
  keywords: string[];
  /** The head's (title, keywords and questions) part of the score. */
  head: number;
  /** The passage that answers, from the paragraph holding its answering sentence (excerpt.ts cardPassage; null: the article has only its head). */
  passage: string | null;
  passageScore: number;
  /** The passage cut down around its best sentence to fit a list (RANKING_LIMITS.excerptBytes). */
  excerpt: string | null;
  /** The article's best passages, for `replyd ask`. */
  passages: { text: string; score: number }[];
}

/** A question ranked against the account's articles. */
export interface Ranking {
  terms: QueryTerm[];
  /**
   * The words ranked in place of the question's, when they are not its own: a complaint of someone's
   * manner that nothing is sure of is ranked on 投诉 or "complaint" alone (complaint.ts). Absent: the question.
   */
  rankedAs?: string;
  /** The question's words no article holds that were read as the two words one article holds (compounds.ts: "bloodwork"), as written. */
  split?: string[];
  /** Index entries read. */
  postings: number;
  candidates: number;
  articles: RankedArticle[];
}

/** A ranking, or "busy" (too many questions wait), or null (it failed or took past its deadline). */
export type RankingResult = Ranking | "busy" | null;
