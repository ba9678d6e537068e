import type { Database } from "bun:sqlite";
import { DEFAULT_REPLY_LIMIT, REPLY_WINDOW_MS, windowOf, type LoggedMessage, type NewReply, type ReplyWindow } from "../follower-log.ts";
import { kindOf, periodOf } from "../log-kinds.ts";

/** A row of the messages table as SQLite gives it: `unmatched` a 0 or 1. */
export type MessageRow = Omit<LoggedMessage, "unmatched"> & { seq: number; unmatched: number };

/** The log entry a row of the messages table is. */
export const entryOf = (r: MessageRow): LoggedMessage & { seq: number } => ({ ...r, unmatched: r.unmatched === 1 });

/**
 * Replies to followers, kept in the message log beside what they answer (direction out). The log's
 * pending rows must be committed before asking (MessageLog.settled), so a message that just
 * arrived opens its window.
 */
export class ReplyBook {
  constructor(
    private readonly db: Database,
    readonly limit = DEFAULT_REPLY_LIMIT,
  ) {}

  entry(seq: number): (LoggedMessage & { seq: number }) | null {
    const r = this.db.query("SELECT * FROM messages WHERE seq = ?").get(seq) as MessageRow | null;
    return r ? entryOf(r) : null;
  }

  before(seq: number, openid: string, since: string): (LoggedMessage & { seq: number }) | null {
    // Through the time index: the rows of the window only, however long the log (by seq alone, a
    // follower with no earlier message would have read the log back to its start).
    const r = this.db
      .query("SELECT * FROM messages INDEXED BY messages_received WHERE received_at >= ? AND seq < ? AND from_user = ? AND direction = 'in' ORDER BY received_at DESC, seq DESC LIMIT 1")
      .get(since, seq, openid) as MessageRow | null;
    return r ? entryOf(r) : null;
  }

  after(seq: number, openid: string, since: string, until: string): (LoggedMessage & { seq: number }) | null {
    // Through the time index, as `before`: the rows of the window only (by seq alone, a follower who
    // never wrote again would have read the log on to its end).
    const r = this.db
      .query("SELECT * FROM messages INDEXED BY messages_received WHERE received_at >= ? AND received_at <= ? AND seq > ? AND from_user = ? AND direction = 'in' ORDER BY received_at, seq LIMIT 1")
      .get(since, until, seq, openid) as MessageRow | null;
    return r ? entryOf(r) : null;
  }

  window(openid: string, nowMs: number): ReplyWindow {
    // The follower's last interaction, as the log writer keeps it (follower-log.ts: OPENING_EVENTS).
    const last = this.db.query("SELECT last_seq AS seq, last_at AS received_at FROM followers WHERE openid = ?").get(openid) as { seq: number; received_at: string } | null;
    if (!last) return windowOf(null, 0, nowMs, this.limit);
    const sent = (this.db.query("SELECT count(*) AS n FROM messages WHERE from_user = ? AND direction = 'out' AND seq > ?").get(openid, last.seq) as { n: number }).n;
    return windowOf(last.received_at, sent, nowMs, this.limit);
  }

  /**
   * Logs a reply that was sent and marks what it answered: the inbox entry named, or else every
   * unanswered unmatched message of the follower's open window. Answers the reply's log entry.
   */
  record(r: NewReply): number {
    const at = new Date(r.nowMs).toISOString();
    return this.db
      .transaction(() => {
        const seq = Number(
          this.db
            .query(
              "INSERT INTO messages (received_at, msg_key, from_user, type, event, content, answer, unmatched, direction, sent_by, reply_to) VALUES (?, ?, ?, ?, NULL, ?, 'reply', 0, 'out', ?, ?)",
            )
            .run(at, `out:${crypto.randomUUID()}`, r.openid, r.type, r.content, r.sentBy, r.replyTo).lastInsertRowid,
        );
        // Counted with the quarter hour's messages (store/log-kinds.ts): a report reads the sends there.
        this.db.run("INSERT INTO log_counts (period, kind, n) VALUES (?, ?, 1) ON CONFLICT(period, kind) DO UPDATE SET n = n + 1", [periodOf(at), kindOf("out", "reply", false, r.sentBy)]);
        if (r.answers === false) return seq;
        if (r.replyTo !== null) this.db.run("UPDATE messages SET answered_at = ? WHERE seq = ? AND answered_at IS NULL", [at, r.replyTo]);
        else {
          // The unmatched messages of the last 48 hours, walked in the inbox's own index from the
          // first message of that time on: no index of senders on the log's write path.
          const from = this.db.query("SELECT seq FROM messages WHERE received_at >= ? ORDER BY received_at LIMIT 1").get(new Date(r.nowMs - REPLY_WINDOW_MS).toISOString()) as {
            seq: number;
          } | null;
          if (from)
            this.db.run(
              "UPDATE messages INDEXED BY messages_unmatched SET answered_at = ? WHERE unmatched = 1 AND seq >= ? AND seq < ? AND from_user = ? AND direction = 'in' AND answered_at IS NULL",
              [at, from.seq, seq, r.openid],
            );
        }
        return seq;
      })
      .immediate();
  }
}
