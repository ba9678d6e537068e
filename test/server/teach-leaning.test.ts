/**
 * teach-leaning.ts afterItsArticle, each of its conditions on its own: a few words sent just after
 * the follower's question that offers this article, naming nothing of its title or keywords nor
 * anything no article holds, whose words alone do not send it (on the real ranking over a small
 * account in memory).
 */
import { expect, test } from "bun:test";
import { afterItsArticle } from "../../src/server/teach-leaning.ts";
import { rank } from "../../src/ranking/rank.ts";
import { choose } from "../../src/ranking/choice.ts";
import { MemorySource } from "../../bench/eval/memory-source.ts";

const ARTICLES = [
  { id: "freeze", title: "会员卡冻结（停卡）", keywords: ["冻结", "停卡"], body: "年卡会员每年可冻结一次，最长60天。请在小程序【我的】→【冻结】提交申请，或到前台办理。月卡和次卡不能冻结。" },
  { id: "classbook", title: "团课预约", keywords: ["团课"], body: "团课请在小程序提前预约，开课前2小时停止预约，迟到10分钟不能进场。" },
  { id: "ptbook", title: "私教预约、改约和取消", keywords: ["私教"], body: "私教课在小程序预约。改约或取消请在上课前12小时操作，否则按已上课扣除课时。" },
];
const gym = new MemorySource(ARTICLES.map((a) => ({ ...a, keywords: a.keywords.join("\u001f") })));
const article = (id: string) => ARTICLES.find((a) => a.id === id) as (typeof ARTICLES)[number];
const leans = (words: string, id: string, offeredBefore = true) => afterItsArticle(words, rank(words, gym), article(id), offeredBefore);

test("怎么操作 right after the freeze article was offered: refused; not when the question before offers another article", () => {
  expect(choose(rank("怎么操作", gym).articles)).not.toMatchObject({ kind: "one", article: { id: "freeze" } });
  expect(leans("怎么操作", "freeze")).toBe(true);
  expect(leans("怎么操作", "freeze", false)).toBe(false);
});

test("…not when a word of it is in the article's title or keywords, though alone the ranking is not sure of it (团课冻结 of 冻结)", () => {
  expect(choose(rank("团课冻结", gym).articles)).not.toMatchObject({ kind: "one", article: { id: "freeze" } });
  expect(leans("团课冻结", "freeze")).toBe(false);
  // The same words, its head not holding them (the class booking's): refused.
  expect(leans("团课冻结", "ptbook")).toBe(true);
});

test("…not when a word of it is one no article holds: a thing the account's words do not name yet, what teaching is for (游泳馆能停吗 — a review's 'any concessions')", () => {
  expect(leans("游泳馆能停吗", "freeze")).toBe(false);
  // Its other words the account's: 能停 alone is refused.
  expect(leans("能停吗", "freeze")).toBe(true);
});

test("…not when its words alone send the article (扣除课时 only the personal training's body says)", () => {
  expect(choose(rank("会扣课时吗", gym).articles)).toMatchObject({ kind: "one", article: { id: "ptbook" } });
  expect(leans("会扣课时吗", "ptbook")).toBe(false);
});

test("…only a few words (eight characters): past them, a message is not read so — the rule reads length, as the read-with rule does", () => {
  expect(leans("要怎么操作呢", "freeze")).toBe(true);
  expect(leans("那这个要怎么操作呢", "freeze")).toBe(false);
});

test("a word the account does not use counts as a thing named, however generic (具体, 弄): the rule lets such messages through", () => {
  expect(leans("具体要怎么操作", "freeze")).toBe(false);
  expect(leans("怎么弄", "freeze")).toBe(false);
});
