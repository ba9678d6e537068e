/**
 * The search worker: follower searches on a read-only connection of their own, off the event loop
 * (searcher.ts). Built into the single binary as a second entry point (scripts/build).
 */
import { Database } from "bun:sqlite";
import { findArticles } from "./search.ts";

declare const self: Worker;

export type SearchRequest = { type: "open"; path: string; abandoned: SharedArrayBuffer } | { type: "close" } | { type: "search"; id: number; words: string[] };
export type SearchReply = { id: number; ids: string[] } | { id: number; error: string } | { id: number; skipped: true };

let db: Database | null = null;
/** [0]: searches up to this id were given up by the event loop (past their deadline): skipped unrun. */
let abandoned: Int32Array<ArrayBufferLike> = new Int32Array(1);

self.onmessage = (event: MessageEvent<SearchRequest>) => {
  const m = event.data;
  if (m.type === "open") {
    db = new Database(m.path, { readonly: true });
    db.exec("PRAGMA busy_timeout = 1000");
    abandoned = new Int32Array(m.abandoned);
  } else if (m.type === "close") {
    db?.close();
    db = null;
    process.exit(0); // ends this worker only
  } else if (m.id <= Atomics.load(abandoned, 0)) {
    postMessage({ id: m.id, skipped: true } satisfies SearchReply);
  } else {
    try {
      postMessage({ id: m.id, ids: findArticles(db as Database, m.words, 1) } satisfies SearchReply);
    } catch (e) {
      postMessage({ id: m.id, error: (e as Error).message } satisfies SearchReply);
    }
  }
};
