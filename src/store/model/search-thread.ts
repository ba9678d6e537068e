/**
 * The search thread a process's stores share (issue 36 B: accounts share the worker threads): one
 * worker (search-worker.ts) holding a read-only connection per open channel, each channel a store's
 * Searcher. A worker per store cost a JavaScript heap and a thread per account: 100 accounts came to
 * 616 MB idle and 206 threads (docs/performance.md, "Many accounts"). Each Searcher still hands the
 * worker one search at a time, chosen fairly between its followers; the worker runs what the
 * channels send in the order it arrives.
 */
import type { SearchReply, SearchRequest } from "../../ranking/protocol.ts";

/** What the worker is sent: a channel's request, or (no channel left) the word to end. */
export type ThreadMessage = { ch: number; m: SearchRequest } | { exit: true };
export type ThreadReply = { ch: number; r: SearchReply };

export interface SearchChannelHandlers {
  reply(reply: SearchReply): void;
  /** The worker failed: what was sent is lost; the next request starts another worker. */
  failed(message: string): void;
}

export interface SearchChannel {
  post(request: SearchRequest): void;
  /** The connection closed in the worker; the worker ends with its last channel. */
  close(): void;
}

export class SearchThread {
  private worker: Worker | null = null;
  private readonly channels = new Map<number, { path: string; handlers: SearchChannelHandlers }>();
  private nextChannel = 1;

  constructor(private readonly entry: string) {}

  open(path: string, handlers: SearchChannelHandlers): SearchChannel {
    const ch = this.nextChannel++;
    this.channels.set(ch, { path, handlers });
    // Opened in the worker with its first request, as a worker of its own was.
    let opened = false;
    return {
      post: (m) => {
        const w = this.ensureWorker();
        if (!opened) {
          w.postMessage({ ch, m: { type: "open", path } } satisfies ThreadMessage);
          opened = true;
        }
        w.postMessage({ ch, m } satisfies ThreadMessage);
      },
      close: () => {
        if (!this.channels.delete(ch)) return;
        if (opened && this.worker) this.worker.postMessage({ ch, m: { type: "close" } } satisfies ThreadMessage);
        if (this.channels.size === 0 && this.worker) {
          // The worker closes its connections and ends itself; terminating it could leave a file open.
          this.worker.postMessage({ exit: true } satisfies ThreadMessage);
          this.worker = null;
        }
      },
    };
  }

  /** Channels open: what health and tests read. */
  get open_channels(): number {
    return this.channels.size;
  }

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    const w = new Worker(this.entry);
    w.onmessage = (e: MessageEvent<ThreadReply>) => this.channels.get(e.data.ch)?.handlers.reply(e.data.r);
    w.onerror = (e) => {
      if (this.worker !== w) return;
      this.worker = null;
      // Every channel's connection was the failed worker's: each opens again in the next one.
      for (const c of this.channels.values()) c.handlers.failed(e.message);
      this.reopen();
    };
    // Shutdown must not wait for it.
    w.unref();
    this.worker = w;
    return w;
  }

  /** After a failure: the channels' connections opened in a new worker (lazily, when one of them next asks). */
  private reopen(): void {
    const open = [...this.channels.entries()];
    if (!open.length) return;
    const w = this.ensureWorker();
    for (const [ch, c] of open) w.postMessage({ ch, m: { type: "open", path: c.path } } satisfies ThreadMessage);
  }
}

const shared = new Map<string, SearchThread>();
/** The process's search thread for this worker script (tests give one of their own). */
export function searchThread(entry: string): SearchThread {
  let t = shared.get(entry);
  if (!t) shared.set(entry, (t = new SearchThread(entry)));
  return t;
}
