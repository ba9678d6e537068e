import type { Database, Statement } from "bun:sqlite";

export interface LoggedMessage {
  received_at: string;
  msg_key: string;
  from_user: string;
  type: string;
  event: string | null;
  content: string | null;
  /** How it was answered: rule:<id>, help, code, tag, search, welcome, fallback, not_found, none. */
  answer: string;
  unmatched: boolean;
}

/**
 * The follower message log. Writes are queued and committed in batches (one transaction per flush)
 * so logging never costs an fsync per message; `flush()` on shutdown keeps every answered message.
 */
export class MessageLog {
  private queue: LoggedMessage[] = [];
  private timer: ReturnType<typeof setTimeout> | null = null;
  private readonly insert: Statement;

  constructor(
    private readonly db: Database,
    private readonly flushAfterMs = 10,
    private readonly maxQueue = 256,
  ) {
    this.insert = db.query(
      `INSERT OR IGNORE INTO messages (received_at, msg_key, from_user, type, event, content, answer, unmatched)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    );
  }

  add(m: LoggedMessage): void {
    this.queue.push(m);
    if (this.queue.length >= this.maxQueue) this.flush();
    else this.timer ??= setTimeout(() => this.flush(), this.flushAfterMs);
  }

  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (!this.queue.length) return;
    const batch = this.queue;
    this.queue = [];
    // The log needs to survive a crash of the process and a SIGTERM, which WAL with synchronous=NORMAL
    // guarantees; not a power cut, which would cost an fsync every 50 ms on the event loop. Admin
    // writes keep synchronous=FULL.
    this.db.exec("PRAGMA synchronous = NORMAL");
    try {
      this.db.transaction(() => {
        for (const m of batch) this.insert.run(m.received_at, m.msg_key, m.from_user, m.type, m.event, m.content, m.answer, m.unmatched ? 1 : 0);
      })();
    } catch (e) {
      // Keep the batch for the next flush rather than lose it (e.g. the disk was briefly full).
      this.queue = batch.concat(this.queue);
      throw e;
    } finally {
      this.db.exec("PRAGMA synchronous = FULL");
    }
  }

  list(opts: { unmatchedOnly: boolean; limit: number; offset: number }): { items: (LoggedMessage & { seq: number })[]; total: number } {
    this.flush();
    const where = opts.unmatchedOnly ? "WHERE unmatched = 1" : "";
    const total = (this.db.query(`SELECT count(*) AS n FROM messages ${where}`).get() as { n: number }).n;
    type Row = Omit<LoggedMessage, "unmatched"> & { seq: number; unmatched: number };
    const rows = this.db.query(`SELECT * FROM messages ${where} ORDER BY seq DESC LIMIT ? OFFSET ?`).all(opts.limit, opts.offset) as Row[];
    return { items: rows.map((r) => ({ ...r, unmatched: r.unmatched === 1 })), total };
  }

  /** Removes entries older than `days`; answers how many. */
  prune(days: number, nowMs: number): number {
    this.flush();
    const cutoff = new Date(nowMs - days * 86_400_000).toISOString();
    return this.db.run("DELETE FROM messages WHERE received_at < ?", [cutoff]).changes;
  }

  count(): number {
    return (this.db.query("SELECT count(*) AS n FROM messages").get() as { n: number }).n + this.queue.length;
  }
}
