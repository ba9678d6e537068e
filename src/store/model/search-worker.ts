/**
 * The search worker: follower searches on read-only connections of their own, off the event loop,
 * one connection per channel (a store's Searcher: the process's stores share this thread,
 * search-thread.ts), handed in the order the searchers choose. Built into the single binary as a
 * second entry point (scripts/build).
 */
import { Database } from "bun:sqlite";
import { refuseMainThread } from "../../base/worker-only.ts";
import type { SearchReply } from "../../ranking/protocol.ts";
import { rank } from "../../ranking/rank.ts";
import { withSynonyms } from "../../ranking/synonyms.ts";
import { PassageIndex } from "./passage-index.ts";
import { SqlitePostings } from "./postings.ts";
import { findArticles } from "./search.ts";
import { rebuildState } from "./rebuild-marker.ts";
import type { ThreadMessage, ThreadReply } from "./search-thread.ts";

declare const self: Worker;

refuseMainThread("src/store/model/search-worker.ts");

/** Each channel's connection; null when it could not be opened (its searches then answer the error). */
const connections = new Map<number, { db: Database; postings: SqlitePostings } | null>();

self.onmessage = (event: MessageEvent<ThreadMessage>) => {
  const message = event.data;
  if ("exit" in message) {
    for (const c of connections.values()) c?.db.close();
    process.exit(0); // ends this worker only
  }
  const { ch, m } = message;
  const postMessage = (r: SearchReply) => self.postMessage({ ch, r } satisfies ThreadReply);
  if (m.type === "open") {
    connections.get(ch)?.db.close();
    try {
      const db = new Database(m.path, { readonly: true });
      db.exec("PRAGMA busy_timeout = 1000");
      connections.set(ch, { db, postings: new SqlitePostings(db) });
    } catch {
      connections.set(ch, null); // each search then answers its error (the store was closed, or its folder removed)
    }
    return;
  }
  if (m.type === "close") {
    connections.get(ch)?.db.close();
    connections.delete(ch);
    return;
  }
  const db = connections.get(ch)?.db ?? null;
  const postings = connections.get(ch)?.postings ?? null;
  if (m.type === "count") {
    // One read transaction: the three counts and the marker come from the same instant.
    try {
      if (!db) throw new Error("the database could not be opened");
      const d = db;
      const counts = d.transaction(() => {
        const n = (sql: string) => (d.query(sql).get() as { n: number }).n;
        const rebuild = rebuildState(d);
        return {
          articles: n("SELECT count(*) AS n FROM articles"),
          fts: n("SELECT count(*) AS n FROM articles_fts"),
          grams: n("SELECT count(*) AS n FROM articles_grams"),
          live: n("SELECT count(*) AS n FROM articles WHERE deleted = 0"),
          answers: PassageIndex.sizesIn(d).heads,
          pending: rebuild ? String(rebuild.from) : null,
          passagesOnly: rebuild?.passagesOnly ?? false,
        };
      })();
      postMessage({ id: m.id, counts } satisfies SearchReply);
    } catch (e) {
      postMessage({ id: m.id, error: (e as Error).message } satisfies SearchReply);
    }
  } else {
    try {
      if (!db || !postings) throw new Error("the database could not be opened");
      if (m.type === "rank") {
        const source = postings;
        postMessage({ id: m.id, ranking: withSynonyms(source.synonyms(), () => rank({ text: m.question, context: m.context, exclude: m.exclude }, source)) } satisfies SearchReply);
      }
      else postMessage({ id: m.id, ids: findArticles(db, m.words, 1) } satisfies SearchReply);
    } catch (e) {
      postMessage({ id: m.id, error: (e as Error).message } satisfies SearchReply);
    }
  }
};
