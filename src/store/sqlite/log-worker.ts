/**
 * The message log's writer thread (logwriter.ts hands it batches): its own SQLite connection,
 * one transaction per batch, the batch's sequence number published through shared memory once it
 * is committed. A batch it cannot write (a full disk, the lock held for over a minute) is kept and
 * retried every 200 ms; a row SQLite refuses is dropped and reported, the rest of its batch kept.
 */
import { Database, type Statement } from "bun:sqlite";
import { OPENING_EVENTS } from "../follower-log.ts";

/** Values per logged row, in the order the insert binds them: received_ms, msg_key, from_user, type, event, content, answer, unmatched. */
export const ROW_WIDTH = 8;

export type LogWorkerRequest = { open: string; committed: SharedArrayBuffer } | LogBatch;
export interface LogBatch {
  seq: number;
  /** The rows, ROW_WIDTH values each, as one JSON string (cheaper to post than 2,000 values). */
  json: string;
  rows: number;
}
export interface LogWorkerReport {
  error: string;
  /** The failure's code (SQLITE_FULL …), when it is being retried. */
  code?: string;
  retrying?: boolean;
}

declare const self: Worker;

const OPENING = new Set<string>(OPENING_EVENTS);
const queue: LogBatch[] = [];
let db: Database | null = null;
let insert: Statement | null = null;
let follower: Statement | null = null;
let committed: Int32Array | null = null;
let path: string | null = null;
let retrying = false;

const report = (r: LogWorkerReport) => self.postMessage(r);
const codeOf = (e: unknown) => String((e as { code?: unknown })?.code ?? "");
const messageOf = (e: unknown) => String((e as Error)?.message ?? e);

function open(at: string): void {
  db = new Database(at, { strict: true });
  // A long import or restore holds the write lock for seconds: wait it out rather than report it.
  db.exec("PRAGMA busy_timeout = 60000");
  // The log must survive a crash of the process (WAL with synchronous=NORMAL does); an fsync per
  // batch for power cuts is what admin writes pay, not follower traffic.
  db.exec("PRAGMA synchronous = NORMAL");
  insert = db.query("INSERT OR IGNORE INTO messages (received_at, msg_key, from_user, type, event, content, answer, unmatched) VALUES (?, ?, ?, ?, ?, ?, ?, ?)");
  // Each follower's last interaction, for reply windows: one row per follower, written once per
  // batch (an index on the log's sender would cost every message another B-tree insert).
  follower = db.query(
    "INSERT INTO followers (openid, last_seq, last_at) VALUES (?, ?, ?) ON CONFLICT(openid) DO UPDATE SET last_seq = excluded.last_seq, last_at = excluded.last_at WHERE excluded.last_seq > followers.last_seq",
  );
}

/** A time that cannot be formatted must not fail the row: the row is kept with the time it was written. */
function isoTime(ms: unknown): string {
  const at = typeof ms === "number" ? new Date(ms) : null;
  return (at && !Number.isNaN(at.getTime()) ? at : new Date()).toISOString();
}

type Row = (string | number | boolean | null)[];

function put(rows: Row, i: number, last: Map<string, [number, string]>): void {
  const at = isoTime(rows[i]);
  const r = (insert as Statement).run(at, rows[i + 1] ?? null, rows[i + 2] ?? null, rows[i + 3] ?? null, rows[i + 4] ?? null, rows[i + 5] ?? null, rows[i + 6] ?? null, rows[i + 7] ?? null);
  if (r.changes && (rows[i + 3] !== "event" || OPENING.has(String(rows[i + 4])))) last.set(String(rows[i + 2]), [Number(r.lastInsertRowid), at]);
}

function putFollowers(last: Map<string, [number, string]>): void {
  for (const [openid, [seq, at]] of last) (follower as Statement).run(openid, seq, at);
}

/** A row SQLite or the binding refuses fails the same way on every retry: only such rows are dropped. */
function refusesRow(e: unknown): boolean {
  const code = codeOf(e);
  return code.startsWith("SQLITE_CONSTRAINT") || code === "SQLITE_MISMATCH" || code === "SQLITE_TOOBIG" || e instanceof TypeError || e instanceof RangeError;
}

function retryLater(): void {
  if (retrying) return;
  retrying = true;
  setTimeout(() => {
    retrying = false;
    drain();
  }, 200);
}

function drain(): void {
  // Not open (the database could not be opened, or its table prepared): keep the batches and retry.
  if (!insert) {
    try {
      open(path as string);
    } catch (e) {
      report({ error: `cannot open the message log: ${messageOf(e)}`, code: codeOf(e), retrying: true });
      return retryLater();
    }
  }
  const conn = db as Database;
  while (queue.length) {
    const { seq, json } = queue[0] as LogBatch;
    const rows = JSON.parse(json) as Row;
    try {
      try {
        conn.transaction(() => {
          const last = new Map<string, [number, string]>();
          for (let i = 0; i < rows.length; i += ROW_WIDTH) put(rows, i, last);
          putFollowers(last);
        })();
      } catch (e) {
        if (!refusesRow(e)) throw e;
        // Keep every row that can be written; report the ones that cannot, once per batch.
        let dropped = 0;
        let reason = "";
        conn.transaction(() => {
          const last = new Map<string, [number, string]>();
          for (let i = 0; i < rows.length; i += ROW_WIDTH)
            try {
              put(rows, i, last);
            } catch (rowError) {
              if (!refusesRow(rowError)) throw rowError;
              dropped++;
              reason ||= messageOf(rowError);
            }
          putFollowers(last);
        })();
        if (dropped) report({ error: `${dropped} message(s) could not be logged: ${reason}` });
      }
    } catch (e) {
      // Disk full, the lock held for over a minute: keep the batch and try again.
      report({ error: messageOf(e), code: codeOf(e), retrying: true });
      return retryLater();
    }
    queue.shift();
    Atomics.store(committed as Int32Array, 0, seq);
    Atomics.notify(committed as Int32Array, 0);
  }
}

self.onmessage = (event: MessageEvent<LogWorkerRequest>) => {
  const m = event.data;
  if ("open" in m) {
    committed = new Int32Array(m.committed);
    path = m.open;
    try {
      open(path);
    } catch (e) {
      insert = null;
      report({ error: `cannot open the message log: ${messageOf(e)}`, code: codeOf(e), retrying: true });
    }
    return;
  }
  queue.push(m);
  if (!retrying) drain();
};
