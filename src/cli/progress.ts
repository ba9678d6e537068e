import { formatBytes } from "./args.ts";
import type { IO } from "./io.ts";

/** A one-line transfer meter on a terminal; silent otherwise, so pipes and logs stay clean. */
export class Progress {
  private last = 0;
  private shown = false;
  /** Length of the line last written: without escapes, a shorter one is padded over it. */
  private width = 0;

  constructor(
    private readonly io: IO,
    private readonly label: string,
    private readonly total: number | null,
  ) {}

  update(done: number): void {
    if (!this.io.interactive) return;
    const now = performance.now();
    if (now - this.last < 100 && done !== this.total) return;
    this.last = now;
    this.shown = true;
    const pct = this.total ? ` (${Math.floor((done / this.total) * 100)}%)` : "";
    const line = `${this.label} ${formatBytes(done)}${this.total ? " / " + formatBytes(this.total) : ""}${pct}`;
    // Erased to the end where the terminal takes it; elsewhere written over with spaces.
    process.stderr.write(`\r${line}${this.io.escapes ? "\x1b[K" : " ".repeat(Math.max(0, this.width - line.length))}`);
    this.width = line.length;
  }

  done(): void {
    if (this.shown) process.stderr.write("\n");
  }
}
