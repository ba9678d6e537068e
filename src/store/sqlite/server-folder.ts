/**
 * The top of the data folder of a server with several accounts (the config file's [accounts]):
 * held by this process alone (its serve.lock, as a single account's folder is), with the
 * server-wide keys.json — keys are the server's, each optionally bound to one account — and
 * `accounts/NAME/`, each account's own data folder (open.ts openSqlite, locked in turn).
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { Clock } from "../../base/clock.ts";
import { BackendError } from "../backend.ts";
import { generateKey, KeyRing, KeysError, writeKeys, type AdminKey } from "../keys.ts";
import { forgetEnvironmentKey, recordEnvironmentKey } from "./environment-key.ts";
import { FolderInUse, lockDataFolder } from "./folderlock.ts";
import { writable } from "./open.ts";
import { privateDir } from "../../base/fsutil.ts";

export interface ServerFolder {
  readonly keys: KeyRing;
  /** The first admin key, when this start made it (a key for every account). */
  readonly created: AdminKey | null;
  /** An account's own data folder. */
  accountDir(name: string): string;
  /** Data a single-account server left at the top (replyd.db): belongs to no account until moved (docs/operations.md). */
  readonly strayDatabase: boolean;
  close(): void;
}

export function openServerFolder(dir: string, opts: { clock: Clock; extraKeys: AdminKey[]; environmentKey?: AdminKey; firstKey: boolean }): ServerFolder {
  writable(dir);
  // accounts/ the owner's alone as the top is (writable), also when a release left it open (operations.md).
  privateDir(join(dir, "accounts"));
  let lock;
  try {
    lock = lockDataFolder(dir);
  } catch (e) {
    throw new BackendError(e instanceof FolderInUse ? e.message : `cannot lock the data folder ${dir}: ${(e as Error).message}`);
  }
  try {
    const keysPath = join(dir, "keys.json");
    const extra = [...opts.extraKeys, ...(opts.environmentKey ? [opts.environmentKey] : [])];
    let created: AdminKey | null = null;
    if (opts.firstKey && !existsSync(keysPath) && !extra.length) {
      created = generateKey("admin", new Date(opts.clock.now()), "created on first start");
      writeKeys(keysPath, [created]);
    }
    const keys = new KeyRing(keysPath, extra);
    recordEnvironmentKey(dir, opts.environmentKey?.appkey ?? null);
    return {
      keys,
      created,
      accountDir: (name) => join(dir, "accounts", name),
      strayDatabase: existsSync(join(dir, "replyd.db")),
      close() {
        if (opts.environmentKey) forgetEnvironmentKey(dir);
        lock.release();
      },
    };
  } catch (e) {
    lock.release();
    throw e instanceof KeysError ? new BackendError(e.message) : e;
  }
}
