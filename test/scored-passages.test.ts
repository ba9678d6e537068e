/** The exact scoring reads a bounded part of a candidate whatever its size (issue 33 H; src/scored-passages.ts). */
import { describe, expect, test } from "bun:test";
import { passagesOf, PASSAGE_CHARS } from "../src/ranking/passages.ts";
import { askedOf, passageText, scoreArticle, type CorpusStats } from "../src/ranking/score.ts";
import { SCORED_PASSAGES } from "../src/ranking/scored-passages.ts";

const stats: CorpusStats = { articles: 1000, headLen: 6, bodyLen: 600, passageLen: 200 };
const known = () => 5;
const article = (body: string) => ({ id: "long", title: "长文", keywords: "", description: "", body });
/** Passages of about 290 characters, each ending a paragraph. */
const paragraph = (sentence: string) => sentence.repeat(Math.floor(290 / sentence.length)) + "\n\n";
const scoredText = (body: string, spans: { start: number; end: number }[]) => spans.map((p) => passageText(article(body)).slice(p.start, p.end)).join("");

describe("a candidate's exact score", () => {
  test(`a body of 64 KiB (~75 passages of the question's pairs) is scored on ${SCORED_PASSAGES} passages, at most ${SCORED_PASSAGES * PASSAGE_CHARS} characters`, () => {
    const common = "中国历史人物事件时间地点文化经济社会发展政治国家人民世界工作问题";
    let body = "";
    while (Buffer.byteLength(body) + Buffer.byteLength(common) + 3 <= 64 * 1024) body += common + "，";
    expect(passagesOf(body).length).toBeGreaterThan(70);
    const s = scoreArticle(askedOf(common, known, stats), article(body), stats);
    expect(s.score).toBeGreaterThan(0);
    expect(s.passages.length).toBe(SCORED_PASSAGES);
    expect(s.passages.reduce((n, p) => n + p.end - p.start, 0)).toBeLessThanOrEqual(SCORED_PASSAGES * PASSAGE_CHARS);
  });

  test("of a long body, the passages holding the question's words are the ones scored, wherever they are", () => {
    const filler = Array.from({ length: 60 }, (_, i) => paragraph(`第${i}段说的是天气晴朗适合出游。`));
    filler[50] = paragraph("退款在审核通过后三个工作日内原路退回。");
    const body = filler.join("");
    const s = scoreArticle(askedOf("退款多久退回", known, stats), article(body), stats);
    expect(s.passages.length).toBe(SCORED_PASSAGES);
    expect(s.score).toBeGreaterThan(0);
    expect(passageText(article(body)).slice(s.shown!.start, s.shown!.end)).toContain("原路退回");
    // Scored in the body's order.
    expect(s.passages.map((p) => p.start)).toEqual([...s.passages.map((p) => p.start)].sort((a, b) => a - b));
  });

  test("of a long body, a passage writing the other spelling of the question's word (帐号 for 账号) is among those scored", () => {
    // The other passages hold each character of the question's words, none of its pairs: only the pairs read as one tell the passage apart.
    const filler = Array.from({ length: 60 }, (_, i) => paragraph(`第${i}号通知见公告栏，账目冻结情况见附件。`));
    filler[55] = paragraph("帐号被冻结时请先重置密码。");
    const body = filler.join("");
    const s = scoreArticle(askedOf("账号冻结了", known, stats), article(body), stats);
    expect(s.passages.length).toBe(SCORED_PASSAGES);
    expect(scoredText(body, s.passages)).toContain("帐号被冻结");
  });

  test("an English word is looked for by what its stem keeps: 'policy' holds the question's 'policies' (stem polici)", () => {
    const filler = Array.from({ length: 40 }, (_, i) => paragraph(`Paragraph ${i} talks about the weather and the garden. `));
    filler[35] = paragraph("Our return policy covers every order. ");
    const body = filler.join("");
    expect(passagesOf(body).length).toBeGreaterThan(SCORED_PASSAGES);
    const s = scoreArticle(askedOf("what are your policies", known, stats), article(body), stats);
    expect(s.score).toBeGreaterThan(0);
    expect(scoredText(body, s.passages)).toContain("policy");
  });

  test(`an article of up to ${SCORED_PASSAGES} passages is scored on every one, those without the question's words too`, () => {
    const parts = Array.from({ length: SCORED_PASSAGES }, (_, i) => paragraph(`第${i}段说的是天气晴朗适合出游。`));
    parts[3] = paragraph("退款在审核通过后三个工作日内原路退回。");
    const body = parts.join("");
    expect(passagesOf(body).length).toBe(SCORED_PASSAGES);
    const s = scoreArticle(askedOf("退款多久退回", known, stats), article(body), stats);
    expect(s.passages.map((p) => [p.start, p.end])).toEqual(passagesOf(body).map((p) => [p.start, p.end]));
  });
});
