/**
 * Operator regex rules run in a worker with a deadline: a pathological pattern (catastrophic
 * backtracking) costs at most `timeoutMs`, then the worker is replaced and the rules count as
 * not matching. Input is capped at MAX_INPUT characters before it is matched.
 */

export const MAX_INPUT = 512;

// Inline so the compiled single binary needs no second file.
const WORKER_SOURCE = `
const cache = new Map();
self.onmessage = (event) => {
  const { id, patterns, text } = event.data;
  const matched = [];
  for (let i = 0; i < patterns.length; i++) {
    let re = cache.get(patterns[i]);
    if (!re) {
      try { re = new RegExp(patterns[i], "iu"); } catch { re = null; }
      if (cache.size > 1000) cache.clear();
      cache.set(patterns[i], re);
    }
    if (re && re.test(text)) matched.push(i);
  }
  self.postMessage({ id, matched });
};
`;

interface Pending {
  resolve(matched: Set<number>): void;
  timer: ReturnType<typeof setTimeout>;
}

export class RegexMatcher {
  private worker: Worker | null = null;
  private url: string | null = null;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();

  constructor(
    private readonly timeoutMs = 100,
    private readonly onTimeout: (patterns: string[]) => void = () => {},
  ) {}

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    this.url ??= URL.createObjectURL(new Blob([WORKER_SOURCE], { type: "application/javascript" }));
    const w = new Worker(this.url);
    w.onmessage = (e: MessageEvent<{ id: number; matched: number[] }>) => {
      const p = this.pending.get(e.data.id);
      if (!p) return;
      clearTimeout(p.timer);
      this.pending.delete(e.data.id);
      p.resolve(new Set(e.data.matched));
    };
    // A worker does not keep the process alive: shutdown must not wait for it.
    w.unref();
    this.worker = w;
    return w;
  }

  /** Indexes of the patterns that match `text`; none when the deadline passes. */
  match(patterns: string[], text: string): Promise<Set<number>> {
    if (!patterns.length) return Promise.resolve(new Set());
    const id = this.nextId++;
    const worker = this.ensureWorker();
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        // The worker is stuck in a match: kill it; requests queued behind it are answered "no match".
        worker.terminate();
        if (this.worker === worker) this.worker = null;
        for (const [otherId, p] of this.pending) {
          clearTimeout(p.timer);
          p.resolve(new Set());
          this.pending.delete(otherId);
        }
        this.onTimeout(patterns);
        resolve(new Set());
      }, this.timeoutMs);
      this.pending.set(id, { resolve, timer });
      worker.postMessage({ id, patterns, text: text.slice(0, MAX_INPUT) });
    });
  }

  close(): void {
    this.worker?.terminate();
    this.worker = null;
    if (this.url) URL.revokeObjectURL(this.url);
    this.url = null;
  }
}
