/**
 * What the server asks of the store beyond reading the articles and content the callback serves:
 * the same for SQLite and for PostgreSQL (where writes go to the database, then to the local copy
 * `local` reads come from). Asynchronous, as the database is; on SQLite each call is the store's own.
 */
import { closeSync, existsSync, fstatSync, openSync } from "node:fs";
import { join } from "node:path";
import type { Article } from "../article.ts";
import type { BulkDocument, Matter } from "../doc.ts";
import { fdSource, type ByteSource } from "../docbytes.ts";
import type { Menu } from "../menu.ts";
import type { Rule } from "../rule.ts";
import type { BackupInfo } from "./backups.ts";
import type { ImportResult, RestoreResult } from "./bulk.ts";
import type { RuleMerge } from "./content.ts";
import { oneAtATime } from "./exclusive.ts";
import { mediaOf, writeMediaFile } from "./media.ts";
import type { LoggedMessage, NewMessage } from "./messages.ts";
import type { NewReply, ReplyWindow } from "./replies.ts";
import { SCHEMA_VERSION } from "./db.ts";
import type { Store } from "./store.ts";

/** A backup's document, open for reading: as pieces (a restore, a hash) or as a stream (a download). */
export interface OpenBackup {
  size: number;
  source: ByteSource;
  /** The whole document, read from the start; closes the backup when it ends or is cancelled. */
  stream(): ReadableStream<Uint8Array>;
  close(): void;
}

/** An open file as a pull stream of 256 KiB reads, closed when it ends or is cancelled. */
export function openFile(fd: number): OpenBackup {
  const size = fstatSync(fd).size;
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    closeSync(fd);
  };
  const source = fdSource(fd, size);
  return {
    size,
    source,
    close,
    stream: () => {
      let at = 0;
      return new ReadableStream<Uint8Array>({
        pull(controller) {
          const buf = new Uint8Array(Math.min(256 * 1024, size - at));
          const n = buf.length ? source.read(buf, 0, buf.length, at) : 0;
          if (n === 0) {
            close();
            return controller.close();
          }
          at += n;
          controller.enqueue(buf.subarray(0, n));
        },
        cancel: close,
      });
    },
  };
}

/** The follower message log and the replies kept in it. */
export interface LogStore {
  /** Queued, written in batches: never waits. */
  add(m: NewMessage): void;
  /** Messages waiting to be written, and those not logged because that queue was full. */
  readonly backlog: { unwritten: number; dropped: number };
  /** Resolves once every message added so far is written. */
  settled(): Promise<void>;
  list(opts: { unmatchedOnly: boolean; limit: number; offset: number }): Promise<{ items: (LoggedMessage & { seq: number })[]; total: number }>;
  prune(days: number, nowMs: number): Promise<{ removed: number; newest: string | null }>;
  /** Replies allowed per follower interaction (--reply-limit). */
  readonly replyLimit: number;
  window(openid: string, nowMs: number): Promise<ReplyWindow>;
  record(r: NewReply): Promise<number>;
  entry(seq: number): Promise<(LoggedMessage & { seq: number }) | null>;
}

export interface DataStore {
  readonly kind: "sqlite" | "postgres";
  /** The schema version the store is at. */
  readonly schema: number;
  /** Bytes the store takes (the database file and its WAL; the PostgreSQL database), looked up once a second at most. */
  size(): Promise<number>;
  /** What replies, search and listings read: the store itself, or the local copy of the database. */
  readonly local: Store;
  readonly log: LogStore;
  /** The newest backup of any matter (health). */
  newestBackup(): Promise<BackupInfo | null>;
  /** Backups kept per matter (--keep). */
  readonly keep: number;
  putArticle(a: Article, base: number | null): Promise<Article>;
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

/** The SQLite store as a DataStore: every call is the store's own, its backups files in the data folder. */
export function sqliteData(store: Store): DataStore {
  return {
    kind: "sqlite",
    schema: SCHEMA_VERSION,
    size: async () => store.dbSize(),
    local: store,
    log: {
      add: (m) => store.messages.add(m),
      get backlog() {
        return store.messages.backlog;
      },
      settled: () => store.messages.settled(),
      list: (opts) => store.messages.list(opts),
      prune: (days, now) => store.messages.prune(days, now),
      replyLimit: store.replies.limit,
      window: async (openid, now) => store.replies.window(openid, now),
      record: async (r) => store.replies.record(r),
      entry: async (seq) => store.replies.entry(seq),
    },
    newestBackup: async () => store.backups.newest(),
    keep: store.backups.keep,
    putArticle: async (a, base) => store.putArticle(a, base),
    purgeArticle: async (id) => store.purgeArticle(id),
    importDocument: async (doc, mode) => store.importDocument(doc, mode),
    restore: async (doc, matter) => store.restore(doc, matter),
    backup: async (matter) => store.backup(matter, "manual"),
    saveMenu: async (menu, opts) => store.saveMenu(menu, opts),
    storeMedia: async (bytes, maxBytes) => {
      const { name, type } = mediaOf(bytes, maxBytes);
      return { name, type, size: bytes.length, existed: writeMediaFile(store.mediaDir, name, bytes) };
    },
    fetchMedia: async (name) => existsSync(join(store.mediaDir, name)),
    listBackups: async (matter) => store.backups.list(matter),
    getBackup: async (matter, id) => store.backups.get(matter, id),
    removeBackup: async (id) => store.backups.remove(id),
    // Opened now: a backup pruned meanwhile stays readable through its descriptor.
    openBackup: async (id) => openFile(openSync(store.backups.pathOf(id), "r")),
    // One process owns an SQLite data folder: its own queue is every instance's.
    exclusive: (key, work) => oneAtATime(store, key, work),
  };
}
