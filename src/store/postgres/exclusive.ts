/**
 * One at a time across every instance serving one PostgreSQL database (store/exclusive.ts within a
 * process): an advisory lock held for the whole of the work, a platform call included.
 */
import type { SQL } from "bun";
import { ReplydError } from "../../base/errors.ts";
import { oneAtATime } from "../exclusive.ts";
import { scopedLockKey } from "./account-schema.ts";

/** The advisory lock space of these locks ('rply'); the key's hash is the other half. */
export const LOCK_CLASS = 0x72706c79;

/** Longest wait for another instance's work (a platform call takes at most 10 s, retried once). */
export const EXCLUSIVE_WAIT_MS = 30_000;

/**
 * One at a time per key (per account: the key is in its schema's space) across every instance on the database: the lock is a session advisory lock
 * on a connection reserved for the work, so an instance that dies mid-way frees it with its
 * connection. `before` runs once the lock is held (the local copy catches up with what the
 * previous holder wrote). Waiting longer than EXCLUSIVE_WAIT_MS answers 503 `busy`.
 */
export function pgExclusive(sql: SQL, before: () => Promise<unknown>, waitMs = EXCLUSIVE_WAIT_MS) {
  const owner = {};
  return <T>(key: string, work: () => Promise<T>): Promise<T> =>
    oneAtATime(owner, key, async () => {
      const conn = await sql.reserve();
      try {
        for (const until = performance.now() + waitMs; ; ) {
          const [{ got }] = (await conn.unsafe(`SELECT pg_try_advisory_lock($1::int, ${scopedLockKey("$2")}) AS got`, [LOCK_CLASS, key])) as [{ got: boolean }];
          if (got) break;
          if (performance.now() > until)
            throw new ReplydError("busy", `another instance has been doing the same work (${key.split(":")[0]}) for ${waitMs / 1000} s; try again`, { retry_after: 5 });
          await Bun.sleep(50);
        }
        try {
          await before();
          return await work();
        } finally {
          await conn.unsafe(`SELECT pg_advisory_unlock($1::int, ${scopedLockKey("$2")})`, [LOCK_CLASS, key]).catch(() => {});
        }
      } finally {
        conn.release();
      }
    });
}
