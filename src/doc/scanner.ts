/**
 * Reads a document member by member, and its `articles` array element by element, through a
 * bounded window over its source (byte-source.ts, window.ts), so a 1M-article file is never one
 * buffer, one string or one object graph in memory. The pieces are found and parsed by
 * json-scanner.ts, exactly as JSON.parse of the whole would give them; this file knows what they
 * are: the members, the articles, where the array starts to read it again, and the document's
 * sha256, computed from the pieces over the canonical form documentDigest() uses.
 */
import type { ByteSource } from "./byte-source.ts";
import { badJson, CLOSE_OBJ, COLON, COMMA, JsonScanner, NEED_MORE, OPEN_ARR, OPEN_OBJ, QUOTE, type ScannedRecord, type ScanWork } from "./json-scanner.ts";
import { Window, WINDOW_BYTES } from "./window.ts";

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
  const s = new JsonScanner(new Window(src, 0, opts.window ?? WINDOW_BYTES), 0, opts.work);
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
  for (const el of new JsonScanner(new Window(src, at, window), at).elements()) yield el.value;
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
