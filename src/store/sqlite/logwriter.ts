/**
 * The message log's writer thread. Follower messages arrive at tens of thousands a second on a busy
 * account; inserting them (three B-trees per row) on the event loop cost about a tenth of the
 * callback's throughput. The event loop hands over batches of plain values; a worker with its own
 * SQLite connection commits them, one transaction per batch.
 *
 * Nothing acknowledged is lost: a batch stays in `unconfirmed` until the worker has committed it
 * (a counter in shared memory), a worker that dies is replaced and given every unconfirmed batch
 * again (the msg_key UNIQUE constraint makes a repeat harmless), and `sync()` — used on shutdown and
 * before reading the log — blocks until everything handed over is committed.
 */
import { MAX_UNWRITTEN, OPENING_EVENTS } from "../follower-log.ts";

export const ROW_WIDTH = 8;

// Inline so the compiled single binary needs no second file.
const WORKER_SOURCE = `
const { Database } = require("bun:sqlite");
let db = null, insert = null, follower = null, committed = null, path = null;
const OPENING = new Set(${JSON.stringify(OPENING_EVENTS)});
const queue = [];
let retrying = false;
function open(path) {
  db = new Database(path, { strict: true });
  // A long import or restore holds the write lock for seconds: wait it out rather than report it.
  db.exec("PRAGMA busy_timeout = 60000");
  // The log must survive a crash of the process (WAL with synchronous=NORMAL does); an fsync per
  // batch for power cuts is what admin writes pay, not follower traffic.
  db.exec("PRAGMA synchronous = NORMAL");
  insert = db.query("INSERT OR IGNORE INTO messages (received_at, msg_key, from_user, type, event, content, answer, unmatched) VALUES (?, ?, ?, ?, ?, ?, ?, ?)");
  // Each follower's last interaction, for reply windows: one row per follower, written once per
  // batch (an index on the log's sender would cost every message another B-tree insert).
  follower = db.query("INSERT INTO followers (openid, last_seq, last_at) VALUES (?, ?, ?) ON CONFLICT(openid) DO UPDATE SET last_seq = excluded.last_seq, last_at = excluded.last_at WHERE excluded.last_seq > followers.last_seq");
}
// A time that cannot be formatted must not fail the row: the row is kept with the time it was written.
function isoTime(ms) {
  const at = typeof ms === "number" ? new Date(ms) : null;
  return (at && !Number.isNaN(at.getTime()) ? at : new Date()).toISOString();
}
function put(rows, i, last) {
  const at = isoTime(rows[i]);
  const r = insert.run(at, rows[i + 1], rows[i + 2], rows[i + 3], rows[i + 4], rows[i + 5], rows[i + 6], rows[i + 7]);
  if (r.changes && (rows[i + 3] !== "event" || OPENING.has(rows[i + 4]))) last.set(rows[i + 2], [Number(r.lastInsertRowid), at]);
}
function putFollowers(last) {
  for (const [openid, [seq, at]] of last) follower.run(openid, seq, at);
}
// A row SQLite or the binding refuses fails the same way on every retry: only such rows are dropped.
function refusesRow(e) {
  const code = String((e && e.code) || "");
  return code.startsWith("SQLITE_CONSTRAINT") || code === "SQLITE_MISMATCH" || code === "SQLITE_TOOBIG" || e instanceof TypeError || e instanceof RangeError;
}
function retryLater() {
  if (!retrying) { retrying = true; setTimeout(() => { retrying = false; drain(); }, 200); }
}
function drain() {
  // Not open (the database could not be opened, or its table prepared): keep the batches and retry.
  if (!insert) {
    try { open(path); } catch (e) {
      self.postMessage({ error: "cannot open the message log: " + (e && e.message || e), code: String((e && e.code) || ""), retrying: true });
      return retryLater();
    }
  }
  while (queue.length) {
    const { seq, json } = queue[0];
    const rows = JSON.parse(json);
    try {
      try {
        db.transaction(() => {
          const last = new Map();
          for (let i = 0; i < rows.length; i += ${ROW_WIDTH}) put(rows, i, last);
          putFollowers(last);
        })();
      } catch (e) {
        if (!refusesRow(e)) throw e;
        // Keep every row that can be written; report the ones that cannot, once per batch.
        let dropped = 0, reason = "";
        db.transaction(() => {
          const last = new Map();
          for (let i = 0; i < rows.length; i += ${ROW_WIDTH})
            try { put(rows, i, last); } catch (rowError) {
              if (!refusesRow(rowError)) throw rowError;
              dropped++;
              reason ||= String(rowError.message || rowError);
            }
          putFollowers(last);
        })();
        if (dropped) self.postMessage({ error: dropped + " message(s) could not be logged: " + reason });
      }
    } catch (e) {
      // Disk full, the lock held for over a minute: keep the batch and try again.
      self.postMessage({ error: String(e && e.message || e), code: String((e && e.code) || ""), retrying: true });
      return retryLater();
    }
    queue.shift();
    Atomics.store(committed, 0, seq);
    Atomics.notify(committed, 0);
  }
}
self.onmessage = (event) => {
  const m = event.data;
  if (m.open) {
    committed = new Int32Array(m.committed);
    path = m.open;
    try { open(path); } catch (e) { insert = null; self.postMessage({ error: "cannot open the message log: " + (e && e.message || e), code: String((e && e.code) || ""), retrying: true }); }
    return;
  }
  queue.push(m);
  if (!retrying) drain();
};
`;

