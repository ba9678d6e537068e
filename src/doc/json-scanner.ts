/**
 * JSON read piece by piece over a window: the structure between values (brackets, commas, colons,
 * strings' ends) is found here, byte by byte or natively for a string's next quote, and each piece
 * is decoded (strict UTF-8) and parsed with JSON.parse on its own, so the pieces are exactly what
 * JSON.parse of the whole would give. Every step is restartable: a step that runs off the window
 * throws NEED_MORE and is run again with more of the source, so a piece is never larger than
 * itself in memory. What the pieces mean (a document's members, its articles) is scanner.ts's.
 */
import { ReplydError } from "../base/errors.ts";
import { decodeUtf8 } from "./file-text.ts";
import type { Window } from "./window.ts";

export const [QUOTE, BACKSLASH, COMMA, COLON, OPEN_OBJ, CLOSE_OBJ, OPEN_ARR, CLOSE_ARR] = [0x22, 0x5c, 0x2c, 0x3a, 0x7b, 0x7d, 0x5b, 0x5d];

export const badJson = (detail: string) => new ReplydError("bad_json", `the file is not valid JSON: ${detail}`);

const isSpace = (b: number) => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;

/** Thrown when a scan runs off the window before the source ends: the step is tried again with more bytes. */
export const NEED_MORE = Symbol("need more");

/** "}" an element's quick end-finding looks at before it scans the element instead. */
const ELEMENT_LOOKS = 16;

/** Bytes a scan has searched or decoded: what its cost grows with (tests hold it linear in the document). */
export interface ScanWork {
  bytes: number;
}

/** An article record as scanned: parsed, not checked, and its place in the array. */
export type ScannedRecord = [record: unknown, index: number];

/** A place in a window, moved past the JSON there one restartable step at a time. */
export class JsonScanner {
  b: Uint8Array;
  i: number;

  constructor(
    readonly w: Window,
    start: number,
    readonly work: ScanWork = { bytes: 0 },
  ) {
    this.b = w.view();
    this.i = start - w.base;
  }

  /** The absolute position, for messages. */
  at(i = this.i): number {
    return this.w.base + i;
  }

  /** Runs one restartable piece of the scan, with more of the source each time it runs off the window. */
  step<T>(fn: () => T): T {
    for (;;) {
      const mark = this.i;
      try {
        return fn();
      } catch (e) {
        if (e !== NEED_MORE) throw e;
        if (this.w.final) throw badJson("unexpected end of the file");
        this.w.more(mark);
        this.b = this.w.view();
        this.i = 0;
      }
    }
  }

  decode(start: number, end: number): string {
    this.work.bytes += end - start;
    return decodeUtf8(this.b.subarray(start, end));
  }

  parse(start: number, end: number): unknown {
    const text = this.decode(start, end);
    try {
      return JSON.parse(text);
    } catch (e) {
      throw badJson(`${(e as Error).message} (in the value at byte ${this.at(start)})`);
    }
  }

  private outOfBytes(): never {
    if (!this.w.final) throw NEED_MORE;
    throw badJson("unexpected end of the file");
  }

  /** The next non-space byte, not consumed; undefined at the end of the source. */
  peek(): number | undefined {
    while (this.i < this.b.length && isSpace(this.b[this.i] as number)) this.i++;
    const c = this.b[this.i];
    if (c === undefined && !this.w.final) throw NEED_MORE;
    return c;
  }

  /** The next non-space byte, consumed only when it is `expected` (one of them). */
  expect(...expected: number[]): number {
    const b = this.peek();
    if (b === undefined) throw badJson("unexpected end of the file");
    if (!expected.includes(b)) throw badJson(`unexpected ${JSON.stringify(String.fromCharCode(b))} at byte ${this.at()}`);
    this.i++;
    return b;
  }

  /** Past one value: a string, an object or array (brackets counted outside strings), or a literal. Answers its range. */
  value(): [number, number] {
    const first = this.peek();
    const start = this.i;
    const b = this.b;
    if (first === undefined) throw badJson("unexpected end of the file");
    if (first === QUOTE) {
      this.string();
      this.work.bytes += this.i - start;
      return [start, this.i];
    }
    if (first === OPEN_OBJ || first === OPEN_ARR) {
      let depth = 0;
      while (this.i < b.length) {
        const c = b[this.i] as number;
        if (c === QUOTE) {
          this.string();
          continue;
        }
        if (c === OPEN_OBJ || c === OPEN_ARR) depth++;
        else if (c === CLOSE_OBJ || c === CLOSE_ARR) {
          depth--;
          if (depth === 0) {
            this.i++;
            this.work.bytes += this.i - start;
            return [start, this.i];
          }
        }
        this.i++;
      }
      this.outOfBytes();
    }
    // A number or true/false/null: up to the next delimiter; JSON.parse of the piece checks it.
    while (this.i < b.length) {
      const c = b[this.i] as number;
      if (c === COMMA || c === CLOSE_OBJ || c === CLOSE_ARR || isSpace(c)) break;
      this.i++;
    }
    if (this.i === b.length && !this.w.final) throw NEED_MORE;
    if (this.i === start) throw badJson(`unexpected ${JSON.stringify(String.fromCharCode(first))} at byte ${this.at(start)}`);
    return [start, this.i];
  }

