/**
 * The messages between the event loop and the search worker (store/model/search-worker.ts): a
 * question to rank, words to search the titles for, the index's counts.
 */
import type { Question } from "./question.ts";
import type { Ranking } from "./types.ts";

export type SearchRequest =
  | { type: "open"; path: string }
  | { type: "close" }
  | { type: "search"; id: number; words: string[] }
  /** `question` with, for a follow-up, the earlier question and the articles left out (question.ts). */
  | ({ type: "rank"; id: number; question: string } & Omit<Question, "text">)
  | { type: "count"; id: number };
export type SearchReply =
  | { id: number; ids: string[] }
  | { id: number; ranking: Ranking }
  | { id: number; error: string }
  | { id: number; counts: IndexCounts };
export interface IndexCounts {
  articles: number;
  fts: number;
  grams: number;
  /** Live articles, and the articles the passage index holds (all live ones when whole). */
  live: number;
  answers: number;
  /** The rebuild marker, when a rebuild is under way (the counts then say nothing of what it rebuilds). */
  pending: string | null;
  /** The rebuild under way files the passage index alone: the search indexes' counts still say something. */
  passagesOnly: boolean;
}
