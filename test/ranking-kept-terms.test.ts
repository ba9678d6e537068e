/** Candidates' terms kept between questions, bounded (src/ranking/kept-terms.ts). */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { forgetKept, KEPT, keptCounts, keptSizes } from "../src/ranking/kept-terms.ts";
import { passagesOf } from "../src/ranking/passages.ts";
import { rank } from "../src/ranking/rank.ts";
import { headText, passageText } from "../src/ranking/score.ts";
import { SynonymTable, withSynonyms } from "../src/ranking/synonyms.ts";
import { articleTermsOf, termCounts, termsOf } from "../src/ranking/words.ts";
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

/** An article's counts through keptCounts, wanting `wanted`: null the first time it is met. */
const countsOf = (head: string, text: string, wanted: ReadonlySet<string>) => keptCounts(head, text, passagesOf(text), wanted);
const small = (i: number) => ({ head: `Title ${i}`, text: `Article ${i} says what it says.` });
/** Met twice: kept. */
const keep = (a: { head: string; text: string }) => (countsOf(a.head, a.text, new Set()), countsOf(a.head, a.text, new Set()));

describe("an article's terms kept between questions", () => {
  test("read from what was kept, each article's counts and lengths are those of its terms counted afresh, every term wanted, in Chinese and English", () => {
    for (const acc of [zh, en]) {
      for (const a of acc.articles) {
        const head = headText({ ...a, questions: "" });
        const text = passageText(a);
        const spans = passagesOf(text);
        const afresh = { head: articleTermsOf(head), passages: spans.map((p) => articleTermsOf(text.slice(p.start, p.end))) };
        const wanted = new Set([...afresh.head, ...afresh.passages.flat()]);
        const expected = { head: { counts: termCounts(afresh.head), len: afresh.head.length }, passages: afresh.passages.map((t) => ({ counts: termCounts(t), len: t.length })) };
        expect(countsOf(head, text, wanted)).toBeNull();
        // The second time numbered and kept, the third read from what was kept.
        expect(countsOf(head, text, wanted)).toEqual(expected);
        expect(countsOf(head, text, wanted)).toEqual(expected);
      }
      expect(keptSizes().articles).toBe(acc.articles.length);
      forgetKept();
    }
  });

  test("each question ranks the same counted afresh, while its candidates are kept, and read from what was kept, in Chinese and English, and for a follow-up", () => {
    for (const acc of [zh, en]) {
      const source = sourceOf(acc);
      const asked = [...acc.questions.slice(0, 25).map((q) => ({ text: q.q })), { text: acc.questions[1]?.q as string, context: acc.questions[0]?.q as string }];
      // Nothing kept before each question: every candidate counted as it is read.
      const afresh = asked.map((q) => (forgetKept(), rank(q, source)));
      forgetKept();
      const keeping = asked.map((q) => rank(q, source));
      expect(keptSizes().articles).toBeGreaterThan(5);
      const kept = asked.map((q) => rank(q, source));
      expect(keeping).toEqual(afresh);
      expect(kept).toEqual(afresh);
      forgetKept();
    }
  });

  test("past KEPT.numbers the article used longest ago is forgotten first", () => {
    const [a, b, c] = [small(1), small(2), small(3)];
    keep(a);
    keep(b);
    expect(keptSizes().articles).toBe(2);
    // Room for two: A used again, then C kept, forgets B.
    KEPT.numbers = keptSizes().numbers;
    expect(countsOf(a.head, a.text, new Set())).not.toBeNull();
    keep(c);
    expect(keptSizes().articles).toBe(2);
    expect(keptSizes().numbers).toBeLessThanOrEqual(KEPT.numbers);
    expect(countsOf(a.head, a.text, new Set())).not.toBeNull();
    expect(countsOf(c.head, c.text, new Set())).not.toBeNull();
    expect(countsOf(b.head, b.text, new Set())).toBeNull();
  });

  test("an article costing more than KEPT.numbers alone is read, not kept, and forgets nothing", () => {
    const a = small(1);
    keep(a);
    KEPT.numbers = keptSizes().numbers + 10;
    const big = { head: "A long one", text: "word ".repeat(200) };
    const wanted = new Set(["word"]);
    expect(countsOf(big.head, big.text, wanted)).toBeNull();
    const read = countsOf(big.head, big.text, wanted);
    expect(read?.passages.reduce((s, p) => s + (p.counts.get("word") ?? 0), 0)).toBe(200);
    expect(keptSizes().articles).toBe(1);
    expect(countsOf(a.head, a.text, new Set())).not.toBeNull();
  });

  test("no more articles seen once are remembered than KEPT.seen", () => {
    KEPT.seen = 3;
    const seenAfter = [1, 2, 3, 4, 5].map((i) => (countsOf(small(i).head, small(i).text, new Set()), keptSizes().seen));
    expect(seenAfter).toEqual([1, 2, 3, 1, 2]);
  });

  test("past KEPT.terms terms numbered, the table and every article kept are forgotten", () => {
    const source = sourceOf(zh);
    const questions = zh.questions.slice(0, 20).map((q) => q.q);
    for (const q of questions) rank({ text: q }, source), rank({ text: q }, source);
    const before = keptSizes();
    expect(before.terms).toBeGreaterThan(100);
    expect(before.articles).toBeGreaterThan(0);
    KEPT.terms = 100;
    rank({ text: questions[0] as string }, source);
    // Forgotten before the question: its candidates met for the first time again.
    expect(keptSizes()).toMatchObject({ articles: 0, numbers: 0, terms: 0 });
  });

  test("what is kept under one synonym table is not read under another, and both stay kept: accounts with tables of their own take turns on one worker", () => {
    const source = new MemorySource([
      { id: "cards", title: "Paying by card", keywords: "payment", body: "We take Visa and Mastercard at every till, and contactless up to the limit." },
      { id: "cash", title: "Paying in cash", keywords: "cash", body: "Cash is welcome at every till; we give change in coins and notes." },
    ]);
    const q = "do you take credit cards";
    const table = SynonymTable.of([["visa", "credit card"]], termsOf) as SynonymTable;
    const under = () => withSynonyms(table, () => rank({ text: q }, source));
    const afreshUnder = under();
    forgetKept();
    const afreshNone = rank({ text: q }, source);
    // The table's synonym makes a difference: kept terms read under the wrong table would show it.
    expect(afreshUnder).not.toEqual(afreshNone);
    for (let i = 0; i < 3; i++) expect(rank({ text: q }, source)).toEqual(afreshNone);
    const keptNone = keptSizes().articles;
    expect(keptNone).toBeGreaterThan(0);
    for (let i = 0; i < 3; i++) expect(under()).toEqual(afreshUnder);
    expect(keptSizes().articles).toBe(2 * keptNone);
    expect(rank({ text: q }, source)).toEqual(afreshNone);
  });
});
