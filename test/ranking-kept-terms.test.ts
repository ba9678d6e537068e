/** Candidates' terms kept between questions, bounded (src/ranking/kept-terms.ts). */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { forgetKept, KEPT, keptCounts, keptSizes } from "../src/ranking/kept-terms.ts";
import { rank } from "../src/ranking/rank.ts";
import { SynonymTable, withSynonyms } from "../src/ranking/synonyms.ts";
import { termsOf } from "../src/ranking/words.ts";
import { MemorySource } from "../bench/eval/memory-source.ts";
import { loadSet } from "../bench/eval/sets.ts";

const BOUNDS = { ...KEPT };
beforeEach(() => forgetKept());
afterEach(() => {
  Object.assign(KEPT, BOUNDS);
  forgetKept();
});

const zh = loadSet("faq-zh").accounts[0];
const en = loadSet("faq-en").accounts[0];
if (!zh || !en) throw new Error("the FAQ sets are missing from bench/eval");
const sourceOf = (acc: NonNullable<typeof zh>) => new MemorySource(acc.articles);

describe("an article's terms kept between questions", () => {
  test("each question ranks the same counted afresh, while its candidates are numbered and kept, and read from what was kept, in Chinese and English", () => {
    for (const acc of [zh, en]) {
      const source = sourceOf(acc);
      const questions = acc.questions.slice(0, 25).map((q) => q.q);
      // Nothing kept before each question: every candidate counted as it is read.
      const afresh = questions.map((q) => (forgetKept(), rank({ text: q }, source)));
      forgetKept();
      const keeping = questions.map((q) => rank({ text: q }, source));
      expect(keptSizes().articles).toBeGreaterThan(5);
      const kept = questions.map((q) => rank({ text: q }, source));
      expect(keeping).toEqual(afresh);
      expect(kept).toEqual(afresh);
      forgetKept();
    }
  });

  test("a follow-up's ranking (the earlier question's terms wanted too) is the same read from what was kept", () => {
    const source = sourceOf(zh);
    const [a, b] = zh.questions.map((q) => q.q);
    const asked = { text: b as string, context: a as string };
    const first = rank(asked, source);
    rank(asked, source);
    expect(keptSizes().articles).toBeGreaterThan(0);
    expect(rank(asked, source)).toEqual(first);
  });

  test("no more numbers are kept than KEPT.numbers: the articles used longest ago go first", () => {
    const source = sourceOf(zh);
    const questions = zh.questions.map((q) => q.q);
    for (const q of questions) rank({ text: q }, source), rank({ text: q }, source);
    const all = keptSizes();
    expect(all.articles).toBeGreaterThan(4);
    forgetKept();
    // Room for about a quarter of them.
    KEPT.numbers = Math.floor(all.numbers / 4);
    for (const q of questions) rank({ text: q }, source), rank({ text: q }, source);
    const bounded = keptSizes();
    expect(bounded.numbers).toBeLessThanOrEqual(KEPT.numbers);
    expect(bounded.numbers).toBeGreaterThan(0);
    expect(bounded.articles).toBeLessThan(all.articles);
    // What is left still ranks as counting afresh does.
    const q = questions[questions.length - 1] as string;
    const again = rank({ text: q }, source);
    forgetKept();
    expect(again).toEqual(rank({ text: q }, source));
  });

  test("an article holding more numbers than KEPT.numbers alone is read, not kept", () => {
    KEPT.numbers = 5;
    const source = sourceOf(en);
    const q = en.questions[0]?.q as string;
    const counted = rank({ text: q }, source);
    expect(rank({ text: q }, source)).toEqual(counted);
    expect(keptSizes()).toMatchObject({ articles: 0, numbers: 0 });
    expect(keptSizes().terms).toBeGreaterThan(0);
  });

  test("no more articles seen once are remembered than KEPT.seen", () => {
    KEPT.seen = 3;
    const wanted = new Set(["hold"]);
    const seenAfter = [1, 2, 3, 4, 5].map((i) => {
      const text = `Article ${i} holds what it holds.`;
      keptCounts(`Title ${i}`, text, [{ start: 0, end: text.length }], wanted);
      return keptSizes().seen;
    });
    expect(seenAfter).toEqual([1, 2, 3, 1, 2]);
  });

  test("past KEPT.terms terms numbered, the table and every article kept are forgotten", () => {
    const source = sourceOf(zh);
    const questions = zh.questions.slice(0, 20).map((q) => q.q);
    for (const q of questions) rank({ text: q }, source), rank({ text: q }, source);
    const before = keptSizes();
    expect(before.terms).toBeGreaterThan(100);
    KEPT.terms = 100;
    rank({ text: questions[0] as string }, source);
    const after = keptSizes();
    expect(after.terms).toBeLessThan(before.terms);
    expect(after.articles).toBeLessThanOrEqual(1);
  });

  test("when the operator's synonyms in force change, nothing kept under the table before is read: a synonym finds its article at once", () => {
    const source = new MemorySource([
      { id: "cards", title: "Paying by card", keywords: "payment", body: "We take Visa and Mastercard at every till, and contactless up to the limit." },
      { id: "cash", title: "Paying in cash", keywords: "cash", body: "Cash is welcome at every till; we give change in coins and notes." },
    ]);
    const q = "do you take credit cards";
    for (let i = 0; i < 3; i++) rank({ text: q }, source);
    expect(keptSizes().articles).toBeGreaterThan(0);
    const table = SynonymTable.of([["visa", "credit card"]], termsOf) as SynonymTable;
    const under = withSynonyms(table, () => rank({ text: q }, source));
    expect(keptSizes().articles).toBe(0);
    // Ranked afresh under the table: as if nothing had been kept.
    forgetKept();
    expect(under).toEqual(withSynonyms(table, () => rank({ text: q }, source)));
  });
});
