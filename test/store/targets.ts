/**
 * The stores a parameterised suite runs against: SQLite, and PostgreSQL with its local read copy.
 * Each target takes writes the way its store does and exposes the SQLite store replies read from
 * (the store itself, or the copy after it caught up), so one test checks both.
 */
import { readFileSync } from "node:fs";
import { SQL } from "bun";
import type { BulkDocument, Matter } from "../../src/doc.ts";
import type { ImportResult, RestoreResult } from "../../src/store/bulk.ts";
import type { Article } from "../../src/article.ts";
import { putArticlePg, purgeArticlePg } from "../../src/store/pg/articles.ts";
import { backupPg, listBackupsPg, readBackupPg } from "../../src/store/pg/backups.ts";
import { importDocumentPg, restoreDocumentPg } from "../../src/store/pg/bulk.ts";
import type { BackupInfo } from "../../src/store/backups.ts";
import type { LoggedMessage, NewMessage } from "../../src/store/messages.ts";
import { PgMessageLog } from "../../src/store/pg/log.ts";
import type { NewReply, ReplyWindow } from "../../src/store/replies.ts";
import { prepareDatabase } from "../../src/store/pg/connect.ts";
import { Replica } from "../../src/store/pg/replica.ts";
import type { Store } from "../../src/store/store.ts";
import { openStore, tempDir } from "../helpers.ts";
import { startPostgres, type Postgres } from "../pg.ts";

export interface Target {
  putArticle(a: Article, base: number | null): Promise<Article>;
  purgeArticle(id: string): Promise<boolean>;
  importDocument(doc: BulkDocument, mode: "merge" | "init"): Promise<ImportResult>;
  restore(doc: BulkDocument, matter: Matter): Promise<RestoreResult>;
  backup(matter: Matter): Promise<BackupInfo & { counts: Record<string, number> }>;
  listBackups(matter?: Matter): Promise<BackupInfo[]>;
  /** A backup's document, whole. */
  readBackup(id: string): Promise<string>;
  /** The follower message log and the replies kept in it. */
  log: Log;
  /** What followers' replies read. */
  store: Store;
  close(): Promise<void>;
}

export interface Log {
  add(m: NewMessage): void;
  settled(): Promise<void>;
  list(opts: { unmatchedOnly: boolean; limit: number; offset: number }): Promise<{ items: (LoggedMessage & { seq: number })[]; total: number }>;
  prune(days: number, nowMs: number): Promise<{ removed: number; newest: string | null }>;
  window(openid: string, nowMs: number): Promise<ReplyWindow>;
  record(r: NewReply): Promise<number>;
  entry(seq: number): Promise<(LoggedMessage & { seq: number }) | null>;
}

export const STORES = ["sqlite", "postgres"] as const;
export type StoreKind = (typeof STORES)[number];

/** Backups kept per matter: what openStore gives the SQLite store. */
const KEEP = 5;

let cluster: Postgres | null = null;
let databases = 0;

/**
 * Each file using these targets registers this with afterAll: hooks registered here, in a module
 * every file shares, would run after the first file only.
 */
export function stopTargets(): void {
  cluster?.stop();
  cluster = null;
}

export async function openTarget(kind: StoreKind): Promise<Target> {
  const tmp = tempDir();
  const store = openStore(tmp.dir);
  if (kind === "sqlite")
    return {
      store,
      log: {
        add: (m) => store.messages.add(m),
        settled: () => store.messages.settled(),
        list: (opts) => store.messages.list(opts),
        prune: (days, now) => store.messages.prune(days, now),
        window: async (openid, now) => {
          await store.messages.settled();
          return store.replies.window(openid, now);
        },
        record: async (r) => store.replies.record(r),
        entry: async (seq) => store.replies.entry(seq),
      },
      putArticle: async (a, base) => store.putArticle(a, base),
      purgeArticle: async (id) => store.purgeArticle(id),
      importDocument: async (doc, mode) => store.importDocument(doc, mode),
      restore: async (doc, matter) => store.restore(doc, matter),
      backup: async (matter) => store.backup(matter),
      listBackups: async (matter) => store.backups.list(matter),
      readBackup: async (id) => readFileSync(store.backups.pathOf(id), "utf8"),
      close: async () => {
        store.close();
        tmp.cleanup();
      },
    };
  cluster ??= startPostgres();
  const name = `target${++databases}`;
  const admin = new SQL(cluster.url);
  await admin.unsafe(`CREATE DATABASE ${name}`);
  await admin.close();
  const sql = new SQL(cluster.url.replace(/\/replyd$/, `/${name}`));
  await prepareDatabase(sql, { now: new Date(), firstKey: false });
  const replica = new Replica(store, sql);
  const at = () => ({ now: Date.parse(store.nowIso()), keep: KEEP });
  const caughtUp = async <T>(result: T) => {
    await replica.catchUp();
    return result;
  };
  const log = new PgMessageLog(sql);
  return {
    store,
    log: {
      add: (m) => log.add(m),
      settled: () => log.settled(),
      list: (opts) => log.list(opts),
      prune: (days, now) => log.prune(days, now),
      window: async (openid, now) => {
        await log.settled();
        return log.window(openid, now);
      },
      record: (r) => log.record(r),
      entry: (seq) => log.entry(seq),
    },
    putArticle: async (a, base) => caughtUp(await putArticlePg(sql, a, base)),
    purgeArticle: async (id) => caughtUp(await purgeArticlePg(sql, id)),
    importDocument: async (doc, mode) => caughtUp(await importDocumentPg(sql, doc, mode, at())),
    restore: async (doc, matter) => caughtUp(await restoreDocumentPg(sql, doc, matter, at())),
    backup: async (matter) => backupPg(sql, matter, Date.parse(store.nowIso()), KEEP),
    listBackups: (matter) => listBackupsPg(sql, matter),
    readBackup: async (id) => {
      const parts: Uint8Array[] = [];
      await readBackupPg(sql, id, (bytes) => void parts.push(bytes));
      return Buffer.concat(parts).toString("utf8");
    },
    close: async () => {
      await log.close();
      await sql.close();
      store.close();
      tmp.cleanup();
    },
  };
}
