/**
 * The search worker: follower searches on a read-only connection of their own, off the event loop
 * (searcher.ts). Built into the single binary as a second entry point (scripts/build).
 */
import { Database } from "bun:sqlite";
import { findArticles } from "./search.ts";

declare const self: Worker;

export type SearchRequest = { type: "open"; path: string } | { type: "close" } | { type: "search"; id: number; words: string[] };
export type SearchReply = { id: number; ids: string[] } | { id: number; error: string };

let db: Database | null = null;

self.onmessage = (event: MessageEvent<SearchRequest>) => {
  const m = event.data;
  if (m.type === "open") {
    db = new Database(m.path, { readonly: true });
    db.exec("PRAGMA busy_timeout = 1000");
  } else if (m.type === "close") {
    db?.close();
    db = null;
    process.exit(0); // ends this worker only
  } else {
    try {
      postMessage({ id: m.id, ids: findArticles(db as Database, m.words, 1) } satisfies SearchReply);
    } catch (e) {
      postMessage({ id: m.id, error: (e as Error).message } satisfies SearchReply);
    }
  }
};
