/**
 * Reads a document member by member, and its `articles` array element by element, through a
 * bounded window over its source (an upload spooled to disk, a backup file, or bytes already in
 * memory), so a 1M-article file is never one buffer, one string or one object graph in memory.
 * Each piece is decoded (strict UTF-8) and parsed with JSON.parse on its own, so the pieces are
 * exactly what JSON.parse of the whole would give; the scanner only checks the structure between
 * them. The document's sha256 is computed from the pieces, over the canonical form documentDigest()
 * uses.
 */
import { readSync } from "node:fs";
import { ReplydError } from "../base/errors.ts";

/** Where a document's bytes are read from. */
export interface ByteSource {
  readonly size: number;
  /** Copies up to `length` bytes from `position` into `into` at `offset`; answers how many (0 at the end). */
  read(into: Uint8Array, offset: number, length: number, position: number): number;
  /** The whole content, when it is in memory already: scanned in place, never copied. */
  readonly whole?: Uint8Array;
}

export const memorySource = (bytes: Uint8Array): ByteSource => ({
  size: bytes.length,
  whole: bytes,
  read(into, offset, length, position) {
    const piece = bytes.subarray(position, position + length);
    into.set(piece, offset);
    return piece.length;
  },
});

/** A file open for reading (an upload's spool file, a backup). */
export const fdSource = (fd: number, size: number): ByteSource => ({
  size,
  read: (into, offset, length, position) => readSync(fd, into, offset, length, position),
});

/** Bytes a reader holds at once, unless one piece (a member, a record) is larger. */
export const WINDOW_BYTES = 1 << 20;

const STRICT_UTF8 = new TextDecoder("utf-8", { fatal: true });
const [QUOTE, BACKSLASH, COMMA, COLON, OPEN_OBJ, CLOSE_OBJ, OPEN_ARR, CLOSE_ARR] = [0x22, 0x5c, 0x2c, 0x3a, 0x7b, 0x7d, 0x5b, 0x5d];

const badJson = (detail: string) => new ReplydError("bad_json", `the file is not valid JSON: ${detail}`);

/** An uploaded file's text; bytes that are not UTF-8 are refused rather than guessed at. */
export function decodeUtf8(bytes: Uint8Array): string {
  try {
    return STRICT_UTF8.decode(bytes);
  } catch {
    throw new ReplydError("bad_encoding", "the file is not UTF-8 text");
  }
}

const isSpace = (b: number) => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;

/** Thrown when a scan runs off the window before the source ends: the step is tried again with more bytes. */
const NEED_MORE = Symbol("need more");

