import type { Database } from "bun:sqlite";
import type { LoggedMessage } from "./messages.ts";

/** The platform lets an account message a follower for 48 hours after the follower's last interaction. */
export const REPLY_WINDOW_MS = 48 * 3_600_000;
/** How many messages it allows per interaction, in today's documentation (--reply-limit). */
export const DEFAULT_REPLY_LIMIT = 5;

export interface ReplyWindow {
  open: boolean;
  /** The follower's last interaction, which opened the window. */
  opened_at: string | null;
  until: string | null;
  /** Replies sent since it opened, and how many more the platform allows. */
  sent: number;
  left: number;
  /** Why it is closed: the 48 hours are over (or nothing is known), or the count is spent; and in one line. */
  closed?: "window_closed" | "reply_limit";
  reason?: string;
}

export interface NewReply {
  openid: string;
  type: "text" | "news";
  /** What was said, for the log: the text, or the article's code and title. */
  content: string;
  sentBy: string;
  /** The inbox entry answered, or null when the reply went to the follower directly. */
  replyTo: number | null;
  nowMs: number;
}

/** The window a follower's last interaction (`openedAt`; null: none logged) and the replies since leave open. The same on every store. */
export function windowOf(openedAt: string | null, sent: number, nowMs: number, limit: number): ReplyWindow {
  if (openedAt === null)
    return { open: false, opened_at: null, until: null, sent: 0, left: 0, closed: "window_closed", reason: "no message from this follower is in the log: the platform allows replies only for 48 hours after the follower writes" };
  const until = Date.parse(openedAt) + REPLY_WINDOW_MS;
  const base = { opened_at: openedAt, until: new Date(until).toISOString(), sent, left: Math.max(0, limit - sent) };
  if (nowMs >= until) return { ...base, open: false, left: 0, closed: "window_closed", reason: `the 48-hour reply window closed at ${base.until} (the follower's last message was at ${openedAt}); it opens again when they write` };
  if (sent >= limit)
    return { ...base, open: false, closed: "reply_limit", reason: `the ${limit} replies allowed since the follower's last message (at ${openedAt}) are spent; it opens again when they write` };
  return { ...base, open: true };
}

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
    const r = this.db.query("SELECT * FROM messages WHERE seq = ?").get(seq) as (Omit<LoggedMessage, "unmatched"> & { seq: number; unmatched: number }) | null;
    return r ? { ...r, unmatched: r.unmatched === 1 } : null;
  }

  window(openid: string, nowMs: number): ReplyWindow {
    // The follower's last interaction, as the log writer keeps it (logwriter.ts: OPENING_EVENTS).
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
