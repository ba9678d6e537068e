/**
 * Follower searches leave the event loop: they run one at a time in a worker with its own read-only
 * connection (search-worker.ts), each bounded in the rows it reads (search.ts). The event loop only
 * hands the words over, so code replies and /healthz never wait behind a search. At most `maxQueued`
 * searches wait; past that a search is answered "busy" at once (the follower gets the fallback text),
 * and one that takes longer than `deadlineMs` counts as finding nothing.
 */
import type { Answer } from "./answers.ts";
import type { IndexCounts, SearchReply, SearchRequest } from "./search-worker.ts";

/**
 * The worker's entry point. In the single binary every bundled module reports the binary's own URL
 * (file:///$bunfs/root/replyd), and a worker entry point is found by its path below the entry
 * points' common folder, src/ (scripts/build names it).
 */
const WORKER_ENTRY = import.meta.url.includes("/$bunfs/") ? "./store/model/search-worker.ts" : new URL("./search-worker.ts", import.meta.url).href;

export type SearchResult = { id: string | null } | "busy";
/** A ranked answer; null when ranking failed or took past the deadline (logged). */
export type AnswerResult = Answer | null | "busy";

export const SEARCHER_DEFAULTS = { maxQueued: 64, deadlineMs: 2000 } as const;

interface Pending {
  /** The worker's reply; null when there will be none (failed, closed, past the deadline). */
  settle(reply: SearchReply | null): void;
  timer: ReturnType<typeof setTimeout> | undefined;
}

export class Searcher {
  private worker: Worker | null = null;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  /** The highest search id given up on: the worker skips those still queued instead of running them. */
  private readonly abandoned = new Int32Array(new SharedArrayBuffer(4));
  /** Searches answered "busy", past the deadline, and given up ones the worker skipped unrun, for health. */
  readonly counts = { busy: 0, late: 0, skipped: 0 };

  constructor(
    private readonly dbPath: string,
    private readonly log: (message: string) => void,
    private readonly opts: { maxQueued: number; deadlineMs: number } = SEARCHER_DEFAULTS,
  ) {}

  private send(m: SearchRequest): void {
    this.ensureWorker().postMessage(m);
  }

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    const w = new Worker(WORKER_ENTRY);
    w.onmessage = (e: MessageEvent<SearchReply>) => {
      if ("skipped" in e.data) return void this.counts.skipped++;
      const p = this.pending.get(e.data.id);
      if (!p) return;
      clearTimeout(p.timer);
      this.pending.delete(e.data.id);
      if ("error" in e.data) this.log(`search failed: ${e.data.error}`);
      p.settle(e.data);
    };
    w.onerror = (e) => {
      this.log(`the search worker failed: ${e.message}; starting another`);
      if (this.worker === w) this.worker = null;
      for (const [id, p] of this.pending) {
        clearTimeout(p.timer);
        this.pending.delete(id);
        p.settle(null);
      }
    };
    // Shutdown must not wait for it.
    w.unref();
    this.worker = w;
    w.postMessage({ type: "open", path: this.dbPath, abandoned: this.abandoned.buffer as SharedArrayBuffer } satisfies SearchRequest);
    return w;
  }

  /** The best live article's id for these words, null when none matched, or "busy". */
  async search(words: string[]): Promise<SearchResult> {
    const reply = await this.ask((id) => ({ type: "search", id, words }));
    if (reply === "busy") return "busy";
    return { id: reply && "ids" in reply ? (reply.ids[0] ?? null) : null };
  }

  /** The account's articles ranked for a follower's question (answers.ts). */
  async answer(question: string): Promise<AnswerResult> {
    const reply = await this.ask((id) => ({ type: "answer", id, question }));
    if (reply === "busy") return "busy";
    return reply && "answer" in reply ? reply.answer : null;
  }

  /** Queues a request with the deadline, or answers "busy" at once when too many wait. */
  private ask(request: (id: number) => SearchRequest): Promise<SearchReply | null | "busy"> {
    if (this.pending.size >= this.opts.maxQueued) {
      this.counts.busy++;
      return Promise.resolve("busy");
    }
    const id = this.nextId++;
    return new Promise((settle) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        // Deadlines fire in the order searches were sent: everything up to this one is given up.
        Atomics.store(this.abandoned, 0, Math.max(Atomics.load(this.abandoned, 0), id));
        this.counts.late++;
        this.log(`a search took over ${this.opts.deadlineMs} ms and was answered as finding nothing`);
        settle(null);
      }, this.opts.deadlineMs);
      this.pending.set(id, { settle, timer });
      this.send(request(id));
    });
  }

  /** The rows in the articles table and in each search index, counted off the event loop (null: could not). */
  countIndex(): Promise<IndexCounts | null> {
    const id = this.nextId++;
    return new Promise((counted) => {
      // No deadline: counting a million rows on a cold disk takes seconds, and nothing waits for it.
      this.pending.set(id, { settle: (reply) => counted(reply && "counts" in reply ? reply.counts : null), timer: undefined });
      this.send({ type: "count", id });
    });
  }

  get queued(): number {
    return this.pending.size;
  }

  close(): void {
    for (const p of this.pending.values()) {
      clearTimeout(p.timer);
      p.settle(null);
    }
    this.pending.clear();
    // The worker closes its connection and ends itself; terminating it could leave the file open.
    this.worker?.postMessage({ type: "close" } satisfies SearchRequest);
    this.worker = null;
  }
}
