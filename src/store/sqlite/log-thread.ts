/**
 * The message-log writer thread a process's stores share (issue 36 B: accounts share the worker
 * threads): one worker (log-worker.ts) with a connection and a queue per channel, each channel a
 * store's LogWriter. A writer thread per store cost a thread and a JavaScript heap per account
 * (docs/performance.md, "Many accounts"). Each channel keeps its own batches, retries and
 * committed counter; a worker that fails is replaced, and every channel opened again in it and
 * given its unconfirmed batches (its LogWriter does that).
 */
import type { LogBatch } from "./log-rows.ts";
import type { LogThreadMessage, LogThreadReport, LogWorkerReport } from "./log-protocol.ts";

export interface LogChannelHandlers {
  report(report: LogWorkerReport): void;
  /** The worker failed: what it held is lost; the channel opens again in the next worker with its next post. */
  failed(message: string): void;
}

export interface LogChannel {
  post(batch: LogBatch): void;
  /** Its connection closed in the worker (what it had not committed is dropped); the worker ends with its last channel. */
  close(): void;
  /** Tests: the worker this channel's batches go to, to make it fail. */
  readonly worker: Worker | null;
}

export class LogThread {
  private worker: Worker | null = null;
  private readonly channels = new Map<number, LogChannelHandlers>();
  private nextChannel = 1;

  constructor(private readonly entry: string) {}

  open(path: string, committed: SharedArrayBuffer, handlers: LogChannelHandlers): LogChannel {
    const ch = this.nextChannel++;
    this.channels.set(ch, handlers);
    // The worker this channel was opened in: a new one (after a failure) is sent `open` first.
    let openedIn: Worker | null = null;
    const thread = this;
    return {
      post: (batch) => {
        const w = this.ensureWorker();
        if (openedIn !== w) {
          w.postMessage({ ch, open: path, committed } satisfies LogThreadMessage);
          openedIn = w;
        }
        w.postMessage({ ch, batch } satisfies LogThreadMessage);
      },
      close: () => {
        if (!this.channels.delete(ch)) return;
        if (openedIn && openedIn === this.worker) this.worker.postMessage({ ch, close: true } satisfies LogThreadMessage);
        if (this.channels.size === 0 && this.worker) {
          this.worker.postMessage({ exit: true } satisfies LogThreadMessage);
          this.worker = null;
        }
      },
      get worker() {
        return thread.worker;
      },
    };
  }

  get open_channels(): number {
    return this.channels.size;
  }

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    const w = new Worker(this.entry);
    w.onmessage = (e: MessageEvent<LogThreadReport>) => this.channels.get(e.data.ch)?.report(e.data.report);
    w.onerror = (e) => {
      if (this.worker !== w) return;
      this.worker = null;
      w.terminate();
      for (const handlers of [...this.channels.values()]) handlers.failed(e.message);
    };
    // Shutdown waits through each writer's sync(), not through the worker keeping the process alive.
    w.unref();
    this.worker = w;
    return w;
  }
}

const shared = new Map<string, LogThread>();
/** The process's log-writer thread for this worker script. */
export function logThread(entry: string): LogThread {
  let t = shared.get(entry);
  if (!t) shared.set(entry, (t = new LogThread(entry)));
  return t;
}
