/**
 * The PostgreSQL store's schema (issue 14): everything replyd keeps, and nothing on the host. Each
 * entry moves the schema one version forward, recorded in replyd_schema; append only.
 *
 * Articles carry `gen`, taken from one sequence on every write (an UPDATE sets it anew), and a
 * purged article leaves its id in `removals` under a gen of the same sequence: an instance keeps its local read copy (the
 * follower path, search) by asking for what changed after the last gen it applied. Writers take
 * one advisory lock per transaction, so gens become visible in the order they were taken and a
 * reader never skips one.
 */
export const PG_MIGRATIONS: readonly string[] = [
  `CREATE SEQUENCE change_gen;
   CREATE TABLE articles (
     id          text PRIMARY KEY,
     code        text,
     tag         text,
     title       text NOT NULL,
     description text NOT NULL DEFAULT '',
     url         text NOT NULL,
     picurl      text,
     keywords    text NOT NULL DEFAULT '[]',
     deleted     boolean NOT NULL DEFAULT false,
     rev         bigint NOT NULL DEFAULT 1,
     created_at  text NOT NULL,
     updated_at  text NOT NULL,
     gen         bigint NOT NULL DEFAULT nextval('change_gen')
   );
   CREATE UNIQUE INDEX articles_live_code ON articles (lower(code)) WHERE NOT deleted AND code IS NOT NULL;
   CREATE INDEX articles_gen ON articles (gen);
   CREATE INDEX articles_tag ON articles (tag);
   -- id NULL: every article was removed (a restore), one row instead of one per article.
   CREATE TABLE removals (gen bigint PRIMARY KEY DEFAULT nextval('change_gen'), id text);
   CREATE TABLE rev_high (id text PRIMARY KEY, rev bigint NOT NULL);
   -- Tags, rules, texts and the menu are small: a write moves content_gen and readers reload them whole.
   CREATE TABLE tags (tag text PRIMARY KEY, description text NOT NULL);
   CREATE TABLE rules (id text PRIMARY KEY, position integer NOT NULL, body text NOT NULL);
   CREATE TABLE texts (key text PRIMARY KEY, value text NOT NULL);
   CREATE TABLE menu (id integer PRIMARY KEY CHECK (id = 1), body text NOT NULL, updated_at text NOT NULL, pushed_at text);
   CREATE TABLE meta (key text PRIMARY KEY, value text NOT NULL);
   INSERT INTO meta (key, value) VALUES ('content_gen', '0');
   CREATE TABLE messages (
     seq         bigserial PRIMARY KEY,
     received_at text NOT NULL,
     msg_key     text NOT NULL UNIQUE,
     from_user   text NOT NULL,
     type        text NOT NULL,
     event       text,
     content     text,
     answer      text NOT NULL,
     unmatched   boolean NOT NULL DEFAULT false,
     direction   text NOT NULL DEFAULT 'in',
     sent_by     text,
     reply_to    bigint,
     answered_at text
   );
   CREATE INDEX messages_unmatched ON messages (seq) WHERE unmatched;
   CREATE INDEX messages_received ON messages (received_at);
   CREATE INDEX messages_replies ON messages (from_user, seq) WHERE direction = 'out';
   CREATE TABLE followers (openid text PRIMARY KEY, last_seq bigint NOT NULL, last_at text NOT NULL);
   CREATE TABLE admin_keys (appkey text PRIMARY KEY, secret text NOT NULL, scope text NOT NULL, created_at text, note text);
   -- A backup is the document as replyd writes it, in chunks of about 1 MiB, each gzip-compressed on
   -- its own, so it is written and read back a chunk at a time; with the sha256 it carries.
   CREATE TABLE backups (
     id         text PRIMARY KEY,
     matter     text NOT NULL,
     kind       text NOT NULL,
     created_at text NOT NULL,
     size       bigint NOT NULL,
     sha256     text
   );
   CREATE INDEX backups_matter ON backups (matter, created_at DESC);
   CREATE TABLE backup_chunks (id text NOT NULL REFERENCES backups ON DELETE CASCADE, n integer NOT NULL, body bytea NOT NULL, PRIMARY KEY (id, n));
   CREATE TABLE media (name text PRIMARY KEY, type text NOT NULL, size integer NOT NULL, body bytea NOT NULL, created_at text NOT NULL);`,
  // Listings by tag are served from the read copy: the index only slowed bulk writes (2 s at 1M).
  `DROP INDEX articles_tag;`,
  // The instances serving from this database (issue 15): a second one needs --redis.
  `CREATE TABLE instances (id text PRIMARY KEY, host text NOT NULL, pid integer NOT NULL, url text, redis boolean NOT NULL, started_at timestamptz NOT NULL DEFAULT now(), seen_at timestamptz NOT NULL DEFAULT now());`,
  // The article's body (issue 29). A constant default: no table rewrite on a large table.
  `ALTER TABLE articles ADD COLUMN body text NOT NULL DEFAULT '';`,
  // Every call to a model for a follower's question (issue 29 C; store/generated-log.ts).
  `CREATE TABLE generated (
     seq               bigserial PRIMARY KEY,
     at                text NOT NULL,
     msg_key           text NOT NULL,
     openid            text NOT NULL,
     question          text NOT NULL,
     model             text NOT NULL,
     sources           text NOT NULL,
     output            text,
     answer            text,
     cited             text NOT NULL DEFAULT '[]',
     outcome           text NOT NULL,
     detail            text,
     ms                integer,
     tokens_prompt     integer,
     tokens_completion integer,
     delivered_at      text
   );
   CREATE INDEX generated_at ON generated (at);
   CREATE INDEX generated_pending ON generated (openid, seq) WHERE outcome = 'pending';`,
  // The appkey an instance takes from its environment, for `replyd keys --db` to name (issue 33 F).
  `ALTER TABLE instances ADD COLUMN env_appkey text;`,
  // The questions an article answers, as followers write them (issue 34 D). A constant default: no
  // table rewrite on a large table.
  `ALTER TABLE articles ADD COLUMN questions text NOT NULL DEFAULT '[]';`,
  // The operator's synonyms (issue 34 D; src/doc/synonyms.ts): one row a group, its phrases as JSON. Content
  // like the rules: a write moves content_gen, and each instance's copy rebuilds its passage index.
  `CREATE TABLE synonyms (position integer PRIMARY KEY, phrases text NOT NULL);`,
  // How followers were answered (issue 35 C), as on SQLite (store/model/db.ts): each message's reply
  // time, margin and the message it asks again after, each follower's last kind of answer, the
  // quarter hours' counts the log writer adds to, the failed customer-service sends; the messages
  // logged before counted with the kind kindOf (store/log-kinds.ts) gives them.
  `ALTER TABLE messages ADD COLUMN reply_ms integer, ADD COLUMN margin double precision, ADD COLUMN again_of bigint;
   ALTER TABLE followers ADD COLUMN last_kind text;
   CREATE INDEX messages_close ON messages (received_at) WHERE margin >= 0.35;
   CREATE INDEX messages_again ON messages (received_at) WHERE again_of IS NOT NULL;
   CREATE TABLE log_counts (period text NOT NULL, kind text NOT NULL, n bigint NOT NULL, close bigint NOT NULL DEFAULT 0, again bigint NOT NULL DEFAULT 0, PRIMARY KEY (period, kind));
   CREATE TABLE log_reply_ms (period text NOT NULL, ms integer NOT NULL, n bigint NOT NULL, PRIMARY KEY (period, ms));
   CREATE TABLE send_failures (seq bigserial PRIMARY KEY, at text NOT NULL, openid text NOT NULL, sent_by text NOT NULL, code text NOT NULL, detail text);
   CREATE INDEX send_failures_at ON send_failures (at);
   INSERT INTO log_counts (period, kind, n)
     SELECT substr(received_at, 1, 14) || CASE WHEN substr(received_at, 15, 2) < '15' THEN '00' WHEN substr(received_at, 15, 2) < '30' THEN '15' WHEN substr(received_at, 15, 2) < '45' THEN '30' ELSE '45' END,
            CASE WHEN direction = 'out' THEN CASE WHEN sent_by = 'ai' THEN 'reply_ai' ELSE 'reply' END
                 WHEN split_part(answer, ':', 1) = 'fallback' AND NOT unmatched THEN 'media'
                 ELSE split_part(answer, ':', 1) END,
            count(*)
     FROM (SELECT received_at, direction, sent_by, unmatched, regexp_replace(answer, '^(followup|another):', '') AS answer FROM messages) AS m GROUP BY 1, 2;
   INSERT INTO meta (key, value) SELECT 'log_details_since', to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') WHERE EXISTS (SELECT 1 FROM messages);`,
  // The one account a key reaches (issue 36 B: replyd keys add --account); null: every account.
  `ALTER TABLE admin_keys ADD COLUMN account text;`,
  // The questions the ranking answered with a list, and the "换一个"s that got more, for replyd inbox --lists (issue 34 D; the
  // predicate is follower-log.ts LISTED.postgres, written the same for the planner to use it).
  `CREATE INDEX messages_lists ON messages (seq) WHERE (answer LIKE 'answers:%' OR answer LIKE 'followup:answers:%' OR answer LIKE 'another:answer%');`,
];

export const PG_SCHEMA_VERSION = PG_MIGRATIONS.length;
