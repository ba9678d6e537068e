/**
 * The message log's writer thread. Follower messages arrive at tens of thousands a second on a busy
 * account; inserting them (three B-trees per row) on the event loop cost about a tenth of the
 * callback's throughput. The event loop hands over batches of plain values; a worker with a SQLite
 * connection of this store's commits them, one transaction per batch. The worker is the process's,
 * shared by its stores (log-thread.ts).
 *
 * Nothing acknowledged is lost: a batch stays in `unconfirmed` until the worker has committed it
 * (a counter in shared memory), a worker that dies is replaced and given every unconfirmed batch
 * again (the msg_key UNIQUE constraint makes a repeat harmless), and `sync()` — used on shutdown and
 * before reading the log — blocks until everything handed over is committed.
 */
import { MAX_UNWRITTEN } from "../follower-log.ts";
import { ROW_WIDTH, type LogBatch } from "./log-rows.ts";
import { logThread, type LogChannel } from "./log-thread.ts";

// In the compiled binary the worker is a second entry point (scripts/build); from source, its file.
const WORKER_ENTRY = import.meta.url.includes("/$bunfs/") ? "./store/sqlite/log-worker.ts" : new URL("./log-worker.ts", import.meta.url).href;

export class LogWriter {
  private channel: LogChannel | null = null;
  /** Messages not logged because the queue was full while the writer could not write. */
  dropped = 0;
  private unwrittenRows = 0;
  private readonly committed = new Int32Array(new SharedArrayBuffer(4));
  private posted = 0;
  /** Batches handed over but not yet confirmed, oldest first. */
  private readonly unconfirmed: LogBatch[] = [];
  private lastError: string | null = null;
  /** A batch is failing and being retried (disk full, a lock held too long): the code it failed with. */
  private failing: string | null = null;

  constructor(
    private readonly dbPath: string,
    private readonly onError: (message: string) => void,
    private readonly maxUnwritten = MAX_UNWRITTEN,
  ) {}

  /** This store's channel to the process's log-writer thread (log-thread.ts), opened when first written to. */
  private ensureChannel(): LogChannel {
    if (this.channel) return this.channel;
    this.channel = logThread(WORKER_ENTRY).open(this.dbPath, this.committed.buffer as SharedArrayBuffer, {
      report: (r) => {
        // One line per distinct failure, not one per retry.
        if (r.error !== this.lastError) this.onError(`message log: ${r.error}`);
        this.lastError = r.error;
        if (r.retrying) this.failing = r.code || "SQLITE_IOERR";
      },
      failed: (message) => {
        this.onError(`message log writer stopped (${message}); restarting it`);
        this.confirm();
        // Opened again in the next worker with the first of them.
        for (const batch of this.unconfirmed) this.ensureChannel().post(batch);
      },
    });
    return this.channel;
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
    this.ensureChannel().post(batch);
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
    this.channel?.close();
    this.channel = null;
  }
}
