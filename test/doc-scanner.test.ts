/** Reading a document's bytes article by article (src/doc/scanner.ts) gives what parsing it whole gives. */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { DocumentWriter } from "../src/doc/document-writer.ts";
import type { ReplydDocument } from "../src/doc/document.ts";
import { parseDocumentBytes, readDocument } from "../src/doc/reading.ts";
import { decodeUtf8 } from "../src/doc/file-text.ts";
import { parseDocument } from "../src/doc/validation.ts";
import { memorySource, type ByteSource } from "../src/doc/byte-source.ts";
import { scanDocument } from "../src/doc/scanner.ts";
import { ReplydError } from "../src/base/errors.ts";
import { documentArb } from "./property/arbitraries.ts";
import { CODE } from "../src/base/errors.ts";

const enc = (s: string) => new TextEncoder().encode(s);

/** The outcome of a parse: the document, or the error's code and message. */
function outcome(parse: () => unknown): unknown {
  try {
    const { bare: _bare, ...doc } = parse() as Record<string, unknown>;
    // Bare arrays get the time of parsing: not part of what is compared; nor that the file reader says it was bare (tested below).
    return { ...doc, created_at: typeof doc.created_at === "string" ? "(time)" : doc.created_at };
  } catch (e) {
    if (!(e instanceof ReplydError)) throw e;
    return { code: e.code, details: e.details };
  }
}
/** Bytes read the way a file is: a piece at a time, through a window of `window` bytes that grows only for a larger piece. */
const asFile = (bytes: Uint8Array): ByteSource => {
  const { size, read } = memorySource(bytes);
  return { size, read };
};
/** A document read from a file in bounded memory, its articles then read again from it. */
function fromFile(bytes: Uint8Array, window: number): ReplydDocument {
  const doc = readDocument(asFile(bytes), { window });
  if (!doc.articles) return doc as ReplydDocument;
  const articles: NonNullable<ReplydDocument["articles"]> = [];
  doc.articles.each((a) => articles.push(a));
  return { ...doc, articles };
}
/**
 * As the server parsed uploads before: the bytes decoded whole (a BOM dropped), then parsed whole;
 * and the same again read from a "file" through windows of 16 bytes (every piece crosses an edge)
 * and of 64.
 */
const same = (text: string) => {
  const whole = outcome(() => parseDocument(decodeUtf8(enc(text))));
  expect(outcome(() => parseDocumentBytes(enc(text)))).toEqual(whole);
  expect(outcome(() => fromFile(enc(text), 16))).toEqual(whole);
  expect(outcome(() => fromFile(enc(text), 64))).toEqual(whole);
};

/** A document as replyd writes it, sha256 last. */
function written(members: Record<string, unknown>): string {
  let out = "";
  const w = new DocumentWriter((c) => void (out += c), "all", "2026-11-21T10:00:00.000Z");
  for (const [k, v] of Object.entries(members)) w.field(k as "articles", v);
  w.finish();
  return out;
}

describe("the same answers as parsing the whole file", () => {
  test("for generated valid documents, compact and pretty-printed, and with their sha256", () => {
    fc.assert(
      fc.property(documentArb, fc.boolean(), (raw, pretty) => {
        same(pretty ? JSON.stringify(raw, null, 2) : JSON.stringify(raw));
        same(written({ articles: (raw as { articles: unknown[] }).articles }));
      }),
      { numRuns: 150 },
    );
  });
  test("for generated documents cut short or with bytes changed", () => {
    fc.assert(
      fc.property(documentArb, fc.nat(), fc.nat({ max: 40 }), fc.string({ maxLength: 8 }), (raw, at, cut, insert) => {
        const text = written({ articles: (raw as { articles: unknown[] }).articles, tags: { a: "b" } });
        const i = at % text.length;
        same(text.slice(0, i) + insert + text.slice(i + cut));
      }),
      { numRuns: 300 },
    );
  });
  test("strings holding brackets, quotes and escapes; nested arrays; a BOM; a bare array", () => {
    const a = { id: "x1", code: "c]1", title: 'He said "}{][" \\ \u2028 \ud83d\ude00', url: "https://e.com/?q=[1]", keywords: ["a,b", "]", "\\\""] };
    same(JSON.stringify({ format: "replyd/1", matter: "articles", articles: [a] }));
    same("\ufeff" + JSON.stringify({ format: "replyd/1", matter: "articles", articles: [a] }));
    same(`  [ ${JSON.stringify(a)} ,\n ${JSON.stringify({ ...a, id: "x2", code: "c2" })} ]  `);
    same(written({ articles: [a] }));
  });
  test("what the reader leaves to the whole-file parser: repeated or integer-like top-level keys", () => {
    const repeated = '{"format":"replyd/1","matter":"articles","articles":[],"articles":[{"id":"a","title":"t","url":"https://e.com/"}]}';
    expect(scanDocument(memorySource(enc(repeated)))).toBeNull();
    same(repeated);
    expect(scanDocument(asFile(enc('{"1":2,"format":"replyd/1"}')), { window: 16 })).toBeNull();
  });
  test("repeated ids and codes (codes ignoring case, deleted ones aside) are found the same way, read again from the file", () => {
    const rec = (id: string, code: string, deleted = false) => ({ id, code, title: "t", url: "https://e.com/", deleted });
    same(written({ articles: [rec("a1", "Ab"), rec("a2", "ab"), rec("a1", "c"), rec("a3", "AB", true), rec("a4", "d"), rec("a2", "D")] }));
    same(JSON.stringify({ format: "replyd/1", matter: "articles", articles: [rec("x", "q"), { title: "no id", url: "https://e.com/", code: "Q" }] }));
  });
  test("articles that is not an array, and documents that are no object", () => {
    same('{"format":"replyd/1","matter":"articles","articles":{"id":"a"}}');
    same("42");
    same('"text"');
    same("null");
  });
});

