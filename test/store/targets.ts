/**
 * The stores a parameterised suite runs against: SQLite, and PostgreSQL with its local read copy,
 * each behind the interface the routes use (store/data.ts), with its message log. `store` is what
 * followers' replies read (the store itself, or the copy, caught up after every write), so one
 * test checks both.
 */
import { SQL } from "bun";
import { readAll } from "../../src/docbytes.ts";
import { sqliteData, type DataStore } from "../../src/store/data.ts";
import { prepareDatabase } from "../../src/store/pg/connect.ts";
import { pgData } from "../../src/store/pg/data.ts";
import { PgMessageLog } from "../../src/store/pg/log.ts";
import { Replica } from "../../src/store/pg/replica.ts";
import type { Store } from "../../src/store/store.ts";
import { fixedClock } from "../../src/clock.ts";
import { openStore, T0, tempDir } from "../helpers.ts";
import { testDatabase } from "../pg.ts";

export interface Target extends DataStore {
  /** What followers' replies read. */
  store: Store;
  /** A backup's document, whole. */
  readBackup(id: string): Promise<string>;
  close(): Promise<void>;
}

export const STORES = ["sqlite", "postgres"] as const;
export type StoreKind = (typeof STORES)[number];

/** Backups kept per matter: what openStore gives the SQLite store. */
const KEEP = 5;


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
      readBackup: (id) => readBackup(data, id),
      close: async () => {
        store.close();
        tmp.cleanup();
      },
    };
  }
  const db = await testDatabase();
  const sql = new SQL(db.url);
  await prepareDatabase(sql, { now: new Date(), firstKey: false });
  const log = new PgMessageLog(sql);
  const data = pgData(sql, new Replica(store, sql), store, fixedClock(T0), KEEP, log);
  return {
    ...data,
    store,
    readBackup: (id) => readBackup(data, id),
    close: async () => {
      await log.close();
      await sql.close();
      await db.drop();
      store.close();
      tmp.cleanup();
    },
  };
}
