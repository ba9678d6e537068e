/**
 * The one seam between the server and where its data is kept, as litestream puts its replica
 * clients behind one interface. A backend is two things:
 *
 * - the **read model**: what routes and the responder read, synchronously — SQLite itself, or
 *   PostgreSQL's local copy (an SQLite file kept up to date from the database's change feed);
 * - the **writer**: every write and everything read from the store of record (backups, the
 *   message log), asynchronous as a database is. Its transactions decide every conflict: a route
 *   never checks against what it read first.
 *
 * `openBackend` (open.ts) chooses SQLite or PostgreSQL by the target's scheme; nothing else chooses.
 */
import type { Article, ArticleSummary } from "../article/article.ts";
import type { Clock } from "../base/clock.ts";
import type { BulkDocument, Matter } from "../doc/document.ts";
import type { ByteSource } from "../doc/byte-source.ts";
import type { Menu } from "../doc/menu.ts";
import type { Rule, Tags, Texts } from "../doc/rule.ts";
import type { SynonymGroup, SynonymMerge } from "../doc/synonyms.ts";
import type { AdminKey, Keys } from "./keys.ts";
import type { RedisLink } from "./redis/link.ts";
import type { Question } from "../ranking/question.ts";
import type { RankingResult } from "../ranking/types.ts";
import { type BackupInfo } from "./backup-ids.ts";
import { type LoggedMessage, type NewMessage, type NewReply, type ReplyWindow } from "./follower-log.ts";
import type { GeneratedLog } from "./generated-log.ts";
import type { FailedSend, LogFigures, ReportQuery } from "./report-query.ts";

/** What a route answers for a store's failure the operator can act on (failures.ts); null for a bug. */
export { storeFailure } from "./failures.ts";

/** The menu as stored, with when it was changed and when the platform last took it. */
export interface StoredMenu {
  menu: Menu;
  updated_at: string;
  /** When the platform last took this menu; null: changed since (or never pushed). */
  pushed_at: string | null;
}

/** What a rules import did, by rule id. */
export interface RuleMerge {
  added: number;
  updated: number;
  unchanged: number;
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
  exists(id: string): boolean;
  /** Listings go without the long fields (the body). */
  list(q: ListQuery): { items: ArticleSummary[]; total: number };
  byTag(tag: string, limit: number): ArticleSummary[];
  tagCounts(): Map<string, number>;
  counts(): { live: number; deleted: number };
  /** The articles' search indexes (model/article-index.ts). */
  readonly index: ArticleIndexReads;
}

