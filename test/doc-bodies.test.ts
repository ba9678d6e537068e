/** A document's bodies reduced once, a slice at a time, and read back by every later pass (src/doc/bodies.ts). */
import { describe, expect, test } from "bun:test";
import type { ArticleInput } from "../src/article/article.ts";
import { bodyText } from "../src/article/body-text.ts";
import { bodyReducedAhead, KeptBodies, menuFromBytesSliced, readDocumentSliced } from "../src/doc/bodies.ts";
import { memorySource } from "../src/doc/byte-source.ts";
import { InvalidDocumentError } from "../src/base/errors.ts";
import { Slices } from "../src/base/slices.ts";
import { article, doc } from "./helpers.ts";
import { CountedSlices } from "./loop.ts";

const MIB = 1 << 20;
const fill = (s: string, bytes = MIB - 1024) => s.repeat(Math.floor(bytes / s.length));
/** Bodies of about 1 MiB, each 30-90 ms to reduce at once, that keep little: nested, hidden, styled. */
const HEAVY = [fill("<b>"), fill("<div hidden>"), fill('<i style="a:b">'), fill("<p hidden>a"), `<p>kept ${"x".repeat(100)}</p>` + fill("<span>")];
const heavy = (i: number) => HEAVY[i % HEAVY.length] as string;
const bytes = (text: string) => new TextEncoder().encode(text);

/**
 * Reads `text` as the server reads an upload: the bodies reduced in slices (that the loop runs
 * meanwhile is counted by the tests, CountedSlices), then a later pass, as the write's: synchronous,
 * as on SQLite, and timed apart (`againMs`) — it is one transaction by design, not a part of the reduction.
 */
async function read(text: string, window?: number) {
  const bodies = new KeptBodies();
  try {
    // Encoded before the watch: 16 MiB through TextEncoder is the test's own work, not the reading's.
    const source = memorySource(bytes(text));
    const doc = await readDocumentSliced(source, bodies, window ? { window } : {});
    const records: ArticleInput[] = [];
    const started = performance.now();
    doc.articles?.each((a) => records.push(a));
    return { doc, records, againMs: performance.now() - started };
  } finally {
    bodies.close();
  }
}

describe("a document read with its bodies reduced in slices", () => {
  const articles = Array.from({ length: 16 }, (_, i) => article(i, { body: heavy(i) }));
  const text = doc(articles);

  // That the loop runs meanwhile is counted below, not timed: a 50 ms bound on the loop's longest
  // hold failed on a loaded 2-core machine (a fresh clone's run, Session 39).
  test("16 bodies of 1 MiB read in slices: each body is what bodyText() gives", async () => {
    const { records } = await read(text, 64 * 1024);
    expect(records.map((a) => a.body)).toEqual(articles.map((_, i) => bodyText(heavy(i))));
    expect(records[4]?.body).toBe(`kept ${"x".repeat(100)}`);
  });

  // Counted, not timed: slices spent after eight asks on any machine's clock.
  test("the reading pauses when its slices are spent: at least once per 16 KiB of the 16 MiB of bodies", async () => {
    const bodies = new KeptBodies();
    try {
      const slices = new CountedSlices(8);
      await readDocumentSliced(memorySource(bytes(text)), bodies, { window: 64 * 1024, slices });
      expect(slices.pauses).toBeGreaterThanOrEqual((16 * MIB) / (16 * 1024));
      expect(bodies.of(4)(heavy(4))).toBe(`kept ${"x".repeat(100)}`);
    } finally {
      bodies.close();
    }
  });

  // Reducing them again would take 16 times 30-90 ms; reading them back, a few milliseconds.
  test("a pass after the first reads the kept text back instead of reducing again", async () => {
    const { againMs, records } = await read(text);
    expect(records).toHaveLength(16);
    expect(againMs).toBeLessThan(100);
  });

  // Four bodies: such a file is parsed whole at once (4 MiB, a few milliseconds), not a record at a time.
  const four = articles.slice(0, 4);

  test("a document the piecewise reader leaves to JSON.parse (a member repeated) is reduced in slices too", async () => {
    const repeated = doc(four).replace('{"format":"replyd/1",', '{"format":"replyd/1","format":"replyd/1",');
    const { records } = await read(repeated);
    expect(records.map((a) => a.body)).toEqual(four.map((_, i) => bodyText(heavy(i))));
    const bodies = new KeptBodies();
    try {
      const slices = new CountedSlices(8);
      await readDocumentSliced(memorySource(bytes(repeated)), bodies, { slices });
      expect(slices.pauses).toBeGreaterThanOrEqual((4 * MIB) / (16 * 1024));
    } finally {
      bodies.close();
    }
  });

  test("a menu file that is a whole document: its bodies are reduced in slices", async () => {
    const menu = { button: [{ type: "click" as const, name: "Help", key: "help" }] };
    const bodies = new KeptBodies();
    try {
      expect(await menuFromBytesSliced(bytes(doc(four, { menu })), bodies)).toEqual(menu);
      const counted = new KeptBodies();
      const slices = new CountedSlices(8);
      try {
        await menuFromBytesSliced(bytes(doc(four, { menu })), counted, slices);
      } finally {
        counted.close();
      }
      expect(slices.pauses).toBeGreaterThanOrEqual((4 * MIB) / (16 * 1024));
    } finally {
      bodies.close();
    }
  });

  test("one article's body (add, set): reduced in slices, the check gets the text kept", async () => {
    const slices = new CountedSlices(8);
    const reduce = await bodyReducedAhead(heavy(4), slices);
    expect(slices.pauses).toBeGreaterThanOrEqual(MIB / (16 * 1024));
    expect(reduce?.(heavy(4))).toBe(`kept ${"x".repeat(100)}`);
    // Any other text is reduced as it comes.
    expect(reduce?.("<p>other</p>")).toBe("other");
    expect(await bodyReducedAhead(undefined)).toBeUndefined();
  });
});

describe("what is kept for a record", () => {
  test("only for the body it was kept for: another at the same place is reduced as it comes", async () => {
    const bodies = new KeptBodies();
    try {
      await bodies.reduce({ body: "<p>one</p>" }, 0, new Slices());
      expect(bodies.of(0)("<p>one</p>")).toBe("one");
      expect(bodies.of(0)("<p>two</p>")).toBe("two");
      expect(bodies.of(1)("<p>three</p>")).toBe("three");
    } finally {
      bodies.close();
    }
  });

  test("a lone surrogate comes back as it went, for the check to refuse the record", async () => {
    const error = await read(doc([article(1, { body: "<p>a\ud800b</p>" })])).catch((e) => e);
    expect(error).toBeInstanceOf(InvalidDocumentError);
    expect(JSON.stringify(error.details)).toContain('"field":"body"');
  });

  test("a body over 1 MiB as sent is not reduced: the document is refused, naming it", async () => {
    const error = await read(doc([article(1), article(2, { body: "<b>".repeat(MIB / 3 + 1) })])).catch((e) => e);
    expect(error).toBeInstanceOf(InvalidDocumentError);
    expect(JSON.stringify(error.details)).toMatch(/"index":1,"field":"body","reason":"must be at most 1 MiB/);
  });
});
