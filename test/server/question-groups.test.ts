/** The questions nothing answered, grouped (server/report/question-groups.ts), and the report's figures made from the store's (server/report/figures.ts). */
import { expect, test } from "bun:test";
import { SynonymTable, withSynonyms } from "../../src/ranking/synonyms.ts";
import { termsOf } from "../../src/ranking/words.ts";
import { groupQuestions, JOIN_AT, MAX_POSTINGS, type AskedText } from "../../src/server/report/question-groups.ts";
import { daysBetween, offsetName, percentiles } from "../../src/server/report/figures.ts";

let seq = 0;
/** Newest first, as the store answers them: later calls are older. */
const asked = (text: string, from = `o_${seq}`, answer = "fallback"): AskedText => ({ seq: 10_000 - ++seq, at: new Date(Date.UTC(2026, 10, 21, 10, 0, 0) - seq * 1000).toISOString(), from, text, answer });

test("the same terms in any order, case, width or filler are one question; a question sharing half its terms with a group's first joins it", () => {
  const texts = [
    asked("How do I get a refund?", "o_1"),
    asked("refund please", "o_2", "fallback:returns"),
    asked("ＲＥＦＵＮＤ", "o_1", "fallback:returns,delivery"),
    asked("refund for my order", "o_3", "not_found:returns"),
    asked("where is my order", "o_4"),
    asked("👍", "o_5"),
    asked("👍 ", "o_6"),
  ];
  const { groups, total } = groupQuestions(texts, 10);
  expect(groups.map((g) => [g.text, g.count, g.followers])).toEqual([
    // {refund} ×3, then {refund, order} (Jaccard ½ with {refund}) joins.
    ["How do I get a refund?", 4, 3],
    ["👍", 2, 2],
    ["where is my order", 1, 1],
  ]);
  expect(total).toBe(3);
  // The SEQ of its wording's newest message, the newest time of any, the articles considered most.
  expect(groups[0]).toMatchObject({ seq: texts[0]?.seq, last_at: texts[0]?.at, considered: ["returns"] });
  expect(groups[2]?.considered).toEqual([]);
});

test(`a share of the terms just under ${JOIN_AT} is another question; Chinese phrasings share their characters and pairs`, () => {
  // {refund, order, late} against {refund}: a third.
  expect(groupQuestions([asked("refund"), asked("refund order late")], 10).total).toBe(2);
  // 怎么开发票 / 如何开发票: 5 of 8 terms.
  expect(groupQuestions([asked("怎么开发票"), asked("如何开发票？")], 10).groups.map((g) => g.count)).toEqual([2]);
  expect(groupQuestions([asked("怎么开发票"), asked("怎么退款")], 10).total).toBe(2);
});

test("the operator's synonyms in force make their phrasings one question", () => {
  const texts = [asked("怎么转人工"), asked("怎么转客服")];
  expect(groupQuestions(texts, 10).total).toBe(2);
  const table = SynonymTable.of([["人工", "客服"]], termsOf);
  expect(withSynonyms(table, () => groupQuestions(texts, 10)).total).toBe(1);
});

test("deterministic and bounded: the same texts give the same groups; a common term is looked up in at most MAX_POSTINGS groups", () => {
  // Many questions sharing one term and nothing else: each is its own group.
  const texts = Array.from({ length: MAX_POSTINGS * 2 }, (_, i) => asked(`refund w${i}a w${i}b w${i}c`));
  const a = groupQuestions(texts, 5);
  expect(a).toEqual(groupQuestions(texts, 5));
  expect(a.total).toBe(MAX_POSTINGS * 2);
  expect(a.groups).toHaveLength(5);
  // 5,000 texts of 32 terms are grouped in well under a second.
  const many = Array.from({ length: 5000 }, (_, i) => asked(Array.from({ length: 40 }, (_, k) => `t${(i * 7 + k) % 300}`).join(" ")));
  const started = performance.now();
  groupQuestions(many, 20);
  expect(performance.now() - started).toBeLessThan(5000);
});

test("percentiles from buckets: the bucket the q-th message falls in", () => {
  expect(percentiles([])).toBeNull();
  expect(percentiles([{ ms: 5, n: 1 }])).toEqual({ n: 1, p50: 5, p99: 5 });
  // 100 messages: the 50th is in the bucket of 20, the 99th in that of 900.
  expect(percentiles([{ ms: 900, n: 2 }, { ms: 10, n: 50 }, { ms: 20, n: 48 }])).toEqual({ n: 100, p50: 10, p99: 900 });
  expect(percentiles([{ ms: 900, n: 1 }, { ms: 10, n: 50 }, { ms: 20, n: 49 }])).toEqual({ n: 100, p50: 10, p99: 20 });
});

test("the days of a report in its offset, and the offset's name", () => {
  expect(daysBetween("2026-11-20T10:00:00.000Z", "2026-11-21T10:00:00.000Z", 480)).toEqual(["2026-11-20", "2026-11-21"]);
  expect(daysBetween("2026-11-20T16:00:00.000Z", "2026-11-21T15:59:00.000Z", 480)).toEqual(["2026-11-21"]);
  expect(daysBetween("2026-08-21T10:00:00.000Z", "2026-11-21T10:00:00.000Z", 0)).toHaveLength(93);
  expect([480, -330, 0, 345, -720, 840].map(offsetName)).toEqual(["+08:00", "-05:30", "+00:00", "+05:45", "-12:00", "+14:00"]);
});
