/**
 * The follower message log on PostgreSQL, with the SQLite log's semantics (messages.ts, replies.ts):
 * messages are queued and written in batches (every 10 ms or 256 messages), one statement per batch
 * that also moves each follower's last interaction (reply windows). The event loop only hands a
 * batch to the client.
 *
 * When the database cannot be reached the batches stay queued, in order, and are written when it
 * answers again (tried every 200 ms to 5 s); the queue is bounded (MAX_UNWRITTEN messages): past it
 * new messages are answered but counted as dropped, not kept (health shows both numbers).
 */
import type { SQL } from "bun";
import { MAX_UNWRITTEN, OPENING_EVENTS, type LoggedMessage, type NewMessage, REPLY_WINDOW_MS, type NewReply, type ReplyWindow, DEFAULT_REPLY_LIMIT, windowOf } from "../follower-log.ts";

const BATCH = 2000;
const OPENING = `ARRAY[${OPENING_EVENTS.map((e) => `'${e}'`).join(",")}]`;

type Row = Omit<LoggedMessage, "unmatched"> & { seq: string | number; unmatched: boolean };
const entryOf = (r: Row): LoggedMessage & { seq: number } => ({ ...r, seq: Number(r.seq), reply_to: r.reply_to === null ? null : Number(r.reply_to) });

// A time that cannot be formatted must not fail the row: it is logged with the time it was written.
const isoTime = (ms: number) => {
  const at = new Date(ms);
  return (Number.isNaN(at.getTime()) ? new Date() : at).toISOString();
};

export class PgMessageLog {
  private queue: NewMessage[] = [];
  private writing: Promise<void> | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private retryMs = 0;
  dropped = 0;
  /** The last failure to write, while it lasts; null once a batch went through. */
  lastError: string | null = null;

  constructor(
    private readonly sql: SQL,
    private readonly onError: (message: string) => void = () => {},
    private readonly maxUnwritten = MAX_UNWRITTEN,
    private readonly flushAfterMs = 10,
    private readonly maxQueue = 256,
  ) {}

  add(m: NewMessage): void {
    if (this.queue.length >= this.maxUnwritten) {
      if (this.dropped === 0)
        this.onError(`message log: ${this.maxUnwritten} messages wait for the database; further ones are answered but not logged (counted in health) until it is back`);
      this.dropped++;
      return;
    }
    this.queue.push(m);
    if (this.writing) return;
    if (this.queue.length >= this.maxQueue) this.start();
    else this.timer ??= setTimeout(() => this.start(), this.flushAfterMs);
  }

  /** Messages waiting to be written, and those not logged because that queue was full. */
  get backlog(): { unwritten: number; dropped: number } {
    return { unwritten: this.queue.length, dropped: this.dropped };
  }

  private start(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.writing ??= this.drain().finally(() => {
      this.writing = null;
      if (this.queue.length && !this.retryMs) this.start();
    });
  }

  /** Writes batches from the head of the queue until it is empty, or until the database refuses. */
  private async drain(): Promise<void> {
    while (this.queue.length) {
      const batch = this.queue.slice(0, BATCH);
      try {
        await this.write(batch);
      } catch (e) {
        this.lastError = (e as Error).message;
        this.retryMs = Math.min(5000, Math.max(200, this.retryMs * 2));
        this.onError(`message log: ${this.queue.length} messages could not be written yet (${this.lastError}); trying again in ${this.retryMs} ms`);
        setTimeout(() => {
          this.retryMs = Math.max(this.retryMs, 1);
          this.start();
        }, this.retryMs);
        return;
      }
      this.queue.splice(0, batch.length);
      this.lastError = null;
      this.retryMs = 0;
    }
  }

  private async write(batch: NewMessage[]): Promise<void> {
    const rows = batch.map((m, i) => ({
      i,
      received_at: isoTime(m.received_ms),
      msg_key: m.msg_key,
      from_user: m.from_user,
      type: m.type,
      event: m.event,
      content: m.content,
      answer: m.answer,
      unmatched: m.unmatched,
    }));
    // A message sent again (the same msg_key) is logged once; each follower's last interaction moves forward only.
    await this.sql.unsafe(
      `WITH r AS (SELECT * FROM json_to_recordset($1::text::json) AS r(i integer, received_at text, msg_key text, from_user text, type text, event text, content text, answer text, unmatched boolean)),
            ins AS (INSERT INTO messages (received_at, msg_key, from_user, type, event, content, answer, unmatched)
                    SELECT received_at, msg_key, from_user, type, event, content, answer, unmatched FROM r ORDER BY i
                    ON CONFLICT (msg_key) DO NOTHING RETURNING seq, from_user, received_at, type, event)
       INSERT INTO followers (openid, last_seq, last_at)
       SELECT DISTINCT ON (from_user) from_user, seq, received_at FROM ins WHERE type <> 'event' OR event = ANY(${OPENING}) ORDER BY from_user, seq DESC
       ON CONFLICT (openid) DO UPDATE SET last_seq = excluded.last_seq, last_at = excluded.last_at WHERE excluded.last_seq > followers.last_seq`,
      [JSON.stringify(rows)],
    );
  }

