/**
 * The stores a parameterised suite runs against: SQLite, and PostgreSQL with its local read copy,
 * each behind the interface the routes use (store/data.ts), with its message log. `store` is what
 * followers' replies read (the store itself, or the copy, caught up after every write), so one
 * test checks both.
 */
import { SQL } from "bun";
import { readAll } from "../../src/docbytes.ts";
import { sqliteData, type DataStore } from "../../src/store/data.ts";
import type { LoggedMessage, NewMessage } from "../../src/store/messages.ts";
import { prepareDatabase } from "../../src/store/pg/connect.ts";
import { pgData } from "../../src/store/pg/data.ts";
import { PgMessageLog } from "../../src/store/pg/log.ts";
import { Replica } from "../../src/store/pg/replica.ts";
import type { NewReply, ReplyWindow } from "../../src/store/replies.ts";
import type { Store } from "../../src/store/store.ts";
import { fixedClock } from "../../src/clock.ts";
import { openStore, T0, tempDir } from "../helpers.ts";
import { startPostgres, type Postgres } from "../pg.ts";

export interface Log {
  add(m: NewMessage): void;
  settled(): Promise<void>;
  list(opts: { unmatchedOnly: boolean; limit: number; offset: number }): Promise<{ items: (LoggedMessage & { seq: number })[]; total: number }>;
  prune(days: number, nowMs: number): Promise<{ removed: number; newest: string | null }>;
  window(openid: string, nowMs: number): Promise<ReplyWindow>;
  record(r: NewReply): Promise<number>;
  entry(seq: number): Promise<(LoggedMessage & { seq: number }) | null>;
}

export interface Target extends DataStore {
  /** What followers' replies read. */
  store: Store;
  /** The follower message log and the replies kept in it. */
  log: Log;
  /** A backup's document, whole. */
  readBackup(id: string): Promise<string>;
  close(): Promise<void>;
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

async function readBackup(data: DataStore, id: string): Promise<string> {
  const backup = await data.openBackup(id);
  try {
    return Buffer.from(readAll(backup.source)).toString("utf8");
  } finally {
    backup.close();
  }
}

export async function openTarget(kind: StoreKind): Promise<Target> {
  const tmp = tempDir();
  const store = openStore(tmp.dir);
  if (kind === "sqlite") {
    const data = sqliteData(store);
    return {
      ...data,
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
      readBackup: (id) => readBackup(data, id),
      close: async () => {
        store.close();
        tmp.cleanup();
      },
    };
  }
  cluster ??= startPostgres();
  const name = `target${++databases}`;
  const admin = new SQL(cluster.url);
  await admin.unsafe(`CREATE DATABASE ${name}`);
  await admin.close();
  const sql = new SQL(cluster.url.replace(/\/replyd$/, `/${name}`));
  await prepareDatabase(sql, { now: new Date(), firstKey: false });
  const data = pgData(sql, new Replica(store, sql), store, fixedClock(T0), KEEP);
  const log = new PgMessageLog(sql);
  return {
    ...data,
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
    readBackup: (id) => readBackup(data, id),
    close: async () => {
      await log.close();
      await sql.close();
      store.close();
      tmp.cleanup();
    },
  };
}