  /** Past a string. Most of a document's bytes are inside strings: the next quote is found natively. */
  private string(): void {
    const b = this.b;
    let from = this.i + 1;
    for (;;) {
      const q = b.indexOf(QUOTE, from);
      if (q < 0) {
        if (!this.w.final) throw NEED_MORE;
        throw badJson("unterminated string at the end of the file");
      }
      // Escaped when an odd number of backslashes stands before it.
      let slashes = 0;
      while (b[q - 1 - slashes] === BACKSLASH) slashes++;
      if (slashes % 2 === 0) {
        this.i = q + 1;
        return;
      }
      from = q + 1;
    }
  }

  /**
   * Past one element of an array, parsed. An article is a flat object, so it most likely ends at
   * the next "}" that is followed (past any white space) by "," and "{", or by "]": the bytes up to
   * it are parsed, and if they parse, that was its end (an object ends where its braces close, so no
   * shorter complete object starts at the same byte). Every candidate lies within the element, so
   * the work is bounded by the element's size times the few "}" looked at, never by what follows it;
   * past them it is scanned.
   */
  element(): { start: number; end: number; value: unknown } {
    this.peek();
    const b = this.b;
    const start = this.i;
    if (b[start] === OPEN_OBJ) {
      let from = start + 1;
      for (let looked = 0; looked < ELEMENT_LOOKS; looked++) {
        const j = b.indexOf(CLOSE_OBJ, from);
        if (j < 0) break;
        this.work.bytes += j + 1 - from;
        from = j + 1;
        const k = this.skipSpace(j + 1);
        const next = b[k];
        let candidate = next === CLOSE_ARR;
        if (next === COMMA) candidate = b[this.skipSpace(k + 1)] === OPEN_OBJ;
        if (!candidate) continue;
        let value: unknown;
        try {
          value = JSON.parse(this.decode(start, j + 1));
        } catch (e) {
          if (e instanceof ReplydError) throw e; // not UTF-8: no other end would change that
          continue;
        }
        this.i = j + 1;
        return { start, end: j + 1, value };
      }
    }
    const [s, e] = this.value();
    return { start: s, end: e, value: this.parse(s, e) };
  }

  /** The first non-space byte at or after `i`; runs for more when the window ends first. */
  private skipSpace(i: number): number {
    const b = this.b;
    while (i < b.length && isSpace(b[i] as number)) i++;
    if (i >= b.length && !this.w.final) throw NEED_MORE;
    return i;
  }

  /** Only white space may follow the document. */
  end(): void {
    for (;;) {
      while (this.i < this.b.length && isSpace(this.b[this.i] as number)) this.i++;
      if (this.i < this.b.length) throw badJson(`unexpected data after the document at byte ${this.at()}`);
      if (this.w.final) return;
      this.w.more(this.i);
      this.b = this.w.view();
      this.i = 0;
    }
  }

  /**
   * An array of articles, element by element: each is handed out parsed, with its place; `put`
   * gets the pieces of its canonical form (the element's own bytes, or re-serialized when `canonical`).
   */
  *articles(put: ((chunk: string | Uint8Array) => void) | null, canonical: boolean): Generator<ScannedRecord, void, undefined> {
    put?.("[");
    let n = 0;
    for (const el of this.elements()) {
      yield [el.value, n];
      if (put) {
        if (n) put(",");
        put(canonical ? JSON.stringify(el.value) : this.b.subarray(el.start, el.end));
      }
      n++;
    }
    put?.("]");
  }

  /** The elements of the array starting here, parsed, one at a time (the window holds the one given out). */
  *elements(): Generator<{ start: number; end: number; value: unknown }> {
    this.step(() => this.expect(OPEN_ARR));
    if (this.step(() => (this.peek() === CLOSE_ARR ? (this.i++, true) : false))) return;
    for (;;) {
      yield this.step(() => this.element());
      if (this.step(() => this.expect(COMMA, CLOSE_ARR)) === CLOSE_ARR) return;
    }
  }
}
