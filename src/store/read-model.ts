/**
 * The read model: what routes and the responder read, synchronously — the articles, content, the
 * follower search. It is an SQLite file in both backends (model/): the data folder's own database,
 * or PostgreSQL's local copy kept up to date from the database's change feed.
 */
import type { Article, ArticleSummary } from "../article/article.ts";
import type { Menu } from "../doc/menu.ts";
import type { Rule, Tags, Texts } from "../doc/rule.ts";
import type { SynonymGroup } from "../doc/synonyms.ts";
import type { Question } from "../ranking/question.ts";
import type { RankingResult } from "../ranking/types.ts";

/** The menu as stored, with when it was changed and when the platform last took it. */
export interface StoredMenu {
  menu: Menu;
  updated_at: string;
  /** When the platform last took this menu; null: changed since (or never pushed). */
  pushed_at: string | null;
}

/** The search indexes checked against the articles at start: being checked, found whole, rebuilt, or not known. */
export type IndexCheck = "checking" | "ok" | "rebuilt" | "unknown";

export interface ListQuery {
  tag?: string;
  code?: string;
  /** Words that must all appear in the title, description or keywords. */
  q?: string;
  /** live (default), all, or only the soft-deleted. */
  deleted?: "live" | "all" | "only";
  limit: number;
  offset: number;
}

/** The articles as the read model holds them. */
export interface ArticleReads {
  get(id: string): Article | null;
  getLiveByCode(code: string): Article | null;
  /** The deleted article a question in taught form (ranking/taught-form.ts) was taught to, or null (model/deleted-questions.ts). */
  deletedTaught(form: string): string | null;
  exists(id: string): boolean;
  /** Listings go without the long fields (the body). */
  list(q: ListQuery): { items: ArticleSummary[]; total: number };
  byTag(tag: string, limit: number): ArticleSummary[];
  tagCounts(): ReadonlyMap<string, number>;
  /** The titles of the `n` live articles added last (the account's language when nothing else says it). */
  newestTitles(n: number): string[];
  counts(): { live: number; deleted: number };
  /** Live articles whose code cannot label a list's entry: none, or longer than `chars` (a list holding one is numbered). */
  unlabelledLive(chars: number): number;
  /** The articles' search indexes (model/article-index.ts). */
  readonly index: ArticleIndexReads;
}

/** The search indexes as health and the accounts list read them. */
export interface ArticleIndexReads {
  /** Every index complete, or how far a rebuild has come (0–1). */
  readonly indexComplete: boolean;
  indexProgress(): number;
  /** The title and keyword search indexes complete: a rebuild, if any, files the passage index alone. */
  readonly searchIndexComplete: boolean;
  /** What the passage index holds: articles (live ones) and passages (model/passage-index.ts). */
  passageIndexSizes(): { articles: number; passages: number };
}

/** Tags, rules, texts, the menu and the synonyms as the read model holds them. */
export interface ContentReads {
  tags(): Tags;
  rules(): Rule[];
  /** Moves whenever the rules are written (a regex cache keys on it). */
  readonly rulesVersion: number;
  texts(): Texts;
  menu(): StoredMenu | null;
  /** The operator's synonyms (src/doc/synonyms.ts), applied by the ranking. */
  synonyms(): SynonymGroup[];
  counts(): { tags: number; rules: number; texts: number; synonyms: number };
}

/** The article found by a word search (null: none), or "busy" (too many searches wait). */
export type SearchResult = { id: string | null } | "busy";

/** Who asks and until when: one follower's question, its ranking and its word search alike. */
export interface Asking {
  /** The follower's OpenID: their searches wait in their own turn. */
  from: string;
  /** When the answer is no longer wanted (Date.now()'s clock). */
  deadlineAt: number;
}

/** Follower search, on its worker thread, each follower's in their turn (model/searcher.ts). */
export interface SearchReads {
  /** A follower's question: who asks, and its one deadline for its ranking and word search together. */
  asking(from: string): Asking;
  search(words: string[], asking?: Asking): Promise<SearchResult>;
  /** The articles ranked for a follower's question, or a follow-up read with the one before (src/ranking/rank.ts). */
  rank(question: string | Question, asking?: Asking): Promise<RankingResult>;
  /** Searches waiting or running now, and since start answered "busy", past their deadline or skipped. */
  readonly queued: number;
  readonly counts: { busy: number; late: number; skipped: number };
}

export interface ReadModel {
  readonly articles: ArticleReads;
  readonly content: ContentReads;
  readonly searcher: SearchReads;
  /** "checking" until the indexes have been counted against the articles after start. */
  readonly indexVerified: IndexCheck;
  /** The folder /media/* is served from. */
  readonly mediaDir: string;
  /** A folder on the data's disk for uploads in progress (the system's temp folder may be small, or memory). */
  readonly spoolDir: string;
}
