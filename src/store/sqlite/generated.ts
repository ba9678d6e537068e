import type { Database } from "bun:sqlite";
import { entryOfRow, GENERATED_COLUMNS, rowValues, whileItRan, type GeneratedEntry, type GeneratedLog, type GeneratedRow, type NewGenerated, type Outcome } from "../generated-log.ts";

/** The model calls' log in the data folder's database (store/generated-log.ts). Few rows: written on the event loop. */
export class GeneratedCalls implements GeneratedLog {
  constructor(private readonly db: Database) {}

  async add(e: NewGenerated): Promise<number> {
    const marks = GENERATED_COLUMNS.map(() => "?").join(", ");
    return Number(this.db.query(`INSERT INTO generated (${GENERATED_COLUMNS.join(", ")}) VALUES (${marks})`).run(...rowValues(e)).lastInsertRowid);
  }

  async settle(seq: number, outcome: Outcome, deliveredAt: string | null, from?: Outcome): Promise<boolean> {
    const r = from === undefined
      ? this.db.run("UPDATE generated SET outcome = ?, delivered_at = coalesce(?, delivered_at) WHERE seq = ?", [outcome, deliveredAt, seq])
      : this.db.run("UPDATE generated SET outcome = ?, delivered_at = coalesce(?, delivered_at) WHERE seq = ? AND outcome = ?", [outcome, deliveredAt, seq, from]);
    return r.changes > 0;
  }

  async takePending(openid: string, since: string, deliveredAt: string): Promise<GeneratedEntry | null> {
    return this.db
      .transaction(() => {
        const row = this.db.query("SELECT * FROM generated INDEXED BY generated_pending WHERE openid = ? AND outcome = 'pending' ORDER BY seq DESC LIMIT 1").get(openid) as GeneratedRow | null;
        if (!row) return null;
        // Older ones (a second question answered late before the first was sent) are not sent after it.
        this.db.run("UPDATE generated SET outcome = 'expired' WHERE openid = ? AND outcome = 'pending' AND seq < ?", [openid, row.seq]);
        if (row.at < since || this.spokeSince(openid, row)) {
          this.db.run("UPDATE generated SET outcome = 'expired' WHERE seq = ?", [row.seq]);
          return null;
        }
        this.db.run("UPDATE generated SET outcome = 'next_message', delivered_at = ? WHERE seq = ?", [deliveredAt, row.seq]);
        return entryOfRow({ ...row, outcome: "next_message", delivered_at: deliveredAt });
      })
      .immediate();
  }

  /** Whether the follower said something else since the pending answer's call began (generated-log.ts takePending). */
  private spokeSince(openid: string, row: GeneratedRow): boolean {
    if (this.db.query("SELECT 1 FROM followers f JOIN messages m ON m.seq = f.last_seq WHERE f.openid = ? AND m.msg_key <> ? AND m.received_at > ?").get(openid, row.msg_key, row.at) !== null) return true;
    const w = whileItRan(row);
    const during = this.db.query("SELECT msg_key FROM messages INDEXED BY messages_received WHERE received_at > ? AND received_at <= ? AND from_user = ? AND direction = 'in' AND msg_key <> ?").all(w.from, w.to, openid, row.msg_key) as { msg_key: string }[];
    if (!during.length) return false;
    const before = new Set((this.db.query("SELECT msg_key FROM generated INDEXED BY generated_at WHERE at >= ? AND at <= ? AND openid = ? AND seq <> ?").all(w.callsFrom, row.at, openid, row.seq) as { msg_key: string }[]).map((g) => g.msg_key));
    return during.some((m) => !before.has(m.msg_key));
  }

  async pendingFollowers(since: string): Promise<string[]> {
    return (this.db.query("SELECT DISTINCT openid FROM generated WHERE outcome = 'pending' AND at >= ?").all(since) as { openid: string }[]).map((r) => r.openid);
  }

  async calls(since: string): Promise<{ openid: string; at: string }[]> {
    return this.db.query("SELECT openid, at FROM generated WHERE at >= ? AND outcome NOT LIKE 'capped:%' ORDER BY at").all(since) as { openid: string; at: string }[];
  }

  async list(opts: { limit: number; offset: number }): Promise<{ items: GeneratedEntry[]; total: number }> {
    const total = (this.db.query("SELECT count(*) AS n FROM generated").get() as { n: number }).n;
    const rows = this.db.query("SELECT * FROM generated ORDER BY seq DESC LIMIT ? OFFSET ?").all(opts.limit, opts.offset) as GeneratedRow[];
    return { items: rows.map(entryOfRow), total };
  }
}
