import { Database } from "bun:sqlite";
import { DELETED_QUESTIONS_INDEX } from "./deleted-questions.ts";
import { LIVE_QUESTIONS_INDEX } from "./live-questions.ts";
import { ANSWER_INDEX_DDL } from "./passage-index.ts";

/**
 * Each entry moves the schema one version forward; PRAGMA user_version records where a file is.
 * Append only: a released migration is never edited.
 */
export const MIGRATIONS: readonly string[] = [
  `CREATE TABLE articles (
     seq         INTEGER PRIMARY KEY,  -- stable rowid for the full-text index
     id          TEXT NOT NULL UNIQUE,
     code        TEXT,
     tag         TEXT,
     title       TEXT NOT NULL,
     description TEXT NOT NULL DEFAULT '',
     url         TEXT NOT NULL,
     picurl      TEXT,
     keywords    TEXT NOT NULL DEFAULT '[]',
     deleted     INTEGER NOT NULL DEFAULT 0,
     rev         INTEGER NOT NULL DEFAULT 1,
     created_at  TEXT NOT NULL,
     updated_at  TEXT NOT NULL
   );
   CREATE UNIQUE INDEX articles_live_code ON articles (lower(code)) WHERE deleted = 0 AND code IS NOT NULL;
   CREATE INDEX articles_tag ON articles (tag);
   CREATE TABLE tags (tag TEXT PRIMARY KEY, description TEXT NOT NULL) WITHOUT ROWID;
   CREATE TABLE rules (id TEXT PRIMARY KEY, position INTEGER NOT NULL, body TEXT NOT NULL) WITHOUT ROWID;
   CREATE TABLE texts (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;`,

  // Follower search (trigram: substrings match, Chinese included) and the message log.
  `CREATE VIRTUAL TABLE articles_fts USING fts5(title, keywords, description, content='articles', content_rowid='seq', tokenize='trigram');
   INSERT INTO articles_fts (rowid, title, keywords, description) SELECT seq, title, keywords, description FROM articles;
   CREATE TRIGGER articles_fts_insert AFTER INSERT ON articles BEGIN
     INSERT INTO articles_fts (rowid, title, keywords, description) VALUES (new.seq, new.title, new.keywords, new.description);
   END;
   CREATE TRIGGER articles_fts_delete AFTER DELETE ON articles BEGIN
     INSERT INTO articles_fts (articles_fts, rowid, title, keywords, description) VALUES ('delete', old.seq, old.title, old.keywords, old.description);
   END;
   CREATE TRIGGER articles_fts_update AFTER UPDATE OF title, keywords, description ON articles BEGIN
     INSERT INTO articles_fts (articles_fts, rowid, title, keywords, description) VALUES ('delete', old.seq, old.title, old.keywords, old.description);
     INSERT INTO articles_fts (rowid, title, keywords, description) VALUES (new.seq, new.title, new.keywords, new.description);
   END;
   CREATE TABLE messages (
     seq         INTEGER PRIMARY KEY,
     received_at TEXT NOT NULL,
     msg_key     TEXT NOT NULL UNIQUE,
     from_user   TEXT NOT NULL,
     type        TEXT NOT NULL,
     event       TEXT,
     content     TEXT,
     answer      TEXT NOT NULL,  -- how it was answered: rule:<id>, help, code, tag, search, welcome, fallback, not_found, none
     unmatched   INTEGER NOT NULL DEFAULT 0
   );
   CREATE INDEX messages_unmatched ON messages (seq) WHERE unmatched = 1;
   CREATE INDEX messages_received ON messages (received_at);`,

  // The search index leaves the write path: a plain FTS5 table keyed by articles.seq, kept by the
  // article queries for single writes and rebuilt in the background after bulk writes.
  // meta.fts_rebuild_from = the seq after which articles still need indexing (absent: complete).
  `DROP TRIGGER articles_fts_insert;
   DROP TRIGGER articles_fts_delete;
   DROP TRIGGER articles_fts_update;
   DROP TABLE articles_fts;
   CREATE VIRTUAL TABLE articles_fts USING fts5(title, keywords, description, tokenize='trigram');
   CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
   INSERT INTO meta (key, value) VALUES ('fts_rebuild_from', '0');`,

  // The short-word index (grams.ts): title and keywords as character bigrams, rowid = articles.seq.
  // Both indexes are rebuilt in the background from here (the trigram one emptied to stay in step).
  `CREATE VIRTUAL TABLE articles_grams USING fts5(grams, detail=none, tokenize='unicode61 remove_diacritics 0');
   DELETE FROM articles_fts;
   INSERT INTO meta (key, value) VALUES ('fts_rebuild_from', '0') ON CONFLICT(key) DO UPDATE SET value = '0';`,

  // The highest rev an id had when its row was removed (purge, --init, restore): a row made again
  // under that id continues above it, so a revision never repeats for an id within a store.
  `CREATE TABLE rev_high (id TEXT PRIMARY KEY, rev INTEGER NOT NULL) WITHOUT ROWID;`,

  // The account's menu (one row, in the platform's menu/create shape; pushed_at: null once it changed
  // since the platform last took it) and replies to followers: outgoing messages in the same log,
  // sent by an admin key, and the incoming ones they answered.
  `CREATE TABLE menu (
     id         INTEGER PRIMARY KEY CHECK (id = 1),
     body       TEXT NOT NULL,
     updated_at TEXT NOT NULL,
     pushed_at  TEXT
   );
   ALTER TABLE messages ADD COLUMN direction TEXT NOT NULL DEFAULT 'in';
   ALTER TABLE messages ADD COLUMN sent_by TEXT;
   ALTER TABLE messages ADD COLUMN reply_to INTEGER;
   ALTER TABLE messages ADD COLUMN answered_at TEXT;
   -- A reply window opens at the follower's last interaction (kept per follower by the log writer,
   -- one upsert per follower per batch) and counts the replies since (an index of replies only):
   -- an index of every message's sender would cost each logged message a B-tree insert at a
   -- random place (bench/logindex.ts).
   CREATE TABLE followers (openid TEXT PRIMARY KEY, last_seq INTEGER NOT NULL, last_at TEXT NOT NULL) WITHOUT ROWID;
   INSERT INTO followers (openid, last_seq, last_at)
     SELECT f.from_user, f.seq, m.received_at
     FROM (SELECT from_user, max(seq) AS seq FROM messages
           WHERE type <> 'event' OR event IN ('subscribe', 'SCAN', 'CLICK', 'scancode_push', 'scancode_waitmsg')
           GROUP BY from_user) f
     JOIN messages m ON m.seq = f.seq;
   CREATE INDEX messages_replies ON messages (from_user, seq) WHERE direction = 'out';`,

  // Keywords as searched: the words joined by U+001F (a control character no keyword may hold), not
  // their JSON text, whose quotes, commas and brackets matched searches for "," or [" (rows.ts
  // keywordText is the same in JS). The indexes are rebuilt in the background over it.
  `ALTER TABLE articles ADD COLUMN keyword_text TEXT GENERATED ALWAYS AS (CASE WHEN length(keywords) > 4 THEN replace(substr(keywords, 3, length(keywords) - 4), '","', char(31)) ELSE '' END) VIRTUAL;
   DELETE FROM articles_fts;
   DELETE FROM articles_grams;
   INSERT INTO meta (key, value) VALUES ('fts_rebuild_from', '0') ON CONFLICT(key) DO UPDATE SET value = '0';`,

  // The article's body (issue 29): the last column, so that a row read without it never touches
  // the overflow pages a long body takes.
  `ALTER TABLE articles ADD COLUMN body TEXT NOT NULL DEFAULT '';`,

  // The passage index answers are ranked from (passage-index.ts), built in the background with the
  // search indexes, which are emptied to stay in step with it.
  `${ANSWER_INDEX_DDL}
   DELETE FROM articles_fts;
   DELETE FROM articles_grams;
   INSERT INTO meta (key, value) VALUES ('fts_rebuild_from', '0') ON CONFLICT(key) DO UPDATE SET value = '0';`,

  // Every call to a model for a follower's question (issue 29 C; store/generated-log.ts). The
  // partial index finds a follower's pending answer without an index of every call's sender.
  `CREATE TABLE generated (
     seq               INTEGER PRIMARY KEY,
     at                TEXT NOT NULL,
     msg_key           TEXT NOT NULL,
     openid            TEXT NOT NULL,
     question          TEXT NOT NULL,
     model             TEXT NOT NULL,
     sources           TEXT NOT NULL,
     output            TEXT,
     answer            TEXT,
     cited             TEXT NOT NULL DEFAULT '[]',
     outcome           TEXT NOT NULL,
     detail            TEXT,
     ms                INTEGER,
     tokens_prompt     INTEGER,
     tokens_completion INTEGER,
     delivered_at      TEXT
   );
   CREATE INDEX generated_at ON generated (at);
   CREATE INDEX generated_pending ON generated (openid, seq) WHERE outcome = 'pending';`,

  // The questions an article answers, as followers write them (issue 34 D), ranked with its title.
  // The table is made again so that they stand before the body, still the last column: a row read
  // without its body (a listing, a tag's articles) never touches the overflow pages a long body
  // takes. question_text is them one a line, as the passage index reads them (rows.ts questionText).
  // Every article has none yet: the indexes stay as they are (rowids are kept).
  `CREATE TABLE articles_next (
     seq           INTEGER PRIMARY KEY,
     id            TEXT NOT NULL UNIQUE,
     code          TEXT,
     tag           TEXT,
     title         TEXT NOT NULL,
     description   TEXT NOT NULL DEFAULT '',
     url           TEXT NOT NULL,
     picurl        TEXT,
     keywords      TEXT NOT NULL DEFAULT '[]',
     deleted       INTEGER NOT NULL DEFAULT 0,
     rev           INTEGER NOT NULL DEFAULT 1,
     created_at    TEXT NOT NULL,
     updated_at    TEXT NOT NULL,
     keyword_text  TEXT GENERATED ALWAYS AS (CASE WHEN length(keywords) > 4 THEN replace(substr(keywords, 3, length(keywords) - 4), '","', char(31)) ELSE '' END) VIRTUAL,
     questions     TEXT NOT NULL DEFAULT '[]',
     question_text TEXT GENERATED ALWAYS AS (CASE WHEN length(questions) > 4 THEN replace(substr(questions, 3, length(questions) - 4), '","', char(10)) ELSE '' END) VIRTUAL,
     body          TEXT NOT NULL DEFAULT ''
   );
   INSERT INTO articles_next (seq, id, code, tag, title, description, url, picurl, keywords, deleted, rev, created_at, updated_at, body)
     SELECT seq, id, code, tag, title, description, url, picurl, keywords, deleted, rev, created_at, updated_at, body FROM articles;
   DROP TABLE articles;
   ALTER TABLE articles_next RENAME TO articles;
   CREATE UNIQUE INDEX articles_live_code ON articles (lower(code)) WHERE deleted = 0 AND code IS NOT NULL;
   CREATE INDEX articles_tag ON articles (tag);`,

  // The operator's synonyms (issue 34 D; src/doc/synonyms.ts): one row a group, its phrases as JSON. The
  // passage index is built with them: a change rebuilds it (meta synonyms_version moves, so that
  // the search worker reads them again).
  `CREATE TABLE synonyms (position INTEGER PRIMARY KEY, phrases TEXT NOT NULL);`,

  // How followers were answered (issue 35 C; store/log-kinds.ts, docs/operations.md "The report").
  // Each message keeps its reply time, how close an article sent alone came to a list (margin: the
  // best relevant runner-up's score over the article's) and the message it asks again after; each
  // follower the kind of their last interaction's answer. The log writer adds every message to the
  // quarter hour's counts in the transaction that logs it: a report reads those, not the log. The
  // partial indexes find the newest close calls and follow-ups without reading the log (CLOSE_MARGIN
  // is 0.35). The messages logged before are counted here, with the kind kindOf gives them, and
  // meta log_details_since says from when reply times, margins and follow-ups are known.
  `ALTER TABLE messages ADD COLUMN reply_ms INTEGER;
   ALTER TABLE messages ADD COLUMN margin REAL;
   ALTER TABLE messages ADD COLUMN again_of INTEGER;
   ALTER TABLE followers ADD COLUMN last_kind TEXT;
   CREATE INDEX messages_close ON messages (received_at) WHERE margin >= 0.35;
   CREATE INDEX messages_again ON messages (received_at) WHERE again_of IS NOT NULL;
   CREATE TABLE log_counts (
     period TEXT NOT NULL,
     kind   TEXT NOT NULL,
     n      INTEGER NOT NULL,
     close  INTEGER NOT NULL DEFAULT 0,
     again  INTEGER NOT NULL DEFAULT 0,
     PRIMARY KEY (period, kind)
   ) WITHOUT ROWID;
   CREATE TABLE log_reply_ms (period TEXT NOT NULL, ms INTEGER NOT NULL, n INTEGER NOT NULL, PRIMARY KEY (period, ms)) WITHOUT ROWID;
   CREATE TABLE send_failures (seq INTEGER PRIMARY KEY, at TEXT NOT NULL, openid TEXT NOT NULL, sent_by TEXT NOT NULL, code TEXT NOT NULL, detail TEXT);
   CREATE INDEX send_failures_at ON send_failures (at);
   INSERT INTO log_counts (period, kind, n)
     SELECT substr(received_at, 1, 14) || CASE WHEN substr(received_at, 15, 2) < '15' THEN '00' WHEN substr(received_at, 15, 2) < '30' THEN '15' WHEN substr(received_at, 15, 2) < '45' THEN '30' ELSE '45' END,
            CASE WHEN direction = 'out' THEN CASE WHEN sent_by = 'ai' THEN 'reply_ai' ELSE 'reply' END
                 WHEN (answer = 'fallback' OR answer GLOB 'fallback:*') AND unmatched = 0 THEN 'media'
                 ELSE substr(answer, 1, instr(answer || ':', ':') - 1) END,
            count(*)
     FROM (SELECT received_at, direction, sent_by, unmatched,
                  CASE WHEN answer GLOB 'followup:*' OR answer GLOB 'another:*' THEN substr(answer, instr(answer, ':') + 1) ELSE answer END AS answer
           FROM messages) GROUP BY 1, 2;
   INSERT INTO meta (key, value) SELECT 'log_details_since', strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE EXISTS (SELECT 1 FROM messages);`,

  // The questions the ranking answered with a list, and the "换一个"s that got more, for replyd inbox --lists (issue 34 D; the
  // predicate is follower-log.ts LISTED.sqlite, written the same for the planner to use it).
  `CREATE INDEX messages_lists ON messages (seq) WHERE (answer GLOB 'answers:*' OR answer GLOB 'followup:answers:*' OR answer GLOB 'another:answer*');`,
];

