/**
 * Follower searches leave the event loop: they run one at a time in a worker, on a read-only
 * connection of this store's (search-worker.ts; the worker is the process's, shared by its stores:
 * search-thread.ts), each bounded in the rows it reads (search.ts) and the passages it
 * scores (src/ranking/rank.ts). The event loop only hands the words over, so code replies and /healthz never
 * wait behind a search. The searches wait here, not in the worker, and it is handed one at a time,
 * chosen fairly between followers (fair-queue.ts): a follower's flood of costly questions delays
 * each other follower by one question at most. At most `perFollower` searches of one follower and
 * `maxQueued` in all wait or run; past that a search is answered "busy" at once (the follower gets
 * the fallback text). A search not done by its deadline counts as finding nothing; a question's
 * ranking and its word search share one deadline (Asking).
 */
import { FairQueue } from "./fair-queue.ts";
import type { IndexCounts, SearchReply, SearchRequest } from "../../ranking/protocol.ts";
import { asQuestion, type Question } from "../../ranking/question.ts";
import type { RankingResult } from "../../ranking/types.ts";
import { searchThread, type SearchChannel } from "./search-thread.ts";

/**
 * The worker's entry point. In the single binary every bundled module reports the binary's own URL
 * (file:///$bunfs/root/replyd), and a worker entry point is found by its path below the entry
 * points' common folder, src/ (scripts/build names it).
 */
const WORKER_ENTRY = import.meta.url.includes("/$bunfs/") ? "./store/model/search-worker.ts" : new URL("./search-worker.ts", import.meta.url).href;

import type { Asking, SearchResult } from "../read-model.ts";
export type { Asking, SearchResult };

export interface SearcherOptions {
  maxQueued: number;
  perFollower: number;
  /** A question's whole time: its ranking and its word search together. */
  deadlineMs: number;
  /** The worker's script (tests give one that never answers). */
  workerEntry?: string;
}

export const SEARCHER_DEFAULTS = { maxQueued: 64, perFollower: 4, deadlineMs: 2000 } as const;

interface Job {
  id: number;
  from: string;
  request: SearchRequest;
  /** The worker's reply, null when there will be none (failed, closed, past the deadline); once. */
  settle(reply: SearchReply | null): void;
  settled: boolean;
  timer: ReturnType<typeof setTimeout> | undefined;
}

export class Searcher {
  private channel: SearchChannel | null = null;
  private nextId = 1;
  private readonly queue: FairQueue<Job>;
  /** The search the worker is running (it may have been given up on: the worker is busy until it answers). */
  private running: Job | null = null;
  /** Index counts asked for: sent at once, beside the searches. */
  private readonly counting = new Map<number, (counts: IndexCounts | null) => void>();
  /** Searches answered "busy", past their deadline, and given up ones never run, for health. */
  readonly counts = { busy: 0, late: 0, skipped: 0 };

  private readonly opts: SearcherOptions;

  constructor(
    private readonly dbPath: string,
    private readonly log: (message: string) => void,
    opts: Partial<SearcherOptions> = {},
  ) {
    this.opts = { ...SEARCHER_DEFAULTS, ...opts };
    this.queue = new FairQueue<Job>(this.opts.perFollower, this.opts.maxQueued);
  }

  /** This store's channel to the process's search thread (search-thread.ts), opened when first needed. */
  private ensureChannel(): SearchChannel {
    if (this.channel) return this.channel;
    const thread = searchThread(this.opts.workerEntry ?? WORKER_ENTRY);
    this.channel = thread.open(this.dbPath, { reply: (reply) => this.received(reply), failed: (message) => this.failed(message) });
    return this.channel;
  }

  private received(reply: SearchReply): void {
    const counted = this.counting.get(reply.id);
    if (counted) {
      this.counting.delete(reply.id);
      return counted("counts" in reply ? reply.counts : null);
    }
    const job = this.running;
    if (!job || job.id !== reply.id) return;
    this.running = null;
    this.queue.done(job);
    if ("error" in reply) this.log(`search failed: ${reply.error}`);
    this.finish(job, reply);
    this.pump();
  }