  /** Resolves once every message added so far is written; rejects after `timeoutMs` (the database is away). */
  async settled(timeoutMs = 10_000): Promise<void> {
    const until = performance.now() + timeoutMs;
    while (this.queue.length) {
      if (!this.writing) this.start();
      if (performance.now() > until) throw new Error(`${this.queue.length} messages are not written yet: ${this.lastError ?? "the database is slow"}`);
      await Promise.race([this.writing, Bun.sleep(50)]);
    }
  }

  async list(opts: { unmatchedOnly: boolean; limit: number; offset: number }): Promise<{ items: (LoggedMessage & { seq: number })[]; total: number }> {
    await this.settled();
    const where = opts.unmatchedOnly ? "WHERE unmatched" : "";
    const [{ n }] = (await this.sql.unsafe(`SELECT count(*)::int AS n FROM messages ${where}`)) as [{ n: number }];
    const rows = (await this.sql.unsafe(`SELECT *, seq::text AS seq, reply_to::text AS reply_to FROM messages ${where} ORDER BY messages.seq DESC LIMIT $1 OFFSET $2`, [opts.limit, opts.offset])) as Row[];
    return { items: rows.map(entryOf), total: n };
  }

  /** As the SQLite log (messages.ts): messages and model calls more than `days` older than `nowMs` go, in one transaction. */
  async prune(days: number, nowMs: number): Promise<{ removed: number; removedCalls: number; newest: string | null }> {
    await this.settled();
    const cutoff = new Date(nowMs - days * 86_400_000).toISOString();
    return this.sql.begin(async (tx) => {
      const [{ n }] = (await tx`WITH gone AS (DELETE FROM messages WHERE received_at < ${cutoff} RETURNING 1) SELECT count(*)::int AS n FROM gone`) as [{ n: number }];
      await tx`DELETE FROM followers WHERE last_at < ${cutoff}`;
      // The model calls' log is kept as long as the messages it answered.
      const [{ c }] = (await tx`WITH gone AS (DELETE FROM generated WHERE at < ${cutoff} RETURNING 1) SELECT count(*)::int AS c FROM gone`) as [{ c: number }];
      const [{ t: newest }] = (await tx`SELECT max(received_at) AS t FROM messages`) as [{ t: string | null }];
      return { removed: n, removedCalls: c, newest };
    });
  }

  /** Replies to followers (replies.ts), kept in the same log. */
  async entry(seq: number): Promise<(LoggedMessage & { seq: number }) | null> {
    const [row] = (await this.sql`SELECT *, seq::text AS seq, reply_to::text AS reply_to FROM messages WHERE messages.seq = ${seq}`) as Row[];
    return row ? entryOf(row) : null;
  }

  async window(openid: string, nowMs: number, limit = DEFAULT_REPLY_LIMIT): Promise<ReplyWindow> {
    const [last] = (await this.sql`SELECT last_seq::text AS seq, last_at AS received_at FROM followers WHERE openid = ${openid}`) as { seq: string; received_at: string }[];
    if (!last) return windowOf(null, 0, nowMs, limit);
    const [{ n }] = (await this.sql`SELECT count(*)::int AS n FROM messages WHERE from_user = ${openid} AND direction = 'out' AND seq > ${last.seq}::bigint`) as [{ n: number }];
    return windowOf(last.received_at, n, nowMs, limit);
  }

  /** Logs a reply that was sent and marks what it answered (replies.ts ReplyBook.record). */
  async record(r: NewReply): Promise<number> {
    const at = new Date(r.nowMs).toISOString();
    return this.sql.begin(async (tx) => {
      const [{ seq }] = (await tx`INSERT INTO messages (received_at, msg_key, from_user, type, event, content, answer, unmatched, direction, sent_by, reply_to)
        VALUES (${at}, ${`out:${crypto.randomUUID()}`}, ${r.openid}, ${r.type}, NULL, ${r.content}, 'reply', false, 'out', ${r.sentBy}, ${r.replyTo})
        RETURNING seq::text AS seq`) as [{ seq: string }];
      if (r.replyTo !== null) await tx`UPDATE messages SET answered_at = ${at} WHERE seq = ${r.replyTo} AND answered_at IS NULL`;
      else
        await tx`UPDATE messages SET answered_at = ${at} WHERE unmatched AND from_user = ${r.openid} AND direction = 'in' AND answered_at IS NULL
                 AND received_at >= ${new Date(r.nowMs - REPLY_WINDOW_MS).toISOString()} AND seq < ${seq}::bigint`;
      return Number(seq);
    });
  }

  /** Writes what is queued, waiting up to `waitMs`; answers how many messages could not be written (lost: there is no disk to keep them on). */
  async close(waitMs = 10_000): Promise<{ unwritten: number; error: string | null }> {
    try {
      await this.settled(waitMs);
      return { unwritten: 0, error: null };
    } catch (e) {
      return { unwritten: this.queue.length, error: (e as Error).message };
    }
  }
}
