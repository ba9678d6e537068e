import { SQL } from "bun";
import { rmSync } from "node:fs";
import type { Clock } from "../clock.ts";
import type { DataStore } from "../store/data.ts";
import type { AdminKey } from "../store/keys.ts";
import { prepareDatabase } from "../store/pg/connect.ts";
import { redactUrl, scrubPassword } from "../store/pg/url.ts";
import { pgData } from "../store/pg/data.ts";
import { PgKeyRing } from "../store/pg/keys.ts";
import { PgMessageLog } from "../store/pg/log.ts";
import { Replica } from "../store/pg/replica.ts";
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
  /** Stops following the database, writes what the log holds (waiting up to `waitMs`); answers how many messages could not be written. */
  close(waitMs?: number): Promise<{ lost: number }>;
}

export class DatabaseStartupError extends Error {}

/**
 * Opens the PostgreSQL store: schema brought up to date (and the first key created) under the
 * migration lock, the local copy loaded before the server listens, then kept up to date every
 * second (what other instances, or `replyd keys --db`, changed).
 */
export async function openDatabase(url: string, opts: { clock: Clock; keep: number; replyLimit?: number; envKey: AdminKey | null; logError: (message: string) => void }): Promise<DatabaseBacking> {
  const where = redactUrl(url);
  const sql = new SQL(url);
  let created: AdminKey | null;
  try {
    created = (await prepareDatabase(sql, { now: new Date(opts.clock.now()), firstKey: !opts.envKey })).firstKey;
  } catch (e) {
    await sql.close().catch(() => {});
    throw new DatabaseStartupError(`cannot use the database at ${where}: ${scrubPassword((e as Error).message, url)}`);
  }
  for (const stale of sweepStaleCopies()) opts.logError(`removed ${stale}, the read copy of a server that did not stop (kill -9)`);
  const dir = makeCopyDir();
  const store = Store.open(dir, { clock: opts.clock, keep: opts.keep, logError: opts.logError, durable: false, ...(opts.replyLimit ? { replyLimit: opts.replyLimit } : {}) });
  const replica = new Replica(store, sql);
  const log = new PgMessageLog(sql, opts.logError);
  let keys: PgKeyRing;
  try {
    await replica.catchUp();
    keys = await PgKeyRing.open(sql, opts.envKey ? [opts.envKey] : []);
  } catch (e) {
    store.close();
    rmSync(dir, { recursive: true, force: true });
    await sql.close().catch(() => {});
    throw new DatabaseStartupError(`cannot load the data from ${where}: ${scrubPassword((e as Error).message, url)}`);
  }
  let following: Promise<unknown> | null = null;
  let failing = false;
  const follow = setInterval(() => {
    following ??= replica
      .catchUp()
      .then(() => {
        if (failing) opts.logError(`the database at ${where} answers again; the local copy is up to date`);
        failing = false;
      })
      .catch((e) => {
        if (!failing) opts.logError(`the local copy cannot follow the database at ${where}: ${scrubPassword((e as Error).message, url)}; followers are answered from what it holds`);
        failing = true;
      })
      .finally(() => (following = null));
  }, 1000);
  follow.unref?.();
  return {
    store,
    data: pgData(sql, replica, store, opts.clock, opts.keep, log, opts.replyLimit),
    keys,
    created,
    where,
    async close(waitMs = 10_000) {
      clearInterval(follow);
      keys.close();
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