  private failed(message: string): void {
    this.log(`the search worker failed: ${message}; starting another`);
    const job = this.running;
    this.running = null;
    if (job) {
      this.queue.done(job);
      this.finish(job, null);
    }
    for (const counted of this.counting.values()) counted(null);
    this.counting.clear();
    // What waits goes to the next worker.
    this.pump();
  }

  /** A question's deadline, for its ranking and its word search together. */
  asking(from: string): Asking {
    return { from, deadlineAt: Date.now() + this.opts.deadlineMs };
  }

  /** The best live article's id for these words, null when none matched, or "busy". */
  async search(words: string[], asking: Asking = this.asking("")): Promise<SearchResult> {
    const reply = await this.ask(asking, (id) => ({ type: "search", id, words }));
    if (reply === "busy") return "busy";
    return { id: reply && "ids" in reply ? (reply.ids[0] ?? null) : null };
  }

  /** The account's articles ranked for a follower's question, or a follow-up read with the one before (src/ranking/rank.ts). */
  async rank(question: string | Question, asking: Asking = this.asking("")): Promise<RankingResult> {
    const { text, ...more } = asQuestion(question);
    const reply = await this.ask(asking, (id) => ({ type: "rank", id, question: text, ...more }));
    if (reply === "busy") return "busy";
    return reply && "ranking" in reply ? reply.ranking : null;
  }

  /** Queues a request in its follower's turn until the deadline, or answers "busy" at once when too many wait. */
  private ask(asking: Asking, request: (id: number) => SearchRequest): Promise<SearchReply | null | "busy"> {
    return new Promise((settle) => {
      const id = this.nextId++;
      const job: Job = { id, from: asking.from, request: request(id), settle, settled: false, timer: undefined };
      const left = asking.deadlineAt - Date.now();
      // The question's time is spent (its ranking took all of it): not queued at all, and not logged
      // again (its ranking's lateness was).
      if (left <= 0) {
        this.counts.late++;
        return this.finish(job, null);
      }
      if (!this.queue.add(job)) {
        this.counts.busy++;
        return settle("busy");
      }
      job.timer = setTimeout(() => {
        // Never sent: taken out of the queue. Running: the worker finishes it, and its answer is dropped.
        if (this.queue.drop(job)) this.counts.skipped++;
        this.counts.late++;
        this.log(`a search was not done by its question's deadline (${this.opts.deadlineMs} ms) and was answered as finding nothing`);
        this.finish(job, null);
      }, left);
      this.pump();
    });
  }

  private finish(job: Job, reply: SearchReply | null): void {
    if (job.settled) return;
    job.settled = true;
    clearTimeout(job.timer);
    job.settle(reply);
  }

  /** Hands the worker the next search when it has none. */
  private pump(): void {
    if (this.running) return;
    const job = this.queue.next();
    if (!job) return;
    this.running = job;
    this.ensureChannel().post(job.request);
  }

  /** The rows in the articles table and in each search index, counted off the event loop (null: could not). */
  countIndex(): Promise<IndexCounts | null> {
    const id = this.nextId++;
    return new Promise((counted) => {
      // No deadline: counting a million rows on a cold disk takes seconds, and nothing waits for it.
      this.counting.set(id, counted);
      this.ensureChannel().post({ type: "count", id } satisfies SearchRequest);
    });
  }

  /** Searches waiting or running. */
  get queued(): number {
    return this.queue.open;
  }

  close(): void {
    for (const job of this.queue.drain()) this.finish(job, null);
    if (this.running) this.finish(this.running, null);
    this.running = null;
    for (const counted of this.counting.values()) counted(null);
    this.counting.clear();
    // The shared thread closes this store's connection (and ends itself with its last one).
    this.channel?.close();
    this.channel = null;
  }
}
