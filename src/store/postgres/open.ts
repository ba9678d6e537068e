/**
 * The PostgreSQL backend (`serve --db`): everything in the database, nothing of value on the host.
 * Schema brought up to date under the migration lock; the instance registered (a second one needs
 * --redis); the first key made by the instance that prints it (server.ts); the local read copy
 * (SQLite in a temporary folder) loaded before the server listens, then kept up to date every
 * second and at once on another instance's change notice. One backend per account: without
 * [accounts] the one account's in the default schema, beside the server's tables; with them each
 * in its own schema, read and written through a pool of its own (account-schema.ts).
 */
import type { SQL } from "bun";
import { rmSync } from "node:fs";
import { BackendError, type Backend, type BackendOptions } from "../backend.ts";
import type { DatabaseState } from "../writer.ts";
import { DEFAULT_KEYS, keyspace } from "../../cluster/keyspace.ts";
import type { RedisLink } from "../redis/link.ts";
import { Model } from "../model/model.ts";
import { accountPool, accountSchema } from "./account-schema.ts";
import { prepareDatabase } from "./connect.ts";
import { makeCopyDir, sweepStaleCopies } from "./copydir.ts";
import { pgWriter } from "./data.ts";
import { PgMessageLog } from "./log.ts";
import { Replica } from "./replica.ts";
import { openPgServer, type PgServer } from "./server.ts";
import { scrubPassword } from "./url.ts";

/** A server without [accounts]: its one account's data in the database's default schema. */
export async function openPostgres(url: string, opts: BackendOptions): Promise<Backend> {
  const server = await openPgServer(url, opts);
  try {
    return await openAccountData(server, server.sql, DEFAULT_KEYS.changedChannel, opts, () => server.close());
  } catch (e) {
    await server.close();
    throw e;
  }
}

/**
 * The account `name` of a server with [accounts]: its schema made and brought up to date, its
 * own local copy and change channel (keyspace(name)); the keys and the registry are the server's.
 */
export async function openPostgresAccount(server: PgServer, name: string, opts: BackendOptions): Promise<Backend> {
  const sql = accountPool(server.url, name);
  try {
    await prepareDatabase(sql, { now: new Date(opts.clock.now()), firstKey: false, schema: accountSchema(name) });
  } catch (e) {
    await sql.close().catch(() => {});
    throw new BackendError(`cannot use the account "${name}" in the database at ${server.where}: ${scrubPassword((e as Error).message, server.url)}`);
  }
  try {
    return await openAccountData(server, sql, keyspace(name).changedChannel, opts, () => sql.close().catch(() => {}));
  } catch (e) {
    await sql.close().catch(() => {});
    throw e;
  }
}

/** An account's data read through `sql` (its schema): the local copy, the writer, the message log. */
async function openAccountData(server: PgServer, sql: SQL, changed: string, opts: BackendOptions, closePool: () => Promise<unknown>): Promise<Backend> {
  const { url, where, registry, keys } = server;
  // Routine cleanup, said once at info: eleven lines at "error" for other servers' leftovers in a shared /tmp had read as eleven faults (a grocery's walkthrough).
  const stale = sweepStaleCopies();
  if (stale.length) (opts.logInfo ?? opts.logError)(`removed ${stale.length} read ${stale.length === 1 ? "copy" : "copies"} left by ${stale.length === 1 ? "a server" : "servers"} that did not stop (kill -9): ${stale.slice(0, 3).join(", ")}${stale.length > 3 ? ` and ${stale.length - 3} more` : ""}`);
  const dir = makeCopyDir();
  const store = Model.open(dir, { logError: opts.logError, durable: false });
  const replica = new Replica(store, sql, opts.logError);
  const log = new PgMessageLog(sql, { onError: opts.logError, onInfo: opts.logInfo ?? opts.logError });
  try {
    await replica.catchUp();
  } catch (e) {
    store.close();
    rmSync(dir, { recursive: true, force: true });
    throw new BackendError(`cannot load the data from ${where}: ${scrubPassword((e as Error).message, url)}`);
  }
  let following: Promise<unknown> | null = null;
  let failing = false;
  /** When the copy or the keys first failed to read the database, while they do. */
  let downSince: number | null = null;
  const follow = () =>
    (following ??= replica
      .catchUp()
      .then(() => {
        if (failing) (opts.logInfo ?? opts.logError)(`the database at ${where} answers again; the local copy is up to date`);
        failing = false;
        // An outage nobody read health during is over: the next one starts its own "since".
        if (!keys.lastError) downSince = null;
      })
      .catch((e) => {
        if (!failing) opts.logError(`the local copy cannot follow the database at ${where}: ${scrubPassword((e as Error).message, url)}; followers are answered from what it holds`);
        failing = true;
        downSince ??= opts.clock.now();
      })
      .finally(() => (following = null)));
  // Polled every second; with Redis, also at once when another instance says it wrote.
  const poll = setInterval(follow, 1000);
  poll.unref?.();
  const lags: { at: number; ms: number }[] = [];
  let notices = 0;
  if (opts.redis) {
    await opts.redis.subscribe(changed, (message) => {
      let notice: { by?: string; at?: number };
      try {
        notice = JSON.parse(message) as typeof notice;
      } catch {
        return;
      }
      if (notice.by === registry.id) return;
      // Not follow(): a catch-up already running may have read its snapshot before this write, and
      // the replica runs one more after it for those who arrive meanwhile.
      void replica
        .catchUp()
        .catch(() => {})
        .then(() => {
          notices++;
          const now = Date.now();
          lags.push({ at: now, ms: typeof notice.at === "number" ? Math.max(0, now - notice.at) : 0 });
          while (lags.length && ((lags[0] as { at: number }).at < now - 60_000 || lags.length > 1000)) lags.shift();
        });
    });
  }
  const announce = opts.redis ? () => void (opts.redis as RedisLink).publish(changed, JSON.stringify({ by: registry.id, at: Date.now() })).catch(() => {}) : () => {};
  // What health says of the database: its own line, and the cluster's `postgres` alike.
  const database = (): DatabaseState => {
    if (!failing && !keys.lastError) {
      downSince = null;
      return { state: "up" };
    }
    downSince ??= opts.clock.now();
    return { state: "down", since: new Date(downSince).toISOString(), error: scrubPassword(keys.lastError ?? "the copy cannot follow it", url) };
  };
  return {
    kind: "postgres",
    read: store,
    write: Object.assign(pgWriter(sql, replica, store, opts.clock, opts.keep, log, opts.replyLimit, announce), { database }),
    keys,
    created: server.created,
    where: { db: where },
    cluster: {
      registry,
      state: database,
      cacheLag: () => ({
        last_ms: lags.length ? (lags[lags.length - 1] as { ms: number }).ms : null,
        max_ms_last_minute: lags.length ? Math.max(...lags.map((l) => l.ms)) : null,
        notices,
      }),
    },
    async close() {
      clearInterval(poll);
      await following;
      const { unwritten, error } = await log.close(10_000);
      if (unwritten) opts.logError(`${unwritten} follower messages could not be written to the database and are lost: ${error}`);
      await closePool();
      store.close();
      rmSync(dir, { recursive: true, force: true });
      return { lost: unwritten + log.dropped };
    },
  };
}
