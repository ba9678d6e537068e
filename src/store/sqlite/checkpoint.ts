/**
 * The checkpoint of a clean stop: every page of the WAL copied into replyd.db, so that the
 * database file alone holds every table and row (a copy of replyd.db taken after the stop, without
 * its -wal, is the whole data).
 *
 * Closing the last connection checkpoints only when SQLite can take the file for itself: another
 * process reading it (a backup tool, sqlite3), or the server's own worker connections still open,
 * made it skip, and a new folder stopped after a few seconds kept replyd.db at 4 KiB with
 * everything in the -wal. So the stop asks for the checkpoint itself, in two steps:
 *
 * - FULL waits (the busy timeout) for readers of an older snapshot — they would still need the
 *   pages it must overwrite — then copies every frame. A reader of the latest snapshot does not
 *   hold it up.
 * - TRUNCATE then empties the -wal, which needs no reader to be using it; when one still is, the
 *   frames stay in the -wal as well, already copied, and nothing is lost either way.
 */
import type { Database } from "bun:sqlite";

export interface CheckpointResult {
  /** Every frame of the WAL is in the database file. */
  complete: boolean;
  /** The WAL was emptied too. */
  truncated: boolean;
  /** Frames not copied (a reader held an older snapshot past the wait); -1: not known (another checkpoint held the WAL). */
  left: number;
}

/** How long a stop waits for readers of an older snapshot before it gives up on the checkpoint. */
export const CHECKPOINT_WAIT_MS = 10_000;
/** How long it waits for readers to leave the -wal so it can be emptied (the data is copied by then). */
export const TRUNCATE_WAIT_MS = 1_000;

/** The stop's line says it: what an operator copying the folder needs. */
export function describeCheckpoint(c: CheckpointResult): string {
  if (c.truncated) return "replyd.db holds everything";
  if (c.complete) return "replyd.db holds everything (its -wal kept, already copied, for another process reading it)";
  return `replyd.db needs replyd.db-wal: ${c.left >= 0 ? `${c.left} pages were` : "the WAL was"} not copied`;
}

type Row = { busy: number; log: number; checkpointed: number };

/**
 * One checkpoint in `mode`, waiting up to `waitMs`. SQLite answers busy at once, without its busy
 * timeout, while another connection runs a checkpoint (log -1: nothing was looked at) — a worker's
 * connection closing, another process's — so that is tried again until the time is up.
 */
function run(db: Database, mode: "FULL" | "TRUNCATE", waitMs: number): Row {
  const until = performance.now() + waitMs;
  for (;;) {
    db.exec(`PRAGMA busy_timeout = ${Math.max(0, Math.floor(until - performance.now()))}`);
    const r = db.query(`PRAGMA wal_checkpoint(${mode})`).get() as Row;
    if (!(r.busy && r.log < 0) || performance.now() >= until) return r;
    Bun.sleepSync(20);
  }
}

/** Every frame was copied: the checkpoint finished, or stopped short only of emptying the WAL. */
const done = (r: Row) => r.busy === 0 || (r.log >= 0 && r.checkpointed >= r.log);

export function checkpoint(db: Database, waitMs = CHECKPOINT_WAIT_MS, truncateWaitMs = TRUNCATE_WAIT_MS): CheckpointResult {
  const full = run(db, "FULL", waitMs);
  if (!full.busy && full.log < 0) return { complete: true, truncated: true, left: 0 };
  const truncate = run(db, "TRUNCATE", truncateWaitMs);
  if (!truncate.busy) return { complete: true, truncated: true, left: 0 };
  if (done(full) || done(truncate)) return { complete: true, truncated: false, left: 0 };
  const last = truncate.log >= 0 ? truncate : full;
  return { complete: false, truncated: false, left: last.log >= 0 ? last.log - last.checkpointed : -1 };
}