/** The part of the source being scanned: [base, base + len). */
class Window {
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

/** "}" an element's quick end-finding looks at before it scans the element instead. */
const ELEMENT_LOOKS = 16;

/** Bytes a scan has searched or decoded: what its cost grows with (tests hold it linear in the document). */
export interface ScanWork {
  bytes: number;
}

class Scanner {
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

export interface DocumentScan {
  /** The document was a bare JSON array of articles (no members, no digest). */
  bare: boolean;
  /** The members other than an `articles` array, parsed, in document order. */
  members: Map<string, unknown>;
  /** Where the `articles` array starts (its "["), to read it again; -1 when the document has none. */
  articlesAt: number;
  /** The sha256 of the document's canonical form (as documentDigest() computes it) when asked for, else "". */
  digest: string;
}

export type DigestMode = "none" | "bytes" | "canonical";

/** An article record as scanned: parsed, not checked, and its place in the array. */
export type ScannedRecord = [record: unknown, index: number];

const INTEGER_LIKE = /^(0|[1-9]\d*)$/;

/**
 * One pass over a document: its members, and every article handed to `each`. With a digest mode,
 * the document's canonical form is hashed on the way: "bytes" hashes the articles' bytes as they
 * are, which is the canonical form for a document replyd wrote (compact); "canonical" re-serializes
 * them (a document pretty-printed or edited). Answers null for what this reader does not take
 * apart the way JSON.parse of the whole would (a top-level key repeated, or integer-like — JSON
 * puts those first): the caller parses such a file whole.
 */
export function scanDocument(
  src: ByteSource,
  opts: { each?: (record: unknown, index: number) => void; digest?: DigestMode; window?: number; work?: ScanWork } = {},
): DocumentScan | null {
  const steps = scanSteps(src, opts);
  for (let step = steps.next(); ; step = steps.next()) {
    if (step.done) return step.value;
    opts.each?.(step.value[0], step.value[1]);
  }
}

/** scanDocument(), handing out each article as it is reached: whoever pulls the records may pause between them. */
export function* scanSteps(src: ByteSource, opts: { digest?: DigestMode; window?: number; work?: ScanWork } = {}): Generator<ScannedRecord, DocumentScan | null, undefined> {
  const s = new Scanner(new Window(src, 0, opts.window ?? WINDOW_BYTES), 0, opts.work);
  // A BOM, as TextDecoder drops it.
  s.step(() => {
    if (s.b.length - s.i < 3 && !s.w.final) throw NEED_MORE;
    if (s.b[s.i] === 0xef && s.b[s.i + 1] === 0xbb && s.b[s.i + 2] === 0xbf) s.i += 3;
  });
  const first = s.step(() => s.peek());
  // Not an object or an array: no document at all, which the whole-file parser words best.
  if (first !== OPEN_OBJ && first !== OPEN_ARR) return null;
  const members = new Map<string, unknown>();
  if (first === OPEN_ARR) {
    const articlesAt = s.at();
    yield* s.articles(null, false);
    s.end();
    return { bare: true, members, articlesAt, digest: "" };
  }
  const mode = opts.digest ?? "none";
  const hasher = mode === "none" ? null : new Bun.CryptoHasher("sha256");
  const put = hasher && ((chunk: string | Uint8Array) => void hasher.update(chunk));
  let articlesAt = -1;
  let firstOut = true;
  s.step(() => s.expect(OPEN_OBJ));
  put?.("{");
  if (!s.step(() => (s.peek() === CLOSE_OBJ ? (s.i++, true) : false)))
    for (;;) {
      const key = s.step(() => {
        if (s.peek() !== QUOTE) throw badJson(`expected a member name at byte ${s.at()}`);
        const [ks, ke] = s.value();
        return s.parse(ks, ke) as string;
      });
      if (members.has(key) || (key === "articles" && articlesAt >= 0) || INTEGER_LIKE.test(key)) return null;
      s.step(() => s.expect(COLON));
      const isArray = s.step(() => s.peek() === OPEN_ARR);
      // The digest leaves the sha256 member out.
      if (key !== "sha256") {
        put?.(`${firstOut ? "" : ","}${JSON.stringify(key)}:`);
        firstOut = false;
      }
      // An articles member that is not an array is parsed like the others, for validation to refuse.
      if (key === "articles" && isArray) {
        articlesAt = s.at(s.i + 0);
        yield* s.articles(put, mode === "canonical");
      } else {
        const value = s.step(() => {
          const [vs, ve] = s.value();
          return s.parse(vs, ve);
        });
        members.set(key, value);
        if (key !== "sha256") put?.(JSON.stringify(value));
      }
      if (s.step(() => s.expect(COMMA, CLOSE_OBJ)) === CLOSE_OBJ) break;
    }
  put?.("}");
  s.end();
  return { bare: false, members, articlesAt, digest: hasher ? hasher.digest("hex") : "" };
}

/** The articles array found at `at` by scanDocument, read again element by element. */
export function readArticles(src: ByteSource, at: number, each: (record: unknown, index: number) => void, window = WINDOW_BYTES): void {
  let n = 0;
  for (const record of articleValues(src, at, window)) each(record, n++);
}

/** The same, pulled one at a time: a reader that awaits between records (a database write) holds one window. */
export function* articleValues(src: ByteSource, at: number, window = WINDOW_BYTES): Generator<unknown> {
  for (const el of new Scanner(new Window(src, at, window), at).elements()) yield el.value;
}

/** The sha256 a document replyd wrote carries as its last member, read from the last bytes alone. */
export function trailingSha256(src: ByteSource): string | null {
  const len = Math.min(src.size, 96);
  const tail = new Uint8Array(len);
  let got = 0;
  while (got < len) {
    const n = src.read(tail, got, len - got, src.size - len + got);
    if (n === 0) break;
    got += n;
  }
  return /"sha256":"([0-9a-f]{64})"\}\s*$/.exec(Buffer.from(tail.subarray(0, got)).toString("latin1"))?.[1] ?? null;
}

/** The whole source in memory (for the rare file the piecewise reader leaves to JSON.parse). */
export function readAll(src: ByteSource): Uint8Array {
  if (src.whole) return src.whole;
  const out = new Uint8Array(src.size);
  let got = 0;
  while (got < src.size) {
    const n = src.read(out, got, src.size - got, got);
    if (n === 0) break;
    got += n;
  }
  return out.subarray(0, got);
}
