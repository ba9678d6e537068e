/**
 * What a server keeps in the database whatever its accounts: the schema brought up to date, this
 * instance registered (a second one needs --redis), the admin keys (server-wide, each optionally
 * bound to one account) and the first of them. Without [accounts] the one account's data shares
 * this pool and schema (open.ts openPostgres); with them each account has a schema of its own
 * (account-schema.ts) and this holds the server's tables alone.
 */
import { SQL } from "bun";
import { BackendError, type BackendOptions } from "../backend.ts";
import type { AdminKey } from "../keys.ts";
import { createFirstKey, prepareDatabase } from "./connect.ts";
import { InstanceConflict, InstanceRegistry } from "./instances.ts";
import { PgKeyRing } from "./keys.ts";
import { redactUrl, scrubPassword } from "./url.ts";

export interface PgServer {
  readonly url: string;
  /** The URL without its password, for messages. */
  readonly where: string;
  /** The database's default schema: the server's tables, and the one account's data without [accounts]. */
  readonly sql: SQL;
  readonly registry: InstanceRegistry;
  readonly keys: PgKeyRing;
  readonly created: AdminKey | null;
  /** Whether the default schema holds articles (a server with [accounts] serves none of them). */
  hasArticles(): Promise<boolean>;
  close(): Promise<void>;
}

export async function openPgServer(url: string, opts: BackendOptions): Promise<PgServer> {
  const where = redactUrl(url);
  const sql = new SQL(url);
  const failed = (e: unknown) => new BackendError(`cannot use the database at ${where}: ${scrubPassword((e as Error).message, url)}`);
  try {
    // The first key comes after registering: an instance refused here must not make one nobody sees.
    await prepareDatabase(sql, { now: new Date(opts.clock.now()), firstKey: false });
  } catch (e) {
    await sql.close().catch(() => {});
    throw failed(e);
  }
  const registry = new InstanceRegistry(sql, !!opts.redis, opts.environmentKey?.appkey ?? null);
  const extra = [...opts.extraKeys, ...(opts.environmentKey ? [opts.environmentKey] : [])];
  let created: AdminKey | null;
  let keys: PgKeyRing;
  try {
    await registry.register();
    created = !opts.firstKey || extra.length ? null : await createFirstKey(sql, new Date(opts.clock.now()));
    keys = await PgKeyRing.open(sql, extra);
  } catch (e) {
    await registry.unregister().catch(() => {});
    await sql.close().catch(() => {});
    throw e instanceof InstanceConflict ? new BackendError(`cannot start: ${e.message}`) : failed(e);
  }
  return {
    url,
    where,
    sql,
    registry,
    keys,
    created,
    hasArticles: async () => (await sql`SELECT 1 FROM articles LIMIT 1`).length > 0,
    async close() {
      keys.close();
      await registry.unregister();
      await sql.close().catch(() => {});
    },
  };
}