export const SCHEMA_VERSION = MIGRATIONS.length;

/**
 * `durable: false` for a file that is only ever a copy of data kept elsewhere (PostgreSQL mode's
 * read copy, loaded again at every start): commits are not flushed to disk, which a power cut
 * cannot make matter.
 */
export function openDatabase(path: string, durable = true): Database {
  const db = new Database(path, { create: true, strict: true });
  // First: switching to WAL waits, like any statement, while another connection recovers the WAL
  // (a store reopened as the last one closes: SQLITE_BUSY_RECOVERY without it).
  db.exec("PRAGMA busy_timeout = 5000");
  db.exec("PRAGMA journal_mode = WAL");
  // FULL: an acknowledged admin write survives a power cut, not only a process crash.
  db.exec(durable ? "PRAGMA synchronous = FULL" : "PRAGMA synchronous = OFF");
  db.exec("PRAGMA foreign_keys = ON");
  // 16 MiB of pages rather than SQLite's 2: past a few hundred thousand articles a bulk write's
  // inserts land all over the id index, and with 2 MiB each went to the OS for its page (a read
  // copy loaded a million articles in 9.4 s, 6.2 s with this).
  db.exec("PRAGMA cache_size = -16384");
  migrate(db);
  db.exec(DELETED_QUESTIONS_INDEX);
  db.exec(LIVE_QUESTIONS_INDEX);
  return db;
}

function migrate(db: Database): void {
  const current = (db.query("PRAGMA user_version").get() as { user_version: number }).user_version;
  if (current > SCHEMA_VERSION)
    throw new Error(`the database schema is version ${current}, newer than this replyd understands (${SCHEMA_VERSION}); upgrade replyd`);
  for (let v = current; v < SCHEMA_VERSION; v++) {
    db.transaction(() => {
      db.exec(MIGRATIONS[v] as string);
      db.exec(`PRAGMA user_version = ${v + 1}`);
    })();
  }
}
