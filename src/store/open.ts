/** The one place that chooses where the data is kept (backend.ts). */
import { join } from "node:path";
import type { Backend, BackendOptions } from "./backend.ts";
import type { AdminKey, Keys } from "./keys.ts";
import { openPostgres, openPostgresAccount } from "./postgres/open.ts";
import { openPgServer } from "./postgres/server.ts";
import { openSqlite } from "./sqlite/open.ts";
import { openServerFolder } from "./sqlite/server-folder.ts";
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

/** What a server with several accounts (the config file's [accounts]) holds beside its accounts' data. */
export interface AccountsServer {
  /** The server-wide admin keys, each optionally bound to one account. */
  readonly keys: Keys;
  /** The first admin key, when this start made it (a key for every account). */
  readonly created: AdminKey | null;
  /** Where the keys are, for the first start's notice. */
  readonly keysWhere: string;
  /** One account's backend: its folder under accounts/ (SQLite), or its schema (PostgreSQL). */
  openAccount(name: string, opts: BackendOptions): Promise<Backend>;
  /** Data a single-account server left where no account reads it, said at start (docs/operations.md); null when none. */
  stray(): Promise<string | null>;
  close(): Promise<void>;
}

/**
 * The server of several accounts: on SQLite the top of the data folder (its lock, the server-wide
 * keys.json, each account a folder under accounts/NAME/); on PostgreSQL the database's default
 * schema (admin_keys, the instance registry), each account a schema of its own. `opts` as for a
 * single account's backend; the keys and the first key are the server's.
 */
export async function openAccountsServer(target: string, opts: BackendOptions): Promise<AccountsServer> {
  if (isDatabaseTarget(target)) {
    const pg = await openPgServer(target, opts);
    return {
      keys: pg.keys,
      created: pg.created,
      keysWhere: `the database at ${pg.where}`,
      openAccount: (name, o) => openPostgresAccount(pg, name, o),
      stray: async () => ((await pg.hasArticles().catch(() => false)) ? `the database's default schema holds articles that belong to no account: a server with [accounts] keeps each account's data in a schema of its own (docs/operations.md, "Several accounts on PostgreSQL and in a cluster")` : null),
      close: () => pg.close(),
    };
  }
  const folder = openServerFolder(target, { clock: opts.clock, extraKeys: opts.extraKeys, ...(opts.environmentKey ? { environmentKey: opts.environmentKey } : {}), firstKey: opts.firstKey });
  return {
    keys: folder.keys,
    created: folder.created,
    keysWhere: `${join(target, "keys.json")} (mode 0600)`,
    openAccount: (name, o) => openSqlite(folder.accountDir(name), { ...o, account: name }),
    stray: async () =>
      folder.strayDatabase ? `${join(target, "replyd.db")} belongs to no account: a server with [accounts] keeps each account's data in accounts/NAME/ (docs/operations.md, "Moving an existing folder under an account")` : null,
    close: async () => folder.close(),
  };
}
