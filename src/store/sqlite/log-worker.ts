/**
 * The message log's writer thread (logwriter.ts hands it batches; the stores of a process share it,
 * log-thread.ts): a SQLite connection per store, one transaction per batch, the batch's sequence
 * number published through shared memory once it is committed. A batch it cannot write (a full
 * disk, another connection's lock) is kept and retried every 200 ms (a lock is reported once held
 * over a minute); a row SQLite refuses is dropped and reported, the rest of its batch kept.
 */
import { Database, type Statement } from "bun:sqlite";
import { refuseMainThread } from "../../base/worker-only.ts";
import { OPENING_EVENTS } from "../follower-log.ts";
import { againOf, asks, CLOSE_MARGIN, kindOf, periodOf, replyBucket, type PreviousInteraction } from "../log-kinds.ts";
import { ROW_WIDTH, type LogBatch } from "./log-rows.ts";
import type { LogThreadMessage, LogThreadReport, LogWorkerReport } from "./log-protocol.ts";

declare const self: Worker;

refuseMainThread("src/store/sqlite/log-worker.ts");

const OPENING = new Set<string>(OPENING_EVENTS);

/** A store's log: its connection, statements, queue and committed counter (the stores of a process share this thread, log-thread.ts). */
interface Channel {
  ch: number;
  path: string;
  committed: Int32Array;
  queue: LogBatch[];
  retrying: boolean;
  /** When its batches first found the database locked, for as long as they still do. */
  busySince: number | null;
  closed: boolean;
  conn: Connection | null;
}
interface Connection {
  db: Database;
  insert: Statement;
  follower: Statement;
  previous: Statement;
  countKind: Statement;
  countReplyMs: Statement;
}
const channels = new Map<number, Channel>();

const report = (c: Channel, r: LogWorkerReport) => self.postMessage({ ch: c.ch, report: r } satisfies LogThreadReport);
const codeOf = (e: unknown) => String((e as { code?: unknown })?.code ?? "");
const messageOf = (e: unknown) => String((e as Error)?.message ?? e);

/**
 * How long a write waits for another connection's lock (a long import or restore) before the batch
 * is retried later: short, as the thread is every store's; while one store's lock is held the
 * others' batches are still written between its retries.
 */
const BUSY_MS = 250;

function open(at: string): Connection {
  const db = new Database(at, { strict: true });
  db.exec(`PRAGMA busy_timeout = ${BUSY_MS}`);
  // The log must survive a crash of the process (WAL with synchronous=NORMAL does); an fsync per
  // batch for power cuts is what admin writes pay, not follower traffic.
  db.exec("PRAGMA synchronous = NORMAL");
  return {
    db,
    insert: db.query(
      "INSERT OR IGNORE INTO messages (received_at, msg_key, from_user, type, event, content, answer, unmatched, reply_ms, margin, again_of) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    ),
    // Each follower's last interaction, for reply windows and to see them asking again: one row per
    // follower, written once per batch (an index on the log's sender would cost every message another
    // B-tree insert), read for a follower's first text in a batch.
    follower: db.query(
      "INSERT INTO followers (openid, last_seq, last_at, last_kind) VALUES (?, ?, ?, ?) ON CONFLICT(openid) DO UPDATE SET last_seq = excluded.last_seq, last_at = excluded.last_at, last_kind = excluded.last_kind WHERE excluded.last_seq > followers.last_seq",
    ),
    previous: db.query("SELECT f.last_seq AS seq, f.last_at AS at, f.last_kind AS kind, m.content AS text FROM followers f LEFT JOIN messages m ON m.seq = f.last_seq WHERE f.openid = ?"),
    // The quarter hours' counts a report reads (store/log-kinds.ts), once per period and kind per batch.
    countKind: db.query(
      "INSERT INTO log_counts (period, kind, n, close, again) VALUES (?, ?, ?, ?, ?) ON CONFLICT(period, kind) DO UPDATE SET n = n + excluded.n, close = close + excluded.close, again = again + excluded.again",
    ),
    countReplyMs: db.query("INSERT INTO log_reply_ms (period, ms, n) VALUES (?, ?, ?) ON CONFLICT(period, ms) DO UPDATE SET n = n + excluded.n"),
  };
}

/** A time that cannot be formatted must not fail the row: the row is kept with the time it was written. */
function isoTime(ms: unknown): string {
  const at = typeof ms === "number" ? new Date(ms) : null;
  return (at && !Number.isNaN(at.getTime()) ? at : new Date()).toISOString();
}

type Row = (string | number | boolean | null)[];

/** What a batch's transaction gathers: each follower's last interaction, and the counts to add. */
interface BatchState {
  last: Map<string, PreviousInteraction>;
  kinds: Map<string, { period: string; kind: string; n: number; close: number; again: number }>;
  replyMs: Map<string, { period: string; ms: number; n: number }>;
}
const newBatch = (): BatchState => ({ last: new Map(), kinds: new Map(), replyMs: new Map() });

const num = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);

