/**
 * Operator regex rules run in a worker with a deadline: a pathological pattern (catastrophic
 * backtracking) costs at most `timeoutMs`, then the worker is replaced. Input is capped at MAX_INPUT
 * characters before it is matched.
 *
 * The worker marks in shared memory which request and which pattern it is testing, so a timeout
 * names its culprit. The other matches that were waiting are sent again to the new worker (they
 * are not answered "no match"), and so is the timed-out message without its culprit. A pattern that
 * times out STRIKES times is disabled: skipped, reported in health and the log, until the operator
 * writes the rules again.
 */

import type { RegexAnswer, RegexRequest } from "./regex-worker.ts";

export const MAX_INPUT = 512;
/** Timeouts after which a pattern is disabled. */
export const STRIKES = 2;

// In the compiled binary the worker is a second entry point (scripts/build); from source, its file.
const WORKER_ENTRY = import.meta.url.includes("/$bunfs/") ? "./wechat/answering/regex-worker.ts" : new URL("./regex-worker.ts", import.meta.url).href;

interface Pending {
  /** The patterns sent, as positions in the caller's list. */
  positions: number[];
  patterns: string[];
  text: string;
  resolve(matched: Set<number>): void;
  timer: ReturnType<typeof setTimeout> | null;
  retried: boolean;
}

export interface DisabledPattern {
  pattern: string;
  timeouts: number;
  since: string;
}

export class RegexMatcher {
  private worker: Worker | null = null;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly progress = new Int32Array(new SharedArrayBuffer(8));
  private readonly strikes = new Map<string, number>();
  private readonly disabledPatterns = new Map<string, DisabledPattern>();
  private rulesVersion = -1;

  constructor(
    private readonly timeoutMs = 100,
    private readonly log: (message: string) => void = () => {},
    private readonly now: () => number = Date.now,
  ) {}

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

  /** Patterns disabled for timing out, for health. */
  disabled(): DisabledPattern[] {
    return [...this.disabledPatterns.values()];
  }

  /**
   * Positions (in `patterns`) of the patterns that match `text`; none when the deadline passes
   * twice. `rulesVersion` changes whenever the operator writes the rules: disabled patterns are
   * given another chance then.
   */
  match(patterns: string[], text: string, rulesVersion = 0): Promise<Set<number>> {
    if (rulesVersion !== this.rulesVersion) {
      if (this.disabledPatterns.size) this.log(`the rules were written: ${this.disabledPatterns.size} disabled regex rule(s) enabled again`);
      this.rulesVersion = rulesVersion;
      this.disabledPatterns.clear();
      this.strikes.clear();
    }
    const positions = patterns.flatMap((p, i) => (this.disabledPatterns.has(p) ? [] : [i]));
    if (!positions.length) return Promise.resolve(new Set());
    return new Promise((resolve) => {
      const p: Pending = { positions, patterns: positions.map((i) => patterns[i] as string), text: text.slice(0, MAX_INPUT), resolve, timer: null, retried: false };
      this.dispatch(this.nextId++, p);
    });
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
    if (culprit !== null) this.strike(culprit);
    else this.log(`a regex match took over ${this.timeoutMs} ms and was treated as not matching`);
    // Everything that was waiting behind it goes to the new worker with a fresh deadline, without
    // the patterns disabled by now: a disabled pattern never runs again, not even for requests that
    // were already queued when it was disabled.
    const waiting = [...this.pending];
    this.pending.clear();
    for (const [otherId, other] of waiting) {
      if (other.timer) clearTimeout(other.timer);
      this.redispatch(otherId, other, (pattern) => !this.disabledPatterns.has(pattern), other.retried);
    }
    // The message itself, once more without its culprit.
    if (culprit !== null && !p.retried) this.redispatch(this.nextId++, p, (pattern, i) => i !== stuck && !this.disabledPatterns.has(pattern), true);
    else p.resolve(new Set());
  }

  /** Sends `p` again with only the patterns `keep` accepts; with none left, it matched nothing. */
  private redispatch(id: number, p: Pending, keep: (pattern: string, i: number) => boolean, retried: boolean): void {
    const kept = p.patterns.flatMap((pattern, i) => (keep(pattern, i) ? [i] : []));
    if (!kept.length) return p.resolve(new Set());
    this.dispatch(id, { ...p, positions: kept.map((i) => p.positions[i] as number), patterns: kept.map((i) => p.patterns[i] as string), retried });
  }

  private strike(pattern: string): void {
    const n = (this.strikes.get(pattern) ?? 0) + 1;
    this.strikes.set(pattern, n);
    if (n < STRIKES) {
      this.log(`a regex rule took over ${this.timeoutMs} ms and was treated as not matching: ${pattern}`);
      return;
    }
    this.disabledPatterns.set(pattern, { pattern, timeouts: n, since: new Date(this.now()).toISOString() });
    this.log(`a regex rule timed out ${n} times and is disabled until the rules are written again: ${pattern}`);
  }

  close(): void {
    this.worker?.terminate();
    this.worker = null;
  }
}
