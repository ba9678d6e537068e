/**
 * Reads a document's bytes member by member, and its `articles` array element by element, without
 * decoding the whole file into one string or parsing it into one object graph: a 1M-article
 * upload (300 MB) otherwise lives in memory four times over (the bytes, their string, the parsed
 * graph, the validated records). Each piece is decoded (strict UTF-8) and parsed with JSON.parse on
 * its own, so the pieces are exactly what JSON.parse of the whole would give; the scanner only
 * checks the structure between them. The document's sha256 is computed from the pieces, over the
 * same canonical form documentDigest() uses.
 */
import { ReplydError } from "./errors.ts";

const STRICT_UTF8 = new TextDecoder("utf-8", { fatal: true });
const [QUOTE, BACKSLASH, COMMA, COLON, OPEN_OBJ, CLOSE_OBJ, OPEN_ARR, CLOSE_ARR] = [0x22, 0x5c, 0x2c, 0x3a, 0x7b, 0x7d, 0x5b, 0x5d];

const badJson = (detail: string) => new ReplydError("bad_json", 400, `the file is not valid JSON: ${detail}`);

/** An uploaded file's text; bytes that are not UTF-8 are refused rather than guessed at. */
export function decodeUtf8(bytes: Uint8Array): string {
  try {
    return STRICT_UTF8.decode(bytes);
  } catch {
    throw new ReplydError("bad_encoding", 400, "the file is not UTF-8 text");
  }
}

const decode = (bytes: Uint8Array, start: number, end: number): string => decodeUtf8(bytes.subarray(start, end));

function parse(bytes: Uint8Array, start: number, end: number): unknown {
  const text = decode(bytes, start, end);
  try {
    return JSON.parse(text);
  } catch (e) {
    throw badJson(`${(e as Error).message} (in the value at byte ${start})`);
  }
}

const isSpace = (b: number) => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;

class Scanner {
  i: number;
  constructor(
    readonly bytes: Uint8Array,
    start: number,
  ) {
    this.i = start;
  }

  skipSpace(): void {
    while (this.i < this.bytes.length && isSpace(this.bytes[this.i] as number)) this.i++;
  }

  /** The next non-space byte, consumed only when it is `expected` (one of them). */
  expect(...expected: number[]): number {
    this.skipSpace();
    const b = this.bytes[this.i];
    if (b === undefined) throw badJson("unexpected end of the file");
    if (!expected.includes(b)) throw badJson(`unexpected ${JSON.stringify(String.fromCharCode(b))} at byte ${this.i}`);
    this.i++;
    return b;
  }