/** The search indexes as health and the accounts list read them. */
export interface ArticleIndexReads {
  /** Complete, or how far a rebuild has come (0–1). */
  readonly indexComplete: boolean;
  indexProgress(): number;
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

/** A backup's document, open for reading: as pieces (a restore, a hash) or as a stream (a download). */
export interface OpenBackup {
  size: number;
  source: ByteSource;
  /** The whole document, read from the start; closes the backup when it ends or is cancelled. */
  stream(): ReadableStream<Uint8Array>;
  close(): void;
}

/** The follower message log and the replies kept in it. */
export interface FollowerLog {
  /** Queued, written in batches: never waits. */
  add(m: NewMessage): void;
  /** Messages waiting to be written, and those not logged because that queue was full. */
  readonly backlog: { unwritten: number; dropped: number };
  /** Resolves once every message added so far is written. */
  settled(): Promise<void>;
  list(opts: { unmatchedOnly: boolean; limit: number; offset: number }): Promise<{ items: (LoggedMessage & { seq: number })[]; total: number }>;
  /** Removes messages and model calls more than `days` older than `nowMs`; answers how many went and the newest message's time. */
  prune(days: number, nowMs: number): Promise<{ removed: number; removedCalls: number; newest: string | null }>;
  /** Replies allowed per follower interaction (--reply-limit). */
  readonly replyLimit: number;
  window(openid: string, nowMs: number): Promise<ReplyWindow>;
  record(r: NewReply): Promise<number>;
  entry(seq: number): Promise<(LoggedMessage & { seq: number }) | null>;
  /** A customer-service message that did not go out, kept for the report (pruned with the log). */
  sendFailed(f: FailedSend): Promise<void>;
  /** What `replyd report` shows of the log (store/report-query.ts), once every message added so far is written. */
  figures(q: ReportQuery): Promise<LogFigures>;
}

/**
 * One article's write, decided in the writer's transaction against the article as the store of
 * record holds it: `expectRev` (the operator's rev=) must match it, `decide` says what to write
 * (null: nothing changes) or throws (not found), and the live code must be free.
 */
export interface ArticleEdit {
  expectRev?: number;
  /** A creation: refused 409 id_exists when the article is stored (the store decides, in its transaction). */
  onlyIfNew?: boolean;
  decide(stored: Article | null): Article | null;
}

/** What an edit did: the article as stored now (the stored one when nothing changed). */
export interface EditResult {
  article: Article;
  created: boolean;
  changed: boolean;
}

export interface Writer {
  readonly kind: "sqlite" | "postgres";
  /** The schema version the store is at. */
  readonly schema: number;
  /** Bytes the store takes (the database file and its WAL; the PostgreSQL database), looked up once a second at most. */
  size(): Promise<number>;
  readonly log: FollowerLog;
  /** Every call to a model for a follower's question (store/generated-log.ts). */
  readonly generated: GeneratedLog;
  /** Backups kept per matter (--keep). */
  readonly keep: number;
  /** The newest backup of any matter (health). */
  newestBackup(): Promise<BackupInfo | null>;
  /** Temp files of backups cut short (kill -9) found and removed at start (health). */
  readonly backupTempFilesRemovedAtStart: number;
  editArticle(id: string, edit: ArticleEdit): Promise<EditResult>;
  purgeArticle(id: string): Promise<boolean>;
  importDocument(doc: BulkDocument, mode: "merge" | "init"): Promise<ImportResult>;
  restore(doc: BulkDocument, matter: Matter): Promise<RestoreResult>;
  backup(matter: Matter): Promise<BackupInfo & { counts: Record<string, number> }>;
  /** `backup`: the menu it replaced; `rulesBackup`: the rules, when `rules` changes them (a pull's). */
  saveMenu(menu: Menu | null, opts?: { pushed?: boolean; rules?: Rule[] }): Promise<{ backup?: BackupInfo; rulesBackup?: BackupInfo; rules?: RuleMerge }>;
  /** Keeps an uploaded image (checked by mediaOf), answers its name and whether it was kept already. */
  storeMedia(bytes: Uint8Array, maxBytes: number): Promise<{ name: string; type: string; size: number; existed: boolean }>;
  /** Makes sure the media file is in the local folder it is served from; false when there is no such media. */
  fetchMedia(name: string): Promise<boolean>;
  listBackups(matter?: Matter): Promise<BackupInfo[]>;
  getBackup(matter: Matter, id: string): Promise<BackupInfo | null>;
  removeBackup(id: string): Promise<void>;
  openBackup(id: string): Promise<OpenBackup>;
  /** Runs `work` alone among every call with the same key, on every instance serving this data (exclusive.ts). */
  exclusive<T>(key: string, work: () => Promise<T>): Promise<T>;
}

export interface ImportResult {
  added: number;
  updated: number;
  unchanged: number;
  removed: number;
  total: number;
  tags: number;
  rules: { added: number; updated: number; unchanged: number };
  texts: number;
  /** The document's menu was stored (import never removes one; it is not pushed). */
  menu: boolean;
  /** The document's synonym groups merged (src/doc/synonyms.ts mergeSynonymGroups); a change rebuilds the passage index. */
  synonyms: SynonymMerge;
  /** The automatic backup taken before an init replaced the articles. */
  backup?: BackupInfo;
}

export interface RestoreResult {
  matter: Matter;
  articles?: number;
  tags?: number;
  rules?: number;
  texts?: number;
  /** The menu: stored, removed (the document's is null), or kept (an older all document has none). */
  menu?: "stored" | "removed" | "kept";
  /** Synonym groups restored; absent when an `all` document has none (written before synonyms): they are kept. */
  synonyms?: number;
  /** The automatic backup of what the restore replaced. */
  backup: BackupInfo;
}

/** What a backend needs to open. */
export interface BackendOptions {
  clock: Clock;
  /** Backups kept per matter (--keep). */
  keep: number;
  /** Replies allowed per follower interaction (--reply-limit). */
  replyLimit?: number;
  /** Keys from elsewhere (tests) accepted beside the stored ones. */
  extraKeys: AdminKey[];
  /**
   * The admin key from serve's environment (REPLYD_APPKEY/REPLYD_SECRET): accepted beside the stored
   * ones, and recorded (its appkey, never its secret) where `replyd keys` finds it while this server runs.
   */
  environmentKey?: AdminKey;
  /** Make the first admin key when the store has none and no other key is given (a server's start). */
  firstKey: boolean;
  logError: (message: string) => void;
  /** PostgreSQL only: the cluster's Redis, for change notices (serve --redis). */
  redis?: RedisLink;
}

/** One instance among those serving from one database (PostgreSQL): what health shows of the cluster. */
export interface ClusterPart {
  readonly registry: { readonly id: string; readonly host: string; readonly seen: unknown[]; url: string | null; beat(): Promise<void> };
  /** Whether the database answers, as the copy's follower and the key ring last found. */
  state(): { state: "up" | "down"; error?: string };
  /** How long other instances' writes took to reach this one's copy (from their change notices). */
  cacheLag(): { last_ms: number | null; max_ms_last_minute: number | null; notices: number };
}

export interface Backend {
  readonly kind: "sqlite" | "postgres";
  readonly read: ReadModel;
  readonly write: Writer;
  readonly keys: Keys;
  /** The first admin key, when this start made it: printed once by the server. */
  readonly created: AdminKey | null;
  /** Where the data is, for the log's first line (a database URL without its password). */
  readonly where: { data: string } | { db: string };
  readonly cluster: ClusterPart | null;
  /**
   * Writes what the message log holds and closes. `lost`: follower messages neither logged nor kept;
   * `kept`: those kept in a spill file (`keptIn`) to be logged at the next start; `database`: a data
   * folder's state after its checkpoint (whether replyd.db alone holds everything).
   */
  close(): Promise<{ lost: number; kept?: number; keptIn?: string; database?: string }>;
}

/** A backend that cannot open, in one sentence (the server says it and exits). */
export class BackendError extends Error {}
