import { SQL } from "bun";
import { rmSync } from "node:fs";
import type { Clock } from "../clock.ts";
import type { DataStore } from "../store/data.ts";
import type { AdminKey } from "../store/keys.ts";
import { createFirstKey, prepareDatabase } from "../store/pg/connect.ts";
import { redactUrl, scrubPassword } from "../store/pg/url.ts";
import { pgData } from "../store/pg/data.ts";
import { PgKeyRing } from "../store/pg/keys.ts";
import { PgMessageLog } from "../store/pg/log.ts";
import { Replica } from "../store/pg/replica.ts";
import { InstanceConflict, InstanceRegistry } from "../store/pg/instances.ts";
import type { RedisLink } from "../store/redis/link.ts";
import { Store } from "../store/store.ts";
import { makeCopyDir, sweepStaleCopies } from "./copydir.ts";

/** What `serve --db` runs on: the database, and the local copy in a temporary folder that replies read. */
export interface DatabaseBacking {
  store: Store;
  data: DataStore;
  keys: PgKeyRing;
  /** The first admin key, when this start created it (an empty database). */
  created: AdminKey | null;
  /** The URL without its password, for messages. */
  where: string;
  /** This instance among those serving from the database. */
  registry: InstanceRegistry;
  /** Whether the database answers, as the copy's follower and the key ring last found. */
  state(): { state: "up" | "down"; error?: string };
  /** How long other instances' writes took to reach this one's copy (from their change notices). */
  cacheLag(): { last_ms: number | null; max_ms_last_minute: number | null; notices: number };
  /** Stops following the database, writes what the log holds (waiting up to `waitMs`); answers how many messages could not be written. */
  close(waitMs?: number): Promise<{ lost: number }>;
}

export class DatabaseStartupError extends Error {}

/**
 * Opens the PostgreSQL store: schema brought up to date (and the first key created) under the
 * migration lock, the local copy loaded before the server listens, then kept up to date every
 * second (what other instances, or `replyd keys --db`, changed).
 */
export async function openDatabase(
  url: string,
  opts: { clock: Clock; keep: number; replyLimit?: number; envKey: AdminKey | null; logError: (message: string) => void; redis?: RedisLink },
): Promise<DatabaseBacking> {
  const where = redactUrl(url);
  const sql = new SQL(url);
  try {
    // The first key comes after registering: an instance refused here must not make one nobody sees.
    await prepareDatabase(sql, { now: new Date(opts.clock.now()), firstKey: false });
  } catch (e) {
    await sql.close().catch(() => {});
    throw new DatabaseStartupError(`cannot use the database at ${where}: ${scrubPassword((e as Error).message, url)}`);
  }
  const registry = new InstanceRegistry(sql, !!opts.redis);
  let created: AdminKey | null;
  try {
    await registry.register();
    created = opts.envKey ? null : await createFirstKey(sql, new Date(opts.clock.now()));
  } catch (e) {
    await registry.unregister().catch(() => {});
    await sql.close().catch(() => {});
    throw new DatabaseStartupError(e instanceof InstanceConflict ? `cannot start: ${e.message}` : `cannot use the database at ${where}: ${scrubPassword((e as Error).message, url)}`);
  }
  for (const stale of sweepStaleCopies()) opts.logError(`removed ${stale}, the read copy of a server that did not stop (kill -9)`);
  const dir = makeCopyDir();
  const store = Store.open(dir, { clock: opts.clock, keep: opts.keep, logError: opts.logError, durable: false, ...(opts.replyLimit ? { replyLimit: opts.replyLimit } : {}) });
  const replica = new Replica(store, sql, opts.logError);
  const log = new PgMessageLog(sql, opts.logError);
  let keys: PgKeyRing;
  try {
    await replica.catchUp();
    keys = await PgKeyRing.open(sql, opts.envKey ? [opts.envKey] : []);
  } catch (e) {
    store.close();
    rmSync(dir, { recursive: true, force: true });
    await registry.unregister();
    await sql.close().catch(() => {});
    throw new DatabaseStartupError(`cannot load the data from ${where}: ${scrubPassword((e as Error).message, url)}`);
  }
  let following: Promise<unknown> | null = null;
  let failing = false;
  const follow = () =>
    (following ??= replica
      .catchUp()
      .then(() => {
        if (failing) opts.logError(`the database at ${where} answers again; the local copy is up to date`);
        failing = false;
      })
      .catch((e) => {
        if (!failing) opts.logError(`the local copy cannot follow the database at ${where}: ${scrubPassword((e as Error).message, url)}; followers are answered from what it holds`);
        failing = true;
      })
      .finally(() => (following = null)));
  // Polled every second; with Redis, also at once when another instance says it wrote.
  const poll = setInterval(follow, 1000);
  poll.unref?.();
  const lags: { at: number; ms: number }[] = [];
  let notices = 0;
  const CHANGED = "replyd:changed";
  if (opts.redis) {
    await opts.redis.subscribe(CHANGED, (message) => {
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
  const announce = opts.redis ? () => void (opts.redis as RedisLink).publish(CHANGED, JSON.stringify({ by: registry.id, at: Date.now() })).catch(() => {}) : () => {};
  return {
    store,
    data: pgData(sql, replica, store, opts.clock, opts.keep, log, opts.replyLimit, announce),
    registry,
    state: () => (failing || keys.lastError ? { state: "down", error: scrubPassword(keys.lastError ?? "the copy cannot follow it", url) } : { state: "up" }),
    cacheLag: () => ({
      last_ms: lags.length ? (lags[lags.length - 1] as { ms: number }).ms : null,
      max_ms_last_minute: lags.length ? Math.max(...lags.map((l) => l.ms)) : null,
      notices,
    }),
    keys,
    created,
    where,
    async close(waitMs = 10_000) {
      clearInterval(poll);
      keys.close();
      await registry.unregister();
      await following;
      const { unwritten, error } = await log.close(waitMs);
      if (unwritten) opts.logError(`${unwritten} follower messages could not be written to the database and are lost: ${error}`);
      await sql.close().catch(() => {});
      store.close();
      rmSync(dir, { recursive: true, force: true });
      return { lost: unwritten + log.dropped };
    },
  };
}
