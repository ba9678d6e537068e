/** The ranking's parts on their own: words, passages, scores, the choice, the list's bytes. */
import { describe, expect, test } from "bun:test";
import { ANSWERS, choose } from "../src/ranking/choice.ts";
import { passagesOf, PASSAGE_CHARS } from "../src/ranking/passages.ts";
import { analyse, excerpt, namesTitle, queryTerms, RANKING, scoreArticle, termImpacts, titleForm, type CorpusStats } from "../src/ranking/score.ts";
import { listText } from "../src/wechat/answering/ranked-reply.ts";
import { MAX_TEXT_BYTES } from "../src/wechat/door/message.ts";
import type { RankedArticle } from "../src/ranking/types.ts";
import { stem, termsOf } from "../src/ranking/words.ts";

describe("words", () => {
  test("Han runs give their characters and neighbouring pairs; filler is left out", () => {
    expect(termsOf("退款期限")).toEqual(["退", "退款", "款", "款期", "期", "期限", "限"]);
    // 请问 / 怎么 / 的 are filler: neither their characters nor their pair take part.
    expect(termsOf("请问怎么退款")).not.toContain("请问");
    expect(termsOf("请问怎么退款")).not.toContain("怎么");
    expect(termsOf("请问怎么退款")).toContain("退款");
  });
  test("digits and Latin letters beside Han characters are a run of their own (2014年 is 2014 and 年)", () => {
    const t = termsOf("赵鹏在2014年下半赛季");
    expect(t).toContain("2014");
    expect(t).toContain("年");
    expect(t).toContain("赛季");
    expect(t.some((x) => x.includes("2014") && x !== "2014")).toBe(false);
  });
  test("Latin words are folded (full-width too), English stop words dropped, plurals and -ed/-ing taken off", () => {
    expect(termsOf("What is the Refund policy for ＯＲＤＥＲＳ?")).toEqual(["refund", "policy", "order"]);
    expect(["refunds", "returned", "shipping", "policies", "class", "status"].map(stem)).toEqual(["refund", "return", "ship", "policy", "class", "status"]);
  });
});

describe("passages", () => {
  test("sentences are gathered up to the size and never cut inside, when they fit", () => {
    const s = "第一句话说了一些事情。".repeat(40);
    const ps = passagesOf(s);
    expect(ps.length).toBeGreaterThan(1);
    for (const p of ps) {
      expect(p.end - p.start).toBeLessThanOrEqual(PASSAGE_CHARS);
      expect(s.slice(p.start, p.end).endsWith("。")).toBe(true);
    }
    // Together they cover the text.
    expect(ps.map((p) => s.slice(p.start, p.end)).join("")).toBe(s);
  });
  test("a sentence longer than a passage is cut at a comma, or at the size, never inside a surrogate pair", () => {
    const long = "𠀀".repeat(400);
    for (const p of passagesOf(long)) {
      const code = long.charCodeAt(p.end - 1);
      expect(code >= 0xd800 && code <= 0xdbff).toBe(false);
      expect(p.end - p.start).toBeLessThanOrEqual(PASSAGE_CHARS);
    }
    const commas = ("一二三四五六七八九十，").repeat(60);
    for (const p of passagesOf(commas).slice(0, -1)) expect(commas.slice(p.start, p.end).endsWith("，")).toBe(true);
  });
  test("a paragraph break ends a passage at least half full; a shorter one (a heading) goes on into the next paragraph", () => {
    const half = "甲".repeat(PASSAGE_CHARS / 2 - 1) + "。";
    const text = `${half}\n\n第二段。`;
    expect(passagesOf(text).map((p) => text.slice(p.start, p.end))).toEqual([`${half}\n\n`, "第二段。"]);
    const short = `${half.slice(1)}\n\n第二段。`;
    expect(passagesOf(short).length).toBe(1);
  });
  test("white space between paragraphs is no passage", () => {
    expect(passagesOf("One.\n\n\n\nTwo.").map((p) => p.end - p.start > 0)).toEqual([true]);
    expect(passagesOf("\n\n  \n")).toEqual([]);
  });
});

const stats: CorpusStats = { passages: 100, passageLen: 80, headLen: 6 };
const df = (t: string) => (t === "运" || t === "费" ? 60 : 2);

describe("scores", () => {
  const a = { id: "a", title: "退货说明", keywords: "", description: "", body: "商品签收后七天内可以申请退货。退货运费由买家承担。质量问题由卖家承担运费。" };
  test("the passage shown is the one with the words only it holds; the head's words weigh more", () => {
    const q = queryTerms("退货运费谁出", df, stats);
    const s = scoreArticle(q, a, stats);
    expect(s.score).toBeGreaterThan(0);
    expect(s.head).toBeGreaterThan(0);
    const withoutTitle = scoreArticle(q, { ...a, title: "说明" }, stats);
    expect(withoutTitle.score).toBeLessThan(s.score);
    expect(s.coverage).toBeGreaterThan(0.5);
    expect(s.word).toBe(true);
    // Only the single character 说 in common: no word held.
    expect(scoreArticle(queryTerms("说话", df, stats), a, stats).word).toBe(false);
    // A question of single characters: a character held is enough.
    expect(scoreArticle(queryTerms("货", df, stats), a, stats).word).toBe(true);
  });
  test("an article without a body is ranked on its head and description", () => {
    const q = queryTerms("退货", df, stats);
    expect(scoreArticle(q, { id: "b", title: "退货", keywords: "", description: "", body: "" }, stats).score).toBeGreaterThan(0);
    const d = scoreArticle(q, { id: "c", title: "说明", keywords: "", description: "如何退货", body: "" }, stats);
    expect(d.score).toBeGreaterThan(0);
    expect(d.shown).not.toBeNull();
  });
  test("impacts: a term in the title weighs more than the same term once in a passage", () => {
    const w = termImpacts(analyse(a), stats);
    expect(w.get("退货")).toBeGreaterThan(w.get("买家") as number);
  });
  test("an excerpt keeps the sentence that matched and fits the bytes given, cut marks included", () => {
    const text = "无关的开头句子说了很多别的事情。".repeat(10) + "退货运费由买家承担。" + "结尾的句子也说了别的。".repeat(10);
    const q = queryTerms("退货运费", df, stats);
    const e = excerpt(text, { start: 0, end: text.length }, q, 120);
    expect(e).toContain("退货运费由买家承担。");
    expect(Buffer.byteLength(e)).toBeLessThanOrEqual(120);
    expect(e.startsWith("…")).toBe(true);
  });
});

