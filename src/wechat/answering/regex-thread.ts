/**
 * The thread operator regexes run on, with a deadline: a pathological pattern (catastrophic
 * backtracking) costs at most `timeoutMs`, then the worker is replaced. One thread may serve the
 * matchers of every account of a process (regex.ts): each request carries its owner, which is
 * told its culprit and says which of its patterns are disabled.
 *
 * The worker marks in shared memory which request and which pattern it is testing, so a timeout
 * names its culprit. The other matches that were waiting — whoever's — are sent again to the new
 * worker (they are not answered "no match"), and so is the timed-out message without its culprit.
 */
import type { RegexAnswer, RegexRequest } from "./regex-worker.ts";

// In the compiled binary the worker is a second entry point (scripts/build); from source, its file.
const WORKER_ENTRY = import.meta.url.includes("/$bunfs/") ? "./wechat/answering/regex-worker.ts" : new URL("./regex-worker.ts", import.meta.url).href;

/** Whose patterns a request runs: told of a pattern that timed out, asked which are disabled. */
export interface RegexOwner {
  /** `pattern` made the worker miss its deadline (null: it could not be named). */
  timedOut(pattern: string | null): void;
  isDisabled(pattern: string): boolean;
}

interface Pending {
  owner: RegexOwner;
  /** The patterns sent, as positions in the caller's list. */
  positions: number[];
  patterns: string[];
  text: string;
  resolve(matched: Set<number>): void;
  timer: ReturnType<typeof setTimeout> | null;
  retried: boolean;
}

export class RegexThread {
  private worker: Worker | null = null;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly progress = new Int32Array(new SharedArrayBuffer(8));

  constructor(readonly timeoutMs = 100) {}

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    const w = new Worker(WORKER_ENTRY);
    w.onmessage = (e: MessageEvent<RegexAnswer>) => {
      const p = this.pending.get(e.data.id);
      if (!p) return;
      if (p.timer) clearTimeout(p.timer);
      this.pending.delete(e.data.id);
      p.resolve(new Set(e.data.matched.map((i) => p.positions[i] as number)));
    };
    // A worker does not keep the process alive: shutdown must not wait for it.
    w.unref();
    w.postMessage({ progress: this.progress.buffer as SharedArrayBuffer } satisfies RegexRequest);
    this.worker = w;
    return w;
  }

  /** Positions (in `positions`' caller's list) of `patterns` that match `text`, run for `owner`. */
  run(owner: RegexOwner, positions: number[], patterns: string[], text: string): Promise<Set<number>> {
    return new Promise((resolve) => this.dispatch(this.nextId++, { owner, positions, patterns, text, resolve, timer: null, retried: false }));
  }

  private dispatch(id: number, p: Pending): void {
    this.pending.set(id, p);
    p.timer = setTimeout(() => this.timedOut(id), this.timeoutMs);
    this.ensureWorker().postMessage({ id, patterns: p.patterns, text: p.text } satisfies RegexRequest);
  }

  private timedOut(id: number): void {
    const p = this.pending.get(id);
    if (!p) return;
    this.pending.delete(id);
    // The worker is stuck in a match: replace it, and name the pattern it was stuck in.
    const stuck = Atomics.load(this.progress, 0) === id ? Atomics.load(this.progress, 1) : -1;
    this.worker?.terminate();
    this.worker = null;
    const culprit = stuck >= 0 ? (p.patterns[stuck] as string) : null;
    p.owner.timedOut(culprit);
    // Everything that was waiting behind it goes to the new worker with a fresh deadline, without
    // the patterns its owner has disabled by now: a disabled pattern never runs again, not even for
    // requests that were already queued when it was disabled.
    const waiting = [...this.pending];
    this.pending.clear();
    for (const [otherId, other] of waiting) {
      if (other.timer) clearTimeout(other.timer);
      this.redispatch(otherId, other, (pattern) => !other.owner.isDisabled(pattern), other.retried);
    }
    // The message itself, once more without its culprit.
    if (culprit !== null && !p.retried) this.redispatch(this.nextId++, p, (pattern, i) => i !== stuck && !p.owner.isDisabled(pattern), true);
    else p.resolve(new Set());
  }

  /** Sends `p` again with only the patterns `keep` accepts; with none left, it matched nothing. */
  private redispatch(id: number, p: Pending, keep: (pattern: string, i: number) => boolean, retried: boolean): void {
    const kept = p.patterns.flatMap((pattern, i) => (keep(pattern, i) ? [i] : []));
    if (!kept.length) return p.resolve(new Set());
    this.dispatch(id, { ...p, positions: kept.map((i) => p.positions[i] as number), patterns: kept.map((i) => p.patterns[i] as string), retried });
  }

  close(): void {
    this.worker?.terminate();
    this.worker = null;
  }
}
