/**
 * The request log: one JSON line per request on stdout, written in batches (every 20 ms or 64 KiB)
 * so that logging costs one write for many requests instead of one each. `flush()` on shutdown.
 */
import { write as writeOut } from "../base/output.ts";

export class LineSink {
  private pending: string[] = [];
  private size = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(private readonly write: (chunk: string) => void = (chunk) => writeOut(process.stdout, chunk)) {}

  line(text: string): void {
    this.pending.push(text);
    this.size += text.length + 1;
    if (this.size >= 64 * 1024) this.flush();
    else this.timer ??= setTimeout(() => this.flush(), 20);
  }

  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (!this.pending.length) return;
    const chunk = this.pending.join("\n") + "\n";
    this.pending = [];
    this.size = 0;
    this.write(chunk);
  }
}