const ranked = (score: number, coverage = 1, word = true) => ({ score, coverage, word });

describe("the choice", () => {
  test("one article when the best leads the second by the ratio; just under it, a list", () => {
    expect(choose([ranked(10 * ANSWERS.lead), ranked(10)]).kind).toBe("one");
    expect(choose([ranked(10 * ANSWERS.lead - 0.01), ranked(10)]).kind).toBe("list");
    expect(choose([ranked(5)]).kind).toBe("one");
  });
  test("a list holds at most three, none far below the best", () => {
    const c = choose([ranked(10), ranked(9), ranked(8), ranked(7.5)]);
    expect(c.kind === "list" && c.articles.length).toBe(ANSWERS.listed);
    const d = choose([ranked(10), ranked(9), ranked(10 * ANSWERS.listShare - 0.01)]);
    expect(d.kind === "list" && d.articles.length).toBe(2);
  });
  test("nothing when the best holds too little of the question, just under the share", () => {
    expect(choose([ranked(10, ANSWERS.minCoverage - 0.001)]).kind).toBe("none");
    expect(choose([ranked(10, ANSWERS.minCoverage)]).kind).toBe("one");
    expect(choose([]).kind).toBe("none");
  });
  test("nothing when the best shares only single characters with the question", () => {
    expect(choose([ranked(10, 1, false)]).kind).toBe("none");
    const c = choose([ranked(10), ranked(9, 1, false)]);
    expect(c.kind).toBe("one");
  });
});

test("a list of three long entries fits one text reply, each keeping its title and link", () => {
  const entry = (i: number): RankedArticle => ({
    id: `a${i}`,
    title: "很长的标题".repeat(12),
    description: "",
    url: `https://example.com/articles/${i}`,
    picurl: null,
    score: 1,
    coverage: 1,
    word: true,
    head: 0,
    passage: "退货".repeat(150),
    passageScore: 1,
    excerpt: "退货运费由买家承担。".repeat(20),
    passages: [],
  });
  const text = listText([entry(1), entry(2), entry(3)]);
  expect(Buffer.byteLength(text)).toBeLessThanOrEqual(MAX_TEXT_BYTES);
  for (const i of [1, 2, 3]) {
    expect(text).toContain(`${i}. ${"很长的标题".repeat(12)}`);
    expect(text).toContain(`https://example.com/articles/${i}`);
  }
});

describe("a title the question writes out whole", () => {
  test("named: the whole title, its bracketed qualifier left off; not a longer title holding it, not one character, Latin only as words", () => {
    const q = titleForm("前肛鳗的体长是多少？");
    expect(namesTitle(q, "前肛鳗")).toBe(true);
    expect(namesTitle(q, "异齿前肛鳗")).toBe(false);
    expect(namesTitle(titleForm("大曲车站的地址是哪里？"), "大曲车站 (秋田县)")).toBe(true);
    expect(namesTitle(titleForm("大曲车站的地址是哪里？"), "大曲车站（秋田县）")).toBe(true);
    expect(namesTitle(titleForm("䲟的背吸盘有多少对鳍瓣？"), "䲟")).toBe(false);
    expect(namesTitle(titleForm("How do I brew GREEN  Tea?"), "Green Tea")).toBe(true);
    expect(namesTitle(titleForm("steam cleaning"), "Tea")).toBe(false);
    expect(namesTitle(titleForm("teapots"), "Tea")).toBe(false);
    expect(namesTitle(titleForm("Ｔｅａ time"), "tea")).toBe(true);
    expect(namesTitle(titleForm("城巴11线现在用什么车"), "城巴11线")).toBe(true);
  });

  test("an article it names scores titleBoost more than the same article unnamed; without the question's text, nothing changes", () => {
    const stats: CorpusStats = { passages: 10, passageLen: 20, headLen: 3 };
    const body = "前肛鳗体长可达五十厘米，栖息在深水中。";
    const q = queryTerms("前肛鳗的体长是多少？", () => 1, stats);
    const named = scoreArticle(q, { id: "a", title: "前肛鳗", keywords: "", description: "", body }, stats, titleForm("前肛鳗的体长是多少？"));
    const plain = scoreArticle(q, { id: "a", title: "前肛鳗", keywords: "", description: "", body }, stats);
    expect(RANKING.titleBoost).toBeGreaterThan(0);
    expect(named.score).toBeCloseTo(plain.score * (1 + RANKING.titleBoost), 9);
    const other = scoreArticle(q, { id: "b", title: "异齿前肛鳗", keywords: "", description: "", body }, stats, titleForm("前肛鳗的体长是多少？"));
    expect(other.score).toBeLessThan(named.score);
  });
});
