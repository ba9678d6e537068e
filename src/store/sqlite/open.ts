/**
 * The SQLite backend: everything in the data folder — the database, backups as files, media,
 * keys.json — held by this process alone (folderlock.ts). On first start without keys it makes
 * the first admin key.
 */
import { chmodSync, existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BackendError, type Backend, type BackendOptions } from "../backend.ts";
import { sqliteWriter } from "./writer.ts";
import { FolderInUse, lockDataFolder, type FolderLock } from "./folderlock.ts";
import { generateKey, KeyRing, KeysError, writeKeys, type AdminKey } from "../keys.ts";
import { DataFolder } from "./data-folder.ts";
import { PRIVATE_DIR } from "../../base/fsutil.ts";
import { forgetEnvironmentKey, recordEnvironmentKey } from "./environment-key.ts";

/** The folder can be written (a read-only mount, a full disk, wrong permissions say so in one sentence). */
export function writable(dir: string): void {
  try {
    // Made the owner's alone (operations.md); the folders above it as any tool makes them.
    mkdirSync(dir, { recursive: true });
    chmodSync(dir, PRIVATE_DIR);
    const probe = join(dir, `.write-test-${process.pid}`);
    writeFileSync(probe, "");
    rmSync(probe);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const why = code === "EROFS" ? "it is on a read-only file system" : code === "EACCES" || code === "EPERM" ? "permission denied" : code === "ENOSPC" ? "the disk is full" : (e as Error).message;
    throw new BackendError(`the data folder ${dir} is not writable: ${why}`);
  }
}

/** The accounts whose data a server of several accounts keeps under `dir` (accounts/NAME/replyd.db). */
function accountsUnder(dir: string): string[] {
  try {
    return readdirSync(join(dir, "accounts"), { withFileTypes: true })
      .filter((e) => e.isDirectory() && existsSync(join(dir, "accounts", e.name, "replyd.db")))
      .map((e) => e.name)
      .sort();
  } catch {
    return [];
  }
}

export async function openSqlite(dir: string, opts: BackendOptions): Promise<Backend> {
  // A server of several accounts started without its config file would make an empty store at the
  // top and answer from it: every article "gone". Refused before anything is made.
  const held = existsSync(join(dir, "replyd.db")) ? [] : accountsUnder(dir);
  if (held.length)
    throw new BackendError(
      `the data folder ${dir} holds the data of ${held.length === 1 ? "the account" : "the accounts"} ${held.join(", ")} (accounts/NAME/) and none of its own: it is a server of several accounts — start it with --config naming them in [accounts] (docs/operations.md); nothing was made`,
    );
  writable(dir);
  let lock: FolderLock;
  try {
    lock = lockDataFolder(dir);
  } catch (e) {
    throw new BackendError(e instanceof FolderInUse ? e.message : `cannot lock the data folder ${dir}: ${(e as Error).message}`);
  }
  let store: DataFolder;
  try {
    store = DataFolder.open(dir, { clock: opts.clock, keep: opts.keep, logError: opts.logError, ...(opts.replyLimit ? { replyLimit: opts.replyLimit } : {}), ...(opts.account ? { account: opts.account } : {}) });
  } catch (e) {
    lock.release();
    throw new BackendError(`cannot open the database in ${dir}: ${(e as Error).message}`);
  }
  let created: AdminKey | null = null;
  let keys: KeyRing;
  try {
    const keysPath = join(dir, "keys.json");
    const extra = [...opts.extraKeys, ...(opts.environmentKey ? [opts.environmentKey] : [])];
    if (opts.firstKey && !existsSync(keysPath) && !extra.length) {
      created = generateKey("admin", new Date(opts.clock.now()), "created on first start");
      writeKeys(keysPath, [created]);
    }
    keys = new KeyRing(keysPath, extra);
    // Under the lock: a record found now was left by a server that is gone.
    recordEnvironmentKey(dir, opts.environmentKey?.appkey ?? null);
  } catch (e) {
    store.close();
    lock.release();
    throw e instanceof KeysError ? new BackendError(e.message) : e;
  }
  return {
    kind: "sqlite",
    read: store,
    write: sqliteWriter(store),
    keys,
    created,
    where: { data: dir },
    cluster: null,
    async close() {
      const closed = store.close();
      if (opts.environmentKey) forgetEnvironmentKey(dir);
      lock.release();
      return { lost: closed.lost, database: closed.database, ...(closed.spilled ? { kept: closed.spilled, keptIn: closed.file as string } : {}) };
    },
  };
}
