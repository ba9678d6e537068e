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
import { LISTED, MAX_UNWRITTEN, OPENING_EVENTS, type LoggedMessage, type NewMessage, REPLY_WINDOW_MS, type NewReply, type ReplyWindow, DEFAULT_REPLY_LIMIT, windowOf } from "../follower-log.ts";
import { AGAIN_MS, asks, asksAbout, CHOSEN_KINDS, CLOSE_MARGIN, kindOf, periodOf, replyBucket } from "../log-kinds.ts";

const BATCH = 2000;
const OPENING_SET = new Set<string>(OPENING_EVENTS);

type Row = Omit<LoggedMessage, "unmatched"> & { seq: string | number; unmatched: boolean };
const entryOf = (r: Row): LoggedMessage & { seq: number } => ({
  ...r,
  seq: Number(r.seq),
  reply_to: r.reply_to === null ? null : Number(r.reply_to),
  again_of: r.again_of === null ? null : Number(r.again_of),
});

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
  /** The next try after the database refused a batch: messages arriving meanwhile wait for it rather than try again each. */
  private retry: ReturnType<typeof setTimeout> | null = null;
  dropped = 0;
  /** The last failure to write, while it lasts; null once a batch went through. */
  lastError: string | null = null;

  private readonly onError: (message: string) => void;
  private readonly onInfo: (message: string) => void;
  private readonly maxUnwritten: number;
  private readonly flushAfterMs: number;
  private readonly maxQueue: number;

  constructor(
    private readonly sql: SQL,
    opts: { onError?: (message: string) => void; onInfo?: (message: string) => void; maxUnwritten?: number; flushAfterMs?: number; maxQueue?: number } = {},
  ) {
    this.onError = opts.onError ?? (() => {});
    this.onInfo = opts.onInfo ?? this.onError;
    this.maxUnwritten = opts.maxUnwritten ?? MAX_UNWRITTEN;
    this.flushAfterMs = opts.flushAfterMs ?? 10;
    this.maxQueue = opts.maxQueue ?? 256;
  }

  add(m: NewMessage): void {
    if (this.queue.length >= this.maxUnwritten) {
      if (this.dropped === 0)
        this.onError(`message log: ${this.maxUnwritten} messages wait for the database; further ones are answered but not logged (counted in health) until it is back`);
      this.dropped++;
      return;
    }
    this.queue.push(m);
    if (this.writing || this.retry) return;
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
        this.retry = setTimeout(() => {
          this.retry = null;
          this.retryMs = Math.max(this.retryMs, 1);
          this.start();
        }, this.retryMs);
        return;
      }
      this.queue.splice(0, batch.length);
      if (this.lastError !== null) this.onInfo(`message log: the database takes messages again; writing the ${batch.length + this.queue.length} that waited`);
      this.lastError = null;
      this.retryMs = 0;
    }
  }

  /** Each follower's last interaction as the followers table has it (its seq and text), for those of `batch` who may ask again. */
  private async lastTexts(batch: NewMessage[]): Promise<Map<string, { seq: string; text: string | null }>> {
    const who = [...new Set(batch.filter((m) => asks(m.type, m.content)).map((m) => m.from_user))];
    if (!who.length) return new Map();
    const rows = (await this.sql.unsafe(
      "SELECT f.openid, f.last_seq::text AS seq, m.content FROM followers f JOIN messages m ON m.seq = f.last_seq WHERE f.openid = ANY(string_to_array($1, chr(1)))",
      [who.join("\u0001")],
    )) as { openid: string; seq: string; content: string | null }[];
    return new Map(rows.map((r) => [r.openid, { seq: r.seq, text: r.content }]));
  }

  private async write(batch: NewMessage[]): Promise<void> {
    // Each follower's rows in the batch so far, and how many back the last opening one is. A message
    // twice in the batch is logged (and counted) once, as the first.
    const seen = new Map<string, { rows: number; opening: number | null; text: string | null }>();
    const keys = new Set<string>();
    const unique = batch.filter((m) => !keys.has(m.msg_key) && keys.add(m.msg_key));
    // What the followers said last before this batch, for the texts that may ask it again (log-kinds.ts asksAbout).
    const before = await this.lastTexts(unique);
    const rows = unique.map((m, i) => {
      const received_at = isoTime(m.received_ms);
      const opening = m.type !== "event" || OPENING_SET.has(m.event ?? "");
      const mine = seen.get(m.from_user) ?? { rows: 0, opening: null, text: null };
      const prev_back = mine.opening === null ? null : mine.rows - mine.opening;
      const last = prev_back === null ? before.get(m.from_user) : undefined;
      const prevText = prev_back === null ? (last?.text ?? null) : mine.text;
      seen.set(m.from_user, { rows: mine.rows + 1, opening: opening ? mine.rows : mine.opening, text: opening ? (m.content ?? null) : mine.text });
      return {
        i,
        received_at,
        msg_key: m.msg_key,
        from_user: m.from_user,
        type: m.type,
        event: m.event,
        content: m.content,
        answer: m.answer,
        unmatched: m.unmatched,
        reply_ms: m.reply_ms ?? null,
        margin: m.margin ?? null,
        // What a report counts (store/log-kinds.ts), decided here as the SQLite writer decides it.
        kind: kindOf("in", m.answer, m.unmatched, null),
        period: periodOf(received_at),
        bucket: m.reply_ms === null || m.reply_ms === undefined ? null : replyBucket(m.reply_ms),
        close: m.margin !== null && m.margin !== undefined && m.margin >= CLOSE_MARGIN,
        opening,
        asks: asks(m.type, m.content) && asksAbout(m.content as string, prevText),
        prev_back,
        // The interaction whose text was compared: another instance's message logged since is not it.
        prev_seq: last?.seq ?? null,
        // A previous interaction at or after this time is recent enough to be asked again after.
        again_from: isoTime(Date.parse(received_at) - AGAIN_MS),
      };
    });
    // One statement, planned without joins (the planner cannot know a batch's size: joined, a batch
    // of 2,000 took two seconds). The rows not logged yet (looked up one by one in the msg_key
    // index) take their seq first, so that a follower's text can name the message it asks again
    // after: their previous opening interaction, prev_back rows back in the batch, else as the
    // followers table has it — while it is still the one whose text was compared (prev_seq).
    // Then each follower's last interaction moves forward only and the
    // quarter hours' counts grow, written in key order so that two instances' batches lock their
    // rows in the same order. A message another instance logs at the same moment is counted by both.
    await this.sql.unsafe(
      `WITH r AS (SELECT * FROM json_to_recordset($1::text::json) AS r(i integer, received_at text, msg_key text, from_user text, type text, event text, content text, answer text, unmatched boolean,
                    reply_ms integer, margin double precision, kind text, period text, bucket integer, close boolean, opening boolean, asks boolean, prev_back integer, prev_seq bigint, again_from text)),
            n AS (SELECT r.*, nextval('messages_seq_seq') AS seq, (SELECT false FROM messages m WHERE m.msg_key = r.msg_key LIMIT 1) IS NULL AS fresh FROM r ORDER BY i),
            x AS (SELECT n.*, CASE WHEN NOT n.asks THEN NULL
                                   WHEN n.prev_back IS NOT NULL THEN
                                     CASE WHEN lag(n.kind, n.prev_back) OVER f = ANY($2::text[]) AND lag(n.received_at, n.prev_back) OVER f >= n.again_from
                                               AND lag(n.received_at, n.prev_back) OVER f <= n.received_at THEN lag(n.seq, n.prev_back) OVER f END
                                   ELSE (SELECT fo.last_seq FROM followers fo WHERE fo.openid = n.from_user AND fo.last_seq = n.prev_seq AND fo.last_kind = ANY($2::text[]) AND fo.last_at >= n.again_from AND fo.last_at <= n.received_at)
                              END AS again_of
                  FROM n WINDOW f AS (PARTITION BY n.from_user ORDER BY n.i)),
            ins AS (INSERT INTO messages (seq, received_at, msg_key, from_user, type, event, content, answer, unmatched, reply_ms, margin, again_of)
                    SELECT seq, received_at, msg_key, from_user, type, event, content, answer, unmatched, reply_ms, margin, again_of FROM x WHERE fresh ORDER BY i
                    ON CONFLICT (msg_key) DO NOTHING),
            fol AS (INSERT INTO followers (openid, last_seq, last_at, last_kind)
                    SELECT DISTINCT ON (from_user) from_user, seq, received_at, kind FROM x WHERE fresh AND opening ORDER BY from_user, i DESC
                    ON CONFLICT (openid) DO UPDATE SET last_seq = excluded.last_seq, last_at = excluded.last_at, last_kind = excluded.last_kind WHERE excluded.last_seq > followers.last_seq),
            counted AS (INSERT INTO log_counts (period, kind, n, close, again)
                    SELECT period, kind, count(*), count(*) FILTER (WHERE close), count(again_of) FROM x WHERE fresh GROUP BY period, kind ORDER BY period, kind
                    ON CONFLICT (period, kind) DO UPDATE SET n = log_counts.n + excluded.n, close = log_counts.close + excluded.close, again = log_counts.again + excluded.again)
       INSERT INTO log_reply_ms (period, ms, n)
       SELECT period, bucket, count(*) FROM x WHERE fresh AND bucket IS NOT NULL GROUP BY period, bucket ORDER BY period, bucket
       ON CONFLICT (period, ms) DO UPDATE SET n = log_reply_ms.n + excluded.n`,
      [JSON.stringify(rows), CHOSEN_KINDS],
    );
  }

  /** Resolves once every message added so far is written; rejects after `timeoutMs` (the database is away). */
  async settled(timeoutMs = 10_000): Promise<void> {
    const until = performance.now() + timeoutMs;
    while (this.queue.length) {
      if (!this.writing && !this.retry) this.start();
      if (performance.now() > until) throw new Error(`${this.queue.length} messages are not written yet: ${this.lastError ?? "the database is slow"}`);
      // Waiting for the next try (this.writing null): a sleep, so that its timer can run.
      await (this.writing ? Promise.race([this.writing, Bun.sleep(50)]) : Bun.sleep(50));
    }
  }

  async list(opts: { only: "unmatched" | "lists" | null; limit: number; offset: number }): Promise<{ items: (LoggedMessage & { seq: number })[]; total: number }> {
    await this.settled();
    const where = opts.only === "unmatched" ? "WHERE unmatched" : opts.only === "lists" ? `WHERE ${LISTED.postgres}` : "";
    const [{ n }] = (await this.sql.unsafe(`SELECT count(*)::int AS n FROM messages ${where}`)) as [{ n: number }];
    const rows = (await this.sql.unsafe(`SELECT *, seq::text AS seq, reply_to::text AS reply_to, again_of::text AS again_of FROM messages ${where} ORDER BY messages.seq DESC LIMIT $1 OFFSET $2`, [opts.limit, opts.offset])) as Row[];
    return { items: rows.map(entryOf), total: n };
  }

  async newest(limit: number): Promise<(LoggedMessage & { seq: number })[]> {
    await this.settled();
    const rows = (await this.sql.unsafe("SELECT *, seq::text AS seq, reply_to::text AS reply_to, again_of::text AS again_of FROM messages ORDER BY messages.seq DESC LIMIT $1", [limit])) as Row[];
    return rows.map(entryOf);
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
      // And what a report reads of them: the quarter hours before the one the cutoff falls in.
      await tx`DELETE FROM log_counts WHERE period < ${periodOf(cutoff)}`;
      await tx`DELETE FROM log_reply_ms WHERE period < ${periodOf(cutoff)}`;
      await tx`DELETE FROM send_failures WHERE at < ${cutoff}`;
      const [{ t: newest }] = (await tx`SELECT max(received_at) AS t FROM messages`) as [{ t: string | null }];
      return { removed: n, removedCalls: c, newest };
    });
  }

  /** Replies to followers (replies.ts), kept in the same log. */
  async entry(seq: number): Promise<(LoggedMessage & { seq: number }) | null> {
    const [row] = (await this.sql`SELECT *, seq::text AS seq, reply_to::text AS reply_to, again_of::text AS again_of FROM messages WHERE messages.seq = ${seq}`) as Row[];
    return row ? entryOf(row) : null;
  }

  async before(seq: number, openid: string, since: string): Promise<(LoggedMessage & { seq: number }) | null> {
    const [row] = (await this.sql`SELECT *, seq::text AS seq, reply_to::text AS reply_to, again_of::text AS again_of FROM messages
      WHERE messages.received_at >= ${since} AND messages.seq < ${seq} AND from_user = ${openid} AND direction = 'in' ORDER BY messages.received_at DESC, messages.seq DESC LIMIT 1`) as Row[];
    return row ? entryOf(row) : null;
  }

  async after(seq: number, openid: string, since: string, until: string): Promise<(LoggedMessage & { seq: number }) | null> {
    const [row] = (await this.sql`SELECT *, seq::text AS seq, reply_to::text AS reply_to, again_of::text AS again_of FROM messages
      WHERE messages.received_at >= ${since} AND messages.received_at <= ${until} AND messages.seq > ${seq} AND from_user = ${openid} AND direction = 'in'
      ORDER BY messages.received_at, messages.seq LIMIT 1`) as Row[];
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
      // Counted with the quarter hour's messages (store/log-kinds.ts): a report reads the sends there.
      await tx`INSERT INTO log_counts (period, kind, n) VALUES (${periodOf(at)}, ${kindOf("out", "reply", false, r.sentBy)}, 1) ON CONFLICT (period, kind) DO UPDATE SET n = log_counts.n + 1`;
      if (r.answers === false) return Number(seq);
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
    } finally {
      if (this.retry) clearTimeout(this.retry);
      this.retry = null;
    }
  }
}
