/** The one place that chooses where the data is kept (backend.ts). */
import type { Backend, BackendOptions } from "./backend.ts";
import { openPostgres } from "./postgres/open.ts";
import { openSqlite } from "./sqlite/open.ts";
import { openServerFolder, type ServerFolder } from "./sqlite/server-folder.ts";

export type { ServerFolder };
import type { KeyStore } from "./key-store.ts";
import { keyFile } from "./sqlite/key-file.ts";
import { keyTable } from "./postgres/key-table.ts";

/** A PostgreSQL URL; anything else names a data folder. */
export const isDatabaseTarget = (target: string) => /^postgres(ql)?:\/\//i.test(target);

/** A `postgres://` target is PostgreSQL (the data folder unused); any other is a data folder on SQLite. */
export function openBackend(target: string, opts: BackendOptions): Promise<Backend> {
  return isDatabaseTarget(target) ? openPostgres(target, opts) : openSqlite(target, opts);
}

/** The admin keys `replyd keys` manages: the database's with a `postgres://` URL, else the data folder's keys.json. */
export async function openKeyStore(target: { db: string } | { dir: string; adding: boolean }): Promise<KeyStore> {
  return "db" in target ? keyTable(target.db) : keyFile(target.dir, { adding: target.adding });
}

/**
 * The top of a data folder whose server declares several accounts: its lock and the server-wide
 * keys.json; each account's data in a folder of its own under it (SQLite only for now).
 */
export function openServerKeys(dir: string, opts: Parameters<typeof openServerFolder>[1]): ServerFolder {
  return openServerFolder(dir, opts);
}
