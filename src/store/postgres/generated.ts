import type { SQL } from "bun";
import { LOCK_CLASS } from "./exclusive.ts";
import { scopedLockKey } from "./account-schema.ts";
import { entryOfRow, GENERATED_COLUMNS, rowValues, whileItRan, type GeneratedEntry, type GeneratedLog, type GeneratedRow, type NewGenerated, type Outcome } from "../generated-log.ts";

const SELECT = "*, seq::text AS seq";

/** The model calls' log in PostgreSQL (store/generated-log.ts), shared by every instance. */
export class PgGeneratedCalls implements GeneratedLog {
  constructor(private readonly sql: SQL) {}

  async add(e: NewGenerated): Promise<number> {
    const marks = GENERATED_COLUMNS.map((_, i) => `$${i + 1}`).join(", ");
    const [{ seq }] = (await this.sql.unsafe(`INSERT INTO generated (${GENERATED_COLUMNS.join(", ")}) VALUES (${marks}) RETURNING seq::text AS seq`, rowValues(e))) as [{ seq: string }];
    return Number(seq);
  }

  async settle(seq: number, outcome: Outcome, deliveredAt: string | null, from?: Outcome): Promise<boolean> {
    const rows = (from === undefined
      ? await this.sql`UPDATE generated SET outcome = ${outcome}, delivered_at = coalesce(${deliveredAt}, delivered_at) WHERE seq = ${seq} RETURNING seq`
      : await this.sql`UPDATE generated SET outcome = ${outcome}, delivered_at = coalesce(${deliveredAt}, delivered_at) WHERE seq = ${seq} AND outcome = ${from} RETURNING seq`) as unknown[];
    return rows.length > 0;
  }

  /**
   * Of two instances asking at once, one takes the answer: the follower's pending answers are
   * taken one transaction at a time (a lock on the follower, not on rows: with a row lock the
   * second would skip the newest and take an older one).
   */
  async takePending(openid: string, since: string, deliveredAt: string): Promise<GeneratedEntry | null> {
    return this.sql.begin(async (tx) => {
      // In the class of the cross-instance locks (exclusive.ts), keyed apart from theirs.
      await tx.unsafe(`SELECT pg_advisory_xact_lock($1::int, ${scopedLockKey("$2")})`, [LOCK_CLASS, `pending:${openid}`]);
      const [row] = (await tx.unsafe(`SELECT ${SELECT} FROM generated WHERE openid = $1 AND outcome = 'pending' ORDER BY generated.seq DESC LIMIT 1`, [openid])) as GeneratedRow[];
      if (!row) return null;
      await tx`UPDATE generated SET outcome = 'expired' WHERE openid = ${openid} AND outcome = 'pending' AND seq < ${row.seq}::bigint`;
      // The follower's last interaction logged is another message, since the call began; or one was
      // logged while it ran that they sent after it began (generated-log.ts whileItRan).
      const w = whileItRan(row);
      const spoke =
        (await tx`SELECT 1 FROM followers f JOIN messages m ON m.seq = f.last_seq WHERE f.openid = ${openid} AND m.msg_key <> ${row.msg_key} AND m.received_at > ${row.at}`).length > 0 ||
        (await tx`SELECT 1 FROM messages m WHERE m.received_at > ${w.from} AND m.received_at <= ${w.to} AND m.from_user = ${openid} AND m.direction = 'in' AND m.msg_key <> ${row.msg_key}
                  AND NOT EXISTS (SELECT 1 FROM generated g WHERE g.at >= ${w.callsFrom} AND g.at <= ${row.at} AND g.openid = ${openid} AND g.seq <> ${row.seq}::bigint AND g.msg_key = m.msg_key) LIMIT 1`).length > 0;
      if (row.at < since || spoke) {
        await tx`UPDATE generated SET outcome = 'expired' WHERE seq = ${row.seq}::bigint`;
        return null;
      }
      await tx`UPDATE generated SET outcome = 'next_message', delivered_at = ${deliveredAt} WHERE seq = ${row.seq}::bigint`;
      return entryOfRow({ ...row, outcome: "next_message", delivered_at: deliveredAt });
    });
  }

  async pendingFollowers(since: string): Promise<string[]> {
    return ((await this.sql`SELECT DISTINCT openid FROM generated WHERE outcome = 'pending' AND at >= ${since}`) as { openid: string }[]).map((r) => r.openid);
  }

  async calls(since: string): Promise<{ openid: string; at: string }[]> {
    return (await this.sql`SELECT openid, at FROM generated WHERE at >= ${since} AND outcome NOT LIKE 'capped:%' ORDER BY at`) as { openid: string; at: string }[];
  }

  async list(opts: { limit: number; offset: number }): Promise<{ items: GeneratedEntry[]; total: number }> {
    const [{ n }] = (await this.sql`SELECT count(*)::int AS n FROM generated`) as [{ n: number }];
    const rows = (await this.sql.unsafe(`SELECT ${SELECT} FROM generated ORDER BY generated.seq DESC LIMIT $1 OFFSET $2`, [opts.limit, opts.offset])) as GeneratedRow[];
    return { items: rows.map(entryOfRow), total: n };
  }
}
