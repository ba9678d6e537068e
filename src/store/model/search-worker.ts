/**
 * The search worker: follower searches on a read-only connection of their own, off the event loop,
 * handed one at a time in the order searcher.ts chooses. Built into the single binary as a second entry point (scripts/build).
 */
import { Database } from "bun:sqlite";
import { AnswerIndex } from "./answer-index.ts";
import { AnswerRanker, type Answer } from "./answers.ts";
import { findArticles } from "./search.ts";

declare const self: Worker;

export type SearchRequest =
  | { type: "open"; path: string }
  | { type: "close" }
  | { type: "search"; id: number; words: string[] }
  | { type: "answer"; id: number; question: string }
  | { type: "count"; id: number };
export type SearchReply =
  | { id: number; ids: string[] }
  | { id: number; answer: Answer }
  | { id: number; error: string }
  | { id: number; counts: IndexCounts };
export interface IndexCounts {
  articles: number;
  fts: number;
  grams: number;
  /** Live articles, and the articles the passage index holds (all live ones when whole). */
  live: number;
  answers: number;
  /** The rebuild marker, when a rebuild is under way (the counts then say nothing). */
  pending: string | null;
}

let db: Database | null = null;
let ranker: AnswerRanker | null = null;

self.onmessage = (event: MessageEvent<SearchRequest>) => {
  const m = event.data;
  if (m.type === "open") {
    try {
      db = new Database(m.path, { readonly: true });
      db.exec("PRAGMA busy_timeout = 1000");
      ranker = new AnswerRanker(db);
    } catch {
      db = null;
      ranker = null; // each search then answers its error (the store was closed, or its folder removed)
    }
  } else if (m.type === "close") {
    db?.close();
    db = null;
    process.exit(0); // ends this worker only
  } else if (m.type === "count") {
    // One read transaction: the three counts and the marker come from the same instant.
    try {
      if (!db) throw new Error("the database could not be opened");
      const d = db;
      const counts = d.transaction(() => {
        const n = (sql: string) => (d.query(sql).get() as { n: number }).n;
        const pending = (d.query("SELECT value FROM meta WHERE key = 'fts_rebuild_from'").get() as { value: string } | null)?.value ?? null;
        return {
          articles: n("SELECT count(*) AS n FROM articles"),
          fts: n("SELECT count(*) AS n FROM articles_fts"),
          grams: n("SELECT count(*) AS n FROM articles_grams"),
          live: n("SELECT count(*) AS n FROM articles WHERE deleted = 0"),
          answers: AnswerIndex.sizesIn(d).heads,
          pending,
        };
      })();
      postMessage({ id: m.id, counts } satisfies SearchReply);
    } catch (e) {
      postMessage({ id: m.id, error: (e as Error).message } satisfies SearchReply);
    }
  } else {
    try {
      if (!db || !ranker) throw new Error("the database could not be opened");
      if (m.type === "answer") postMessage({ id: m.id, answer: ranker.rank(m.question) } satisfies SearchReply);
      else postMessage({ id: m.id, ids: findArticles(db, m.words, 1) } satisfies SearchReply);
    } catch (e) {
      postMessage({ id: m.id, error: (e as Error).message } satisfies SearchReply);
    }
  }
};
