/**
 * The part of a byte source a scan holds at once: a buffer that slides forward over the source and
 * doubles only when one piece (a member, a record) is larger than it, so a 1M-article file is read
 * in about a megabyte. A source already in memory is its own window, never copied.
 */
import type { ByteSource } from "./byte-source.ts";

/** Bytes a reader holds at once, unless one piece (a member, a record) is larger. */
export const WINDOW_BYTES = 1 << 20;

/** The part of the source being scanned: [base, base + len). */
export class Window {
  buf: Uint8Array;
  len: number;
  base: number;
  /** The window reaches the end of the source. */
  final: boolean;

  constructor(
    private readonly src: ByteSource,
    start: number,
    size: number,
  ) {
    if (src.whole) {
      this.buf = src.whole;
      this.len = src.whole.length;
      this.base = 0;
      this.final = true;
      return;
    }
    // One byte more than the rest of the file: its end is seen by the first fill.
    this.buf = new Uint8Array(Math.max(16, Math.min(size, src.size - start + 1)));
    this.len = 0;
    this.base = start;
    this.final = false;
    this.fill();
  }

  view(): Uint8Array {
    return this.buf.subarray(0, this.len);
  }

  /** Drops the bytes before `keep` (relative) and reads on; grows when one piece fills the window. */
  more(keep: number): void {
    if (keep > 0) {
      this.buf.copyWithin(0, keep, this.len);
      this.len -= keep;
      this.base += keep;
    }
    if (this.len === this.buf.length) {
      const bigger = new Uint8Array(this.buf.length * 2);
      bigger.set(this.buf);
      this.buf = bigger;
    }
    this.fill();
  }

  private fill(): void {
    while (this.len < this.buf.length) {
      const n = this.src.read(this.buf, this.len, this.buf.length - this.len, this.base + this.len);
      if (n === 0) {
        this.final = true;
        return;
      }
      this.len += n;
    }
  }
}
