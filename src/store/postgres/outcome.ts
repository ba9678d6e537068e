/**
 * The truth about a bulk write when the database goes away as it commits. A COMMIT whose answer
 * never came may or may not have been carried out; a write cut off before it was not. So the
 * transaction's last statement writes a marker row under a key of its own: afterwards the marker is
 * in the database exactly when the transaction committed, and the write is asked after by it once
 * the database answers again — done (the answer it computed), not done (nothing changed), or, if
 * the database stays away, unknown with how to find out.
 */
import type { SQL, TransactionSQL } from "bun";
import { ReplydError } from "../../base/errors.ts";
import { DatabaseUnavailable, unavailableReason } from "./errors.ts";

/** How long a write cut off at its COMMIT waits for the database to say whether it committed. */
export const OUTCOME_CHECK_MS = 10_000;
/** Markers of writes that were never asked after (the process died) are removed after a day. */
const MARKER_LIFE_MS = 86_400_000;
const stamp = (ms: number) => String(ms).padStart(15, "0");

export class Outcome<T> {
  readonly key = `op:${crypto.randomUUID()}`;
  /** The marker was sent: from here on the transaction may have committed. */
  marked = false;
  result: T | undefined;

  /** The transaction's last statement, with the answer it computed. */
  async mark(tx: TransactionSQL, result: T): Promise<T> {
    const now = Date.now();
    await tx`DELETE FROM meta WHERE key LIKE 'op:%' AND value < ${stamp(now - MARKER_LIFE_MS)}`;
    this.result = result;
    this.marked = true;
    await tx`INSERT INTO meta (key, value) VALUES (${this.key}, ${stamp(now)})`;
    return result;
  }
}

/**
 * Runs a write that marks its transaction (Outcome.mark), and tells the truth when the database
 * goes away under it: 503 database_unavailable "not applied" when it certainly was not, the
 * write's own answer when its marker is found, 503 outcome_unknown when the database cannot be
 * asked within `checkMs`.
 */
export async function knownOutcome<T>(sql: SQL, what: string, write: (o: Outcome<T>) => Promise<T>, checkMs = OUTCOME_CHECK_MS): Promise<T> {
  const o = new Outcome<T>();
  try {
    const result = await write(o);
    void sql`DELETE FROM meta WHERE key = ${o.key}`.catch(() => {});
    return result;
  } catch (e) {
    const reason = unavailableReason(e);
    if (!reason) throw e;
    if (!o.marked) throw new DatabaseUnavailable(reason, `the ${what} was not applied; nothing was changed`);
    const until = performance.now() + checkMs;
    for (; performance.now() < until; await Bun.sleep(250)) {
      let found: boolean | null;
      try {
        // Each try within what is left of the check: a connection attempt can hang for seconds.
        found = await Promise.race([
          sql`SELECT 1 FROM meta WHERE key = ${o.key}`.then((rows) => (rows as unknown[]).length > 0),
          Bun.sleep(Math.max(0, until - performance.now())).then(() => null),
        ]);
      } catch (again) {
        if (unavailableReason(again)) continue;
        throw again;
      }
      if (found === null) break;
      if (!found) throw new DatabaseUnavailable(reason, `the ${what} was not applied (the database confirmed it after it came back); nothing was changed`);
      void sql`DELETE FROM meta WHERE key = ${o.key}`.catch(() => {});
      return o.result as T;
    }
    throw new ReplydError(
      "outcome_unknown",
      `${reason} as the ${what} was committing, and it did not answer within ${checkMs / 1000} s: the ${what} was applied whole or not at all, and which is not known yet. Once the database answers, replyd health shows the counts and replyd ls the articles; if it was not applied, run it again`,
      { operation: o.key, retry_after: 5 },
    );
  }
}
