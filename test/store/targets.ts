/**
 * The stores a parameterised suite runs against: SQLite, and PostgreSQL with its local read copy,
 * each opened as a server opens it (store/open.ts) and used through the writer the routes use
 * (store/writer.ts), with its message log. `store` is what followers' replies read (the store
 * itself, or the copy, caught up after every write), so one test checks both.
 */
import { readAll } from "../../src/doc/byte-source.ts";
import type { Writer } from "../../src/store/writer.ts";
import { openBackend } from "../../src/store/open.ts";
import type { DataFolder } from "../../src/store/sqlite/data-folder.ts";
import { fixedClock } from "../../src/base/clock.ts";
import { T0, tempDir } from "../helpers.ts";
import { testDatabase } from "../pg.ts";

export interface Target extends Writer {
  /** What followers' replies read. */
  store: DataFolder;
  /** A backup's document, whole. */
  readBackup(id: string): Promise<string>;
  close(): Promise<void>;
}

export const STORES = ["sqlite", "postgres"] as const;
export type StoreKind = (typeof STORES)[number];

/** Backups kept per matter. */
const KEEP = 5;

async function readBackup(write: Writer, id: string): Promise<string> {
  const backup = await write.openBackup(id);
  try {
    return Buffer.from(readAll(backup.source)).toString("utf8");
  } finally {
    backup.close();
  }
}

export async function openTarget(kind: StoreKind): Promise<Target> {
  const tmp = tempDir();
  const db = kind === "postgres" ? await testDatabase() : null;
  const backend = await openBackend(db?.url ?? tmp.dir, { clock: fixedClock(T0), keep: KEEP, extraKeys: [], firstKey: false, logError: (m) => console.error(m) });
  return {
    ...backend.write,
    store: backend.read as DataFolder,
    readBackup: (id) => readBackup(backend.write, id),
    close: async () => {
      await backend.close();
      await db?.drop();
      tmp.cleanup();
    },
  };
}
