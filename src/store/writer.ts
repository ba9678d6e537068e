/**
 * The writer: every write and everything read from the store of record (backups, the message log),
 * asynchronous as a database is. Its transactions decide every conflict: a route never checks
 * against what it read first.
 */
import type { Article } from "../article/article.ts";
import type { BulkDocument, Matter } from "../doc/document.ts";
import type { Menu } from "../doc/menu.ts";
import type { Rule } from "../doc/rule.ts";
import type { SynonymMerge } from "../doc/synonyms.ts";
import type { OpenBackup } from "./backup-file.ts";
import type { BackupInfo } from "./backup-ids.ts";
import type { FollowerLog } from "./follower-log.ts";
import type { GeneratedLog } from "./generated-log.ts";

/** What a rules import did, by rule id. */
export interface RuleMerge {
  added: number;
  updated: number;
  unchanged: number;
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

export type DatabaseState = { state: "up" } | { state: "down"; since: string; error: string };

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
  /** PostgreSQL: whether this instance reaches the database now, and since when and why not (health). */
  database?(): DatabaseState;
  /** The newest backup of any matter (health). */
  newestBackup(): Promise<BackupInfo | null>;
  /** Temp files of backups cut short (kill -9) found and removed at start (health). */
  readonly backupTempFilesRemovedAtStart: number;
  editArticle(id: string, edit: ArticleEdit): Promise<EditResult>;
  purgeArticle(id: string): Promise<boolean>;
  importDocument(doc: BulkDocument, mode: "merge" | "init", opts?: ImportOptions): Promise<ImportResult>;
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

/** Articles an import's report names of those updated, undeleted or that lost keywords; the rest are counted. */
export const NAMED_IN_REPORT = 5;

/** `id` counted in `n`, and named while fewer than NAMED_IN_REPORT are. */
export function countNamed(n: { count: number; ids: string[] }, id: string): void {
  if (n.count++ < NAMED_IN_REPORT) n.ids.push(id);
}

/** Items of a list an article lost that a report names, at most (each whole: a question is 200 characters at most, a keyword 32). */
export const LOST_NAMED = 5;

/**
 * Articles an import's report names of those that lost keywords or questions they held, with what
 * each lost: more than NAMED_IN_REPORT — an airport's operator re-imported its file over a day's
 * teaching, and the sixth article's losses were "and 1 more" (a walkthrough, Session 52).
 */
export const DROPPED_NAMED = 20;

/** `id` counted in `d` and, while it is named, what it lost (the first LOST_NAMED, and how many more): the operator can put them back. */
export function countLost(d: Dropped, id: string, lost: readonly string[]): void {
  if (d.count++ < DROPPED_NAMED) {
    d.ids.push(id);
    d.lost.push(lost.slice(0, LOST_NAMED));
    d.more.push(Math.max(0, lost.length - LOST_NAMED));
  }
}

/** What countLost() recorded, for a person: `id: "a", "b" and 2 more; id2: …; and 3 more` (an id alone from a server before 0.2.24). */
export function namedItems(d: Pick<Dropped, "count" | "ids"> & Partial<Pick<Dropped, "lost" | "more">>): string {
  const named = d.ids.map((id, i) => {
    const items = d.lost?.[i] ?? [];
    const more = d.more?.[i] ?? 0;
    return items.length ? `${id}: ${items.map((x) => JSON.stringify(x)).join(", ")}${more > 0 ? ` and ${more} more` : ""}` : id;
  });
  return named.join("; ") + (d.count > d.ids.length ? `; and ${d.count - d.ids.length} more` : "");
}

/**
 * Of the updated, articles whose record lists a taught field without some items the article held:
 * how many, the first DROPPED_NAMED ids, and what each of those lost (`lost[i]` of `ids[i]`, its
 * first LOST_NAMED) — a
 * salon's operator re-imported its file over keywords added with keywords+= and was told which
 * articles lost some, not which (a walkthrough, Session 51).
 */
export interface Dropped {
  count: number;
  ids: string[];
  lost: string[][];
  /** How many more than LOST_NAMED each named article lost (`more[i]` of `ids[i]`). */
  more: number[];
}

/**
 * How an import treats what the server learned. A record listing `questions` keeps the article's
 * others after its own — taught from the inbox, which the CMS's file does not know —, unless
 * `replaceQuestions`: then the record's are all it keeps (the file is the list).
 */
export interface ImportOptions {
  replaceQuestions?: boolean;
}

export interface ImportResult {
  added: number;
  updated: number;
  /** The first NAMED_IN_REPORT of the updated, in the document's order: an operator's edit an import wrote over is seen by name. */
  updated_ids: string[];
  /** The fields each of `updated_ids` changed (body, title, …): a body edited on the server and written over by a file's is said as that (a pet hospital's walkthrough). */
  updated_fields: Record<string, string[]>;
  unchanged: number;
  removed: number;
  /** Of the updated, articles that were deleted and are live again: their records do not say `deleted` (a CMS's file), and an import writes the record. */
  undeleted: number;
  /** The first NAMED_IN_REPORT of them. */
  undeleted_ids: string[];
  /** Of the updated, live articles their record deletes (`"deleted": true`, a sheet's 已删除 = 是): followers no longer get them. */
  deleted_now: number;
  /** The first NAMED_IN_REPORT of them. */
  deleted_now_ids: string[];
  /**
   * Of the updated, articles whose record lists keywords without some the article held (added with
   * keywords+= or set, say, and not in the CMS's file): how many, and the first NAMED_IN_REPORT ids.
   */
  keywords_dropped: Dropped;
  /**
   * The same for questions (taught with replyd teach or questions+=), compared as a follower's
   * message meets them: with ImportOptions.replaceQuestions, those the record leaves out; else only
   * those past the fifty an article may hold.
   */
  questions_dropped: Dropped;
  /** Articles that kept questions their record does not list, updated or not, and which (`lost[i]`: kept): put them in the file, or import with replaceQuestions (absent from a server before 0.2.26). */
  questions_kept?: Dropped;
  /**
   * Of the updated, articles that had a tag, or a description, their record gives none (a sheet
   * without the column, a description set on the server): the tag's list no longer shows them, the
   * card shows the body's opening. How many, and the first NAMED_IN_REPORT ids (absent from a server before 0.2.7).
   */
  tag_dropped: { count: number; ids: string[] };
  description_dropped: { count: number; ids: string[] };
  /**
   * Of the updated, articles whose body the record replaces (one they had, not the record's): a body
   * edited on the server with `set` and not copied into the file is written over — said on a line of
   * its own, where "and 2 more" had hidden it (two walkthroughs). How many, and the first
   * NAMED_IN_REPORT ids (absent from a server before 0.2.29).
   */
  bodies_replaced: { count: number; ids: string[] };
  total: number;
  tags: number;
  /** Of the tags a merge's document removes the description of (`"tags": {"help": null}`), those that had one. */
  tags_removed: string[];
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
  /** The menu: stored, removed (the document's is null), none (the document's is null and none was stored), or kept (an older all document has none). */
  menu?: "stored" | "removed" | "none" | "kept";
  /** Synonym groups restored; absent when an `all` document has none (written before synonyms): they are kept. */
  synonyms?: number;
  /** The automatic backup of what the restore replaced. */
  backup: BackupInfo;
}
