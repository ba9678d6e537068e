/**
 * The search worker: follower searches on a read-only connection of their own, off the event loop,
 * handed one at a time in the order searcher.ts chooses. Built into the single binary as a second entry point (scripts/build).
 */
import { Database } from "bun:sqlite";
import type { SearchReply, SearchRequest } from "../../ranking/protocol.ts";
import { rank } from "../../ranking/rank.ts";
import { withSynonyms } from "../../ranking/synonyms.ts";
import { PassageIndex } from "./passage-index.ts";
import { SqlitePostings } from "./postings.ts";
import { findArticles } from "./search.ts";

declare const self: Worker;

let db: Database | null = null;
let postings: SqlitePostings | null = null;

self.onmessage = (event: MessageEvent<SearchRequest>) => {
  const m = event.data;
  if (m.type === "open") {
    try {
      db = new Database(m.path, { readonly: true });
      db.exec("PRAGMA busy_timeout = 1000");
      postings = new SqlitePostings(db);
    } catch {
      db = null;
      postings = null; // each search then answers its error (the store was closed, or its folder removed)
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
          answers: PassageIndex.sizesIn(d).heads,
          pending,
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