function put(c: Connection, rows: Row, i: number, batch: BatchState): void {
  const ms = typeof rows[i] === "number" ? (rows[i] as number) : NaN;
  const at = isoTime(rows[i]);
  const from = String(rows[i + 2]);
  const [type, event, content, answer] = [String(rows[i + 3]), rows[i + 4] ?? null, rows[i + 5] ?? null, String(rows[i + 6])];
  const unmatched = rows[i + 7] ? 1 : 0;
  const replyMs = num(rows[i + 8]);
  const margin = num(rows[i + 9]);
  // The follower's previous interaction: earlier in this batch, else as the followers table has it.
  const before = asks(type, content) ? (batch.last.get(from) ?? (c.previous.get(from) as PreviousInteraction | null)) : null;
  const again = againOf(type, content, Number.isNaN(ms) ? Date.parse(at) : ms, before);
  const r = c.insert.run(at, rows[i + 1] ?? null, rows[i + 2] ?? null, rows[i + 3] ?? null, event, content, rows[i + 6] ?? null, unmatched, replyMs, margin, again);
  if (!r.changes) return;
  const kind = kindOf("in", answer, unmatched === 1, null);
  if (type !== "event" || OPENING.has(String(event))) batch.last.set(from, { seq: Number(r.lastInsertRowid), at, kind, text: typeof content === "string" ? content : null });
  const period = periodOf(at);
  const k = `${period} ${kind}`;
  let counted = batch.kinds.get(k);
  if (!counted) batch.kinds.set(k, (counted = { period, kind, n: 0, close: 0, again: 0 }));
  counted.n++;
  if (margin !== null && margin >= CLOSE_MARGIN) counted.close++;
  if (again !== null) counted.again++;
  if (replyMs === null) return;
  const bucket = replyBucket(replyMs);
  const b = `${period} ${bucket}`;
  let timed = batch.replyMs.get(b);
  if (!timed) batch.replyMs.set(b, (timed = { period, ms: bucket, n: 0 }));
  timed.n++;
}

function putBatch(conn: Connection, batch: BatchState): void {
  for (const [openid, p] of batch.last) conn.follower.run(openid, p.seq, p.at, p.kind);
  for (const c of batch.kinds.values()) conn.countKind.run(c.period, c.kind, c.n, c.close, c.again);
  for (const c of batch.replyMs.values()) conn.countReplyMs.run(c.period, c.ms, c.n);
}

/** A row SQLite or the binding refuses fails the same way on every retry: only such rows are dropped. */
function refusesRow(e: unknown): boolean {
  const code = codeOf(e);
  return code.startsWith("SQLITE_CONSTRAINT") || code === "SQLITE_MISMATCH" || code === "SQLITE_TOOBIG" || e instanceof TypeError || e instanceof RangeError;
}

function retryLater(c: Channel): void {
  if (c.retrying) return;
  c.retrying = true;
  setTimeout(() => {
    c.retrying = false;
    if (!c.closed) drain(c);
  }, 200);
}

const busy = (e: unknown) => codeOf(e).startsWith("SQLITE_BUSY");

function drain(c: Channel): void {
  // Not open (the database could not be opened, or its table prepared): keep the batches and retry.
  if (!c.conn) {
    try {
      c.conn = open(c.path);
    } catch (e) {
      report(c, { error: `cannot open the message log: ${messageOf(e)}`, code: codeOf(e), retrying: true });
      return retryLater(c);
    }
  }
  const conn = c.conn;
  while (c.queue.length) {
    const { seq, json } = c.queue[0] as LogBatch;
    const rows = JSON.parse(json) as Row;
    try {
      try {
        conn.db.transaction(() => {
          const batch = newBatch();
          for (let i = 0; i < rows.length; i += ROW_WIDTH) put(conn, rows, i, batch);
          putBatch(conn, batch);
        })();
      } catch (e) {
        if (!refusesRow(e)) throw e;
        // Keep every row that can be written; report the ones that cannot, once per batch.
        let dropped = 0;
        let reason = "";
        conn.db.transaction(() => {
          const batch = newBatch();
          for (let i = 0; i < rows.length; i += ROW_WIDTH)
            try {
              put(conn, rows, i, batch);
            } catch (rowError) {
              if (!refusesRow(rowError)) throw rowError;
              dropped++;
              reason ||= messageOf(rowError);
            }
          putBatch(conn, batch);
        })();
        if (dropped) report(c, { error: `${dropped} message(s) could not be logged: ${reason}` });
      }
    } catch (e) {
      // Another connection's lock (an import): waited out between retries, reported once held a minute.
      if (busy(e)) c.busySince ??= Date.now();
      if (!busy(e) || Date.now() - (c.busySince as number) > 60_000) report(c, { error: messageOf(e), code: codeOf(e), retrying: true });
      // Disk full, a lock held: keep the batch and try again.
      return retryLater(c);
    }
    c.queue.shift();
    c.busySince = null;
    Atomics.store(c.committed, 0, seq);
    Atomics.notify(c.committed, 0);
  }
}

self.onmessage = (event: MessageEvent<LogThreadMessage>) => {
  const m = event.data;
  if ("exit" in m) {
    for (const c of channels.values()) c.conn?.db.close();
    process.exit(0); // ends this worker only
  }
  if ("open" in m) {
    channels.get(m.ch)?.conn?.db.close();
    const c: Channel = { ch: m.ch, path: m.open, committed: new Int32Array(m.committed), queue: [], retrying: false, busySince: null, closed: false, conn: null };
    channels.set(m.ch, c);
    try {
      c.conn = open(c.path);
    } catch (e) {
      report(c, { error: `cannot open the message log: ${messageOf(e)}`, code: codeOf(e), retrying: true });
    }
    return;
  }
  const c = channels.get(m.ch);
  if (!c) return;
  if ("close" in m) {
    c.closed = true;
    c.conn?.db.close();
    channels.delete(m.ch);
    return;
  }
  c.queue.push(m.batch);
  if (!c.retrying) drain(c);
};