describe("refusals", () => {
  test("an edited article is a checksum mismatch, found from the pieces", () => {
    const text = written({ articles: [{ id: "a1", title: "Title", url: "https://e.com/" }] });
    expect(() => parseDocumentBytes(enc(text.replace("Title", "Tit1e")))).toThrow("does not match its content");
    expect(parseDocumentBytes(enc(text)).articles).toHaveLength(1);
  });
  test("a backup pretty-printed by hand still verifies: its sha256 is over the canonical form, not the bytes", () => {
    const text = written({ articles: [{ id: "a1", title: "Title", url: "https://e.com/", keywords: ["x", "y"] }], tags: { t: "T" } });
    const pretty = JSON.stringify(JSON.parse(text), null, 2);
    expect(parseDocumentBytes(enc(pretty)).articles).toHaveLength(1);
    expect(() => parseDocumentBytes(enc(pretty.replace('"Title"', '"Tit1e"')))).toThrow("does not match its content");
  });
  test("invalid UTF-8 inside an article is refused as not UTF-8; truncated files and trailing data as not JSON", () => {
    const text = written({ articles: [{ id: "a1", title: "Title", url: "https://e.com/" }] });
    const bytes = enc(text);
    const bad = bytes.slice();
    bad.set([0xc3, 0x28], text.indexOf("Title"));
    expect(outcome(() => parseDocumentBytes(bad))).toMatchObject({ code: CODE.bad_encoding });
    expect(outcome(() => parseDocumentBytes(bytes.subarray(0, bytes.length - 5)))).toMatchObject({ code: CODE.bad_json });
    expect(outcome(() => parseDocumentBytes(enc(text + " {}")))).toMatchObject({ code: CODE.bad_json });
    expect(outcome(() => parseDocumentBytes(enc('{"format":"replyd/1" "matter":"all"}')))).toMatchObject({ code: CODE.bad_json });
  });
});

describe("work per article does not grow with the document", () => {
  const article = (i: number) => ({ id: `a-${i}`, code: `c${i}`, title: `Title ${i} 标题`, url: `https://e.com/${i}`, keywords: ["x", `k${i}`] });
  const doc = (n: number) => ({ format: "replyd/1", matter: "articles", articles: Array.from({ length: n }, (_, i) => article(i)), tags: { t: "T" } });
  // The layouts people's tools write: compact; Python's json.dump defaults (", " and ": "); indent=2; tabs with CRLF.
  const layouts: Record<string, (d: unknown) => string> = {
    compact: (d) => JSON.stringify(d),
    "python json.dump": (d) => JSON.stringify(d).replace(/,(?=["{\[])/g, ", ").replace(/":(?=["{\[\d])/g, '": '),
    "indent 2": (d) => JSON.stringify(d, null, 2),
    "tabs, CRLF": (d) => JSON.stringify(d, null, "\t").replace(/\n/g, "\r\n"),
  };
  /** Bytes searched or decoded per byte of the document, read whole in memory and through a 4 KiB window. */
  function workPerByte(text: string): { whole: number; windowed: number } {
    const bytes = enc(text);
    const ratio = (src: ByteSource, window?: number) => {
      const work = { bytes: 0 };
      let n = 0;
      const scan = scanDocument(src, { each: () => n++, work, window });
      expect(scan).not.toBeNull();
      expect(n).toBeGreaterThan(0);
      return work.bytes / bytes.length;
    };
    return { whole: ratio(memorySource(bytes)), windowed: ratio(asFile(bytes), 4096) };
  }
  for (const [name, layout] of Object.entries(layouts))
    test(`${name}: 2,000 articles cost per byte what 200 do`, () => {
      const small = workPerByte(layout(doc(200)));
      const large = workPerByte(layout(doc(2000)));
      // Each byte is searched about once and decoded about once; a scan that looks past its element grows with n.
      for (const k of ["whole", "windowed"] as const) {
        expect(large[k]).toBeLessThan(3);
        expect(large[k]).toBeLessThan(small[k] * 1.1);
      }
      expect(JSON.stringify(parseDocumentBytes(enc(layout(doc(2000)))).articles)).toBe(JSON.stringify(parseDocumentBytes(enc(JSON.stringify(doc(2000)))).articles));
    });
});

test("the file reader says when what it read was a bare array of articles (a restore refuses one), and only then", () => {
  const one = JSON.stringify([{ id: "x1", title: "T", url: "https://e.com/1" }]);
  expect(readDocument(asFile(enc(one)), { window: 64 }).bare).toBe(true);
  expect(readDocument(asFile(enc(`\uFEFF  ${one}`)), { window: 64 }).bare).toBe(true);
  expect(readDocument(asFile(enc(JSON.stringify({ format: "replyd/1", matter: "articles", articles: JSON.parse(one) }))), { window: 64 }).bare).toBeUndefined();
});