  /** Past one value: a string, an object or array (brackets counted outside strings), or a literal. Answers its range. */
  value(): [number, number] {
    this.skipSpace();
    const start = this.i;
    const b = this.bytes;
    const first = b[this.i];
    if (first === undefined) throw badJson("unexpected end of the file");
    if (first === QUOTE) {
      this.string();
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
            return [start, this.i];
          }
        }
        this.i++;
      }
      throw badJson("unexpected end of the file");
    }
    // A number or true/false/null: up to the next delimiter; JSON.parse of the piece checks it.
    while (this.i < b.length) {
      const c = b[this.i] as number;
      if (c === COMMA || c === CLOSE_OBJ || c === CLOSE_ARR || isSpace(c)) break;
      this.i++;
    }
    if (this.i === start) throw badJson(`unexpected ${JSON.stringify(String.fromCharCode(first))} at byte ${start}`);
    return [start, this.i];
  }

  /** Past a string. Most of a document's bytes are inside strings: the next quote is found natively. */
  private string(): void {
    const b = this.bytes;
    let from = this.i + 1;
    for (;;) {
      const q = b.indexOf(QUOTE, from);
      if (q < 0) throw badJson("unterminated string at the end of the file");
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
   * Past one element of an array, parsed. A document replyd wrote is compact, so an object element
   * most likely ends at the next "}" before "," + "{" or "]": the bytes up to it are parsed, and if
   * they parse, that was its end (an object ends where its braces close, so no shorter complete
   * object starts at the same byte). A few misses (such brackets inside strings) and it is scanned.
   */
  element(): { start: number; end: number; value: unknown } {
    this.skipSpace();
    const b = this.bytes;
    const start = this.i;
    if (b[start] === OPEN_OBJ) {
      let from = start + 1;
      for (let tries = 0; tries < 8; ) {
        const j = b.indexOf(CLOSE_OBJ, from);
        if (j < 0) break;
        from = j + 1;
        const next = b[j + 1];
        if (!((next === COMMA && b[j + 2] === OPEN_OBJ) || next === CLOSE_ARR)) continue;
        tries++;
        let value: unknown;
        try {
          value = JSON.parse(decode(b, start, j + 1));
        } catch (e) {
          if (e instanceof ReplydError) throw e; // not UTF-8: no other end would change that
          continue;
        }
        this.i = j + 1;
        return { start, end: j + 1, value };
      }
    }
    const [s, e] = this.value();
    return { start: s, end: e, value: parse(b, s, e) };
  }

  end(): void {
    this.skipSpace();
    if (this.i < this.bytes.length) throw badJson(`unexpected data after the document at byte ${this.i}`);
  }
}

export interface SplitDocument {
  /** The document was a bare JSON array of articles (no members, no digest). */
  bare: boolean;
  /** The members other than an `articles` array, parsed, in document order. */
  members: Map<string, unknown>;
  /** Whether the document has an `articles` array (or is a bare one). */
  hasArticles: boolean;
  /**
   * Calls `each` with every element of the articles array, parsed, in order; answers the sha256 of
   * the document's canonical form (its compact JSON without `sha256`, as documentDigest() computes
   * it) when the document carries a sha256 to check, else "". Once only.
   */
  read(each: (record: unknown, index: number) => void): string;
}

const INTEGER_LIKE = /^(0|[1-9]\d*)$/;

/**
 * Splits a document's bytes. Answers null for what this reader does not take apart the way
 * JSON.parse of the whole would (a top-level key repeated, or integer-like — JSON puts those
 * first): the caller parses such a file whole, as before.
 */
export function splitDocument(bytes: Uint8Array): SplitDocument | null {
  const s = new Scanner(bytes, bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0); // a BOM, as TextDecoder drops it
  s.skipSpace();
  const members = new Map<string, unknown>();
  const order: string[] = [];
  const seen = new Set<string>();
  let articles: [number, number] | null = null;
  // Not an object or an array: no document at all, which the whole-file parser words best.
  if (bytes[s.i] !== OPEN_OBJ && bytes[s.i] !== OPEN_ARR) return null;
  const bare = bytes[s.i] === OPEN_ARR;
  if (bare) articles = s.value();
  else {
    s.expect(OPEN_OBJ);
    s.skipSpace();
    if (bytes[s.i] === CLOSE_OBJ) s.i++;
    else
      for (;;) {
        s.skipSpace();
        if (bytes[s.i] !== QUOTE) throw badJson(`expected a member name at byte ${s.i}`);
        const [ks, ke] = s.value();
        const key = parse(bytes, ks, ke) as string;
        if (seen.has(key) || INTEGER_LIKE.test(key)) return null;
        seen.add(key);
        order.push(key);
        s.expect(COLON);
        const [vs, ve] = s.value();
        // An articles member that is not an array is parsed like the others, for validation to refuse.
        if (key === "articles" && bytes[vs] === OPEN_ARR) articles = [vs, ve];
        else members.set(key, parse(bytes, vs, ve));
        if (s.expect(COMMA, CLOSE_OBJ) === CLOSE_OBJ) break;
      }
  }
  s.end();
  let read = false;
  /**
   * The digest over the document's canonical form. A document replyd wrote is compact already, so
   * its pieces' bytes are hashed as they are; only when that does not give the sha256 it carries
   * (a document pretty-printed, or edited) are the pieces hashed again in canonical form.
   */
  const digest = (mode: "none" | "bytes" | "canonical", each?: (record: unknown, index: number) => void): string => {
    const hasher = new Bun.CryptoHasher("sha256");
    const canonical = mode === "canonical";
    let first = true;
    const put = mode === "none" ? () => {} : (chunk: string | Uint8Array) => void hasher.update(chunk);
    if (!bare) put("{");
    for (const key of bare ? ["articles"] : order) {
      if (key === "sha256") continue;
      if (!bare) put(`${first ? "" : ","}${JSON.stringify(key)}:`);
      first = false;
      if (key !== "articles" || !articles) {
        put(JSON.stringify(members.get(key)));
        continue;
      }
      const a = new Scanner(bytes, articles[0]);
      a.expect(OPEN_ARR);
      put("[");
      a.skipSpace();
      if (bytes[a.i] === CLOSE_ARR) a.i++;
      else
        for (let n = 0; ; n++) {
          const { start: es, end: ee, value } = a.element();
          if (n) put(",");
          each?.(value, n);
          put(canonical ? JSON.stringify(value) : bytes.subarray(es, ee));
          if (a.expect(COMMA, CLOSE_ARR) === CLOSE_ARR) break;
        }
      put("]");
    }
    if (!bare) put("}");
    return mode === "none" ? "" : hasher.digest("hex");
  };
  const carried = members.get("sha256");
  return {
    bare,
    members,
    hasArticles: articles !== null,
    read(each) {
      if (read) throw new Error("a split document is read once");
      read = true;
      // Without a sha256 to check there is nothing to compute; with one, the bytes usually match.
      if (typeof carried !== "string") return digest("none", each);
      const quick = digest("bytes", each);
      return quick === carried ? quick : digest("canonical");
    },
  };
}