let workerUrl: string | null = null;

export class LogWriter {
  private worker: Worker | null = null;
  /** Messages not logged because the queue was full while the writer could not write. */
  dropped = 0;
  private unwrittenRows = 0;
  private readonly committed = new Int32Array(new SharedArrayBuffer(4));
  private posted = 0;
  /** Batches handed over but not yet confirmed, oldest first. */
  private readonly unconfirmed: { seq: number; json: string; rows: number }[] = [];
  private lastError: string | null = null;
  /** A batch is failing and being retried (disk full, a lock held too long): the code it failed with. */
  private failing: string | null = null;

  constructor(
    private readonly dbPath: string,
    private readonly onError: (message: string) => void,
    private readonly maxUnwritten = MAX_UNWRITTEN,
  ) {}

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    workerUrl ??= URL.createObjectURL(new Blob([WORKER_SOURCE], { type: "application/javascript" }));
    const w = new Worker(workerUrl);
    w.onmessage = (e: MessageEvent<{ error?: string; code?: string; retrying?: boolean }>) => {
      if (e.data.error) {
        // One line per distinct failure, not one per retry.
        if (e.data.error !== this.lastError) this.onError(`message log: ${e.data.error}`);
        this.lastError = e.data.error;
        if (e.data.retrying) this.failing = e.data.code || "SQLITE_IOERR";
      }
    };
    w.onerror = (e) => {
      this.onError(`message log writer stopped (${e.message}); restarting it`);
      if (this.worker === w) this.worker = null;
      w.terminate();
      this.confirm();
      const again = this.ensureWorker();
      for (const batch of this.unconfirmed) again.postMessage(batch);
    };
    // Shutdown waits through sync(), not through the worker keeping the process alive.
    w.unref();
    w.postMessage({ open: this.dbPath, committed: this.committed.buffer });
    this.worker = w;
    return w;
  }

  /** Hands a batch of rows (ROW_WIDTH values each) to the writer. */
  write(rows: unknown[]): void {
    this.confirm();
    const n = rows.length / ROW_WIDTH;
    if (this.unwrittenRows + n > this.maxUnwritten) {
      // The writer has been failing long enough to fill the queue (a full disk): memory stays bounded.
      if (this.dropped === 0) this.onError(`message log: ${this.maxUnwritten} messages wait to be written; further ones are answered but not logged (counted in health) until the writer catches up`);
      this.dropped += n;
      return;
    }
    this.unwrittenRows += n;
    // One string: structured-cloning 2,000 values costs the event loop about three times as much.
    const batch = { seq: (this.posted = (this.posted + 1) | 0), json: JSON.stringify(rows), rows: n };
    this.unconfirmed.push(batch);
    this.ensureWorker().postMessage(batch);
  }

  /** Drops the batches the worker has committed. Sequence numbers wrap: compare by difference. */
  private confirm(): void {
    const done = Atomics.load(this.committed, 0);
    const before = this.unconfirmed.length;
    while (this.unconfirmed.length && ((done - (this.unconfirmed[0] as { seq: number }).seq) | 0) >= 0)
      this.unwrittenRows -= (this.unconfirmed.shift() as { rows: number }).rows;
    if (this.unconfirmed.length < before) this.failing = null; // a commit went through
  }

  private get caughtUp(): boolean {
    return ((Atomics.load(this.committed, 0) - this.posted) | 0) >= 0;
  }

  /**
   * Resolves once every batch handed over is committed, without blocking the event loop. While the
   * writer is failing (the disk is full) it waits one more retry of the writer's (it retries every
   * 200 ms), then rejects with that failure's code (507 disk_full for a full disk): nobody waits
   * for a disk to empty.
   */
  async settled(timeoutMs = 10_000): Promise<void> {
    const started = performance.now();
    const until = started + timeoutMs;
    for (;;) {
      this.confirm();
      if (this.caughtUp) return;
      if (this.failing && performance.now() - started > 500)
        throw Object.assign(new Error(`the message log cannot be written: ${this.lastError}`), { code: this.failing });
      if (performance.now() > until) throw new Error(`the message log could not be written in ${timeoutMs} ms${this.lastError ? `: ${this.lastError}` : ""}`);
      await Bun.sleep(5);
    }
  }

  /** Blocks until every batch handed over is committed; throws after `timeoutMs`. Shutdown only: it holds the thread. */
  sync(timeoutMs = 10_000): void {
    const until = performance.now() + timeoutMs;
    for (;;) {
      const done = Atomics.load(this.committed, 0);
      if (((done - this.posted) | 0) >= 0) break;
      const left = until - performance.now();
      if (left <= 0) throw new Error(`the message log could not be written in ${timeoutMs} ms${this.lastError ? `: ${this.lastError}` : ""}`);
      Atomics.wait(this.committed, 0, done, Math.min(left, 50));
    }
    this.confirm();
    this.lastError = null;
  }

  /** Messages handed over and not yet written. */
  get unwritten(): number {
    this.confirm();
    return this.unwrittenRows;
  }

  /** The rows of every batch not yet written (ROW_WIDTH values each), for a spill file at shutdown. */
  unwrittenRowsList(): unknown[] {
    this.confirm();
    return this.unconfirmed.flatMap((b) => JSON.parse(b.json) as unknown[]);
  }

  close(): void {
    this.worker?.terminate();
    this.worker = null;
  }
}
