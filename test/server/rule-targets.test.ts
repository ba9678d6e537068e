/**
 * Rules that answer with nothing (issue 35 D): an articles reply naming articles that are not there
 * or deleted, a tag reply naming a tag no live article carries. Said at import and restore, by ask
 * for the rules a text matches, and in health — on each store (the app is testApp()'s).
 */
import { afterEach, beforeEach, expect, test } from "bun:test";
import { ruleTargetWarnings } from "../../src/doc/rule-targets.ts";
import type { Param } from "../../src/sign.ts";
import { article, doc, testApp } from "../helpers.ts";

let t: Awaited<ReturnType<typeof testApp>>;
beforeEach(async () => (t = await testApp()));
afterEach(() => t.close());

const call = (method: string, path: string, fields: Param[] = [], files?: { name: string; content: string }[]) =>
  t.call(method, path, fields, files ? { files } : {});
const rulesDoc = (rules: object[]) => JSON.stringify({ format: "replyd/1", matter: "rules", created_at: "2026-11-25T10:00:00.000Z", rules });
const RULES = [
  { id: "gone", match: "exact", pattern: "gone", reply: { type: "articles", ids: ["a1", "nope"] } },
  { id: "all-gone", match: "exact", pattern: "all gone", reply: { type: "articles", ids: ["nope", "a2"] } },
  { id: "empty-tag", match: "contains", pattern: "tips", reply: { type: "tag", tag: "tips" } },
  { id: "fine", match: "exact", pattern: "news", reply: { type: "tag", tag: "news" } },
];
const WARNINGS = [
  'rule "gone" answers with articles "a1", "nope": "nope" does not exist',
  'rule "all-gone" answers with articles "nope", "a2": "nope" does not exist and "a2" is deleted; it answers nothing and is passed over',
  'rule "empty-tag" answers with tag "tips", which no live article carries: it answers nothing and is passed over',
];

test("an import says which rules answer with nothing, and so does health", async () => {
  await call("POST", "/api/cli", [["mode", "merge"]], [{ name: "json", content: doc([article(1, { tag: "news" }), article(2, { deleted: true })]) }]);
  const imported = await call("POST", "/api/cli", [["mode", "merge"]], [{ name: "json", content: rulesDoc(RULES) }]);
  expect(imported.status).toBe(200);
  expect(imported.data.warnings).toEqual(WARNINGS);
  expect((await call("GET", "/api/cli")).data.rule_warnings).toEqual(WARNINGS);
  // An article document that brings "nope" mends the first.
  const mended = await call("POST", "/api/cli", [["mode", "merge"]], [{ name: "json", content: doc([{ ...article(3), id: "nope" }], { tags: { news: "News" } }) }]);
  expect(mended.data.warnings).toEqual(['rule "all-gone" answers with articles "nope", "a2": "a2" is deleted', WARNINGS[2]]);
});

test("ask names the rules its text matches that answer with nothing; a restore says what its rules point at", async () => {
  await call("POST", "/api/cli", [["mode", "merge"]], [{ name: "json", content: doc([article(1, { tag: "news" })]) }]);
  await call("POST", "/api/cli", [["mode", "merge"]], [{ name: "json", content: rulesDoc(RULES) }]);
  const asked = await call("GET", "/api/cli/ask", [["q", "any tips today"]]);
  expect(asked.data.rule_warnings).toEqual([WARNINGS[2]]);
  expect((await call("GET", "/api/cli/ask", [["q", "news"]])).data.rule_warnings).toEqual([]);
  const restored = await call("PUT", "/api/cli/revert/rules", [], [{ name: "json", content: rulesDoc([RULES[2] as object]) }]);
  expect(restored.data.warnings).toEqual([WARNINGS[2]]);
});

test("ruleTargetWarnings on its own: nothing to say about rules that point at live articles and carried tags", () => {
  expect(ruleTargetWarnings([RULES[3] as never], { article: () => null, tagged: () => 2 })).toEqual([]);
  expect(ruleTargetWarnings([RULES[0] as never], { article: () => ({ deleted: false }), tagged: () => 0 })).toEqual([]);
});

test("rm says what still points at the article: the rules answering with it or its last tag, a welcome or help text telling followers to send its code", async () => {
  await call("POST", "/api/cli", [["mode", "merge"]], [{ name: "json", content: doc([article(1, { code: "3", tag: "kids" }), article(2, { code: "31", tag: "news" }), article(4, { tag: "news" })]) }]);
  const rules = [
    { id: "care", match: "exact", pattern: "晚托", reply: { type: "articles", ids: ["a1"] } },
    { id: "kids", match: "exact", pattern: "托管", reply: { type: "tag", tag: "kids" } },
    { id: "news", match: "exact", pattern: "新闻", reply: { type: "tag", tag: "news" } },
  ];
  expect((await call("POST", "/api/cli", [["mode", "merge"]], [{ name: "json", content: rulesDoc(rules) }])).data.warnings).toEqual([]);
  const texts = { welcome: "欢迎！回复 3 晚托介绍，回复31看新闻", help: "Send 31 for news" };
  let n = 100;
  const told = async (code: string, welcome: string) => {
    const id = `a${++n}`;
    await call("POST", "/api/cli", [["mode", "merge"]], [{ name: "json", content: doc([article(n, { code, tag: null })]) }]);
    await call("POST", "/api/cli", [["mode", "merge"]], [{ name: "json", content: JSON.stringify({ format: "replyd/1", matter: "texts", texts: { welcome } }) }]);
    const w: string[] = (await call("DELETE", "/api/cli", [["id", id]])).data.warnings ?? [];
    return w.some((x) => x.startsWith("the welcome text"));
  };
  // As welcome texts write it: 【】, a colon, a list after one "reply"; not a figure inside another, nor a time.
  expect(await told("6", "回复【6】查看晚托")).toBe(true);
  expect(await told("6", "回复：6")).toBe(true);
  expect(await told("8", "Reply 1 for opening hours, 2 for holidays, 8 for our support hours")).toBe(true);
  expect(await told("8", "回复数字查看：1 门票，7 餐饮，8 住宿")).toBe(true);
  expect(await told("8", "We open 8am to 6pm: reply 1 for hours")).toBe(false);
  expect(await told("8", "回复38看新闻")).toBe(false);
  // A range's end is told; a figure inside a time is not.
  expect(await told("6", "回复1-6查看服务")).toBe(true);
  expect(await told("9", "营业时间9:00-17:00，回复1查看")).toBe(false);
  expect(await told("9", "营业时间9~17点，回复1查看")).toBe(false);
  expect(await told("17", "营业时间9~17点，回复1查看")).toBe(false);
  expect(await told("9", "营业时间9-18点，回复1查看")).toBe(false);
  expect(await told("18", "营业时间9-18点，回复1查看")).toBe(false);
  // A figure with its measure is no code (小程序3公里内送到家 had warned of code 3: a fresh-food chain's walkthrough).
  expect(await told("5", "小程序5公里内送到家，发送问题即可")).toBe(false);
  expect(await told("12", "武汉12家门店，回复1查看")).toBe(false);
  // A count of things or people neither (有6个站点 had warned of code 6: a parcel chain's walkthrough).
  expect(await told("66", "我们在幸福里、学府路等地有66个站点。回复1查看营业时间")).toBe(false);
  expect(await told("33", "共有33位老师，回复1查看课程")).toBe(false);
  // Nor a figure beside a slash: "24/7" (a service desk's walkthrough had been warned of codes 24 and 7).
  expect(await told("24", "Reply 1 for Wi-Fi help. Urgent? Call us, 24/7.")).toBe(false);
  expect(await told("77", "Reply 1 for Wi-Fi help. Urgent? Call us, 24/77.")).toBe(false);
  expect(await told("2", "回复数字：1门票 2天气")).toBe(true);
  // A menu's entries opening on what reads as a measure are codes still (a review).
  expect(await told("2", "回复数字了解会员卡：1月卡 2季卡 3年卡")).toBe(true);
  expect(await told("2", "回复：1元秒杀 2折专区 3人团")).toBe(true);
  expect(await told("5", "小程序5 公里内送到家，发送问题即可")).toBe(false);
  // A date is no code (志愿填报期间（6月25日—7月10日）: an admissions office's walkthrough).
  expect(await told("25", "志愿填报期间（6月25日—7月10日），回复1查看")).toBe(false);
  expect(await told("6", "志愿填报期间（6月25日—7月10日），回复1查看")).toBe(false);
  expect((await call("POST", "/api/cli", [["mode", "merge"]], [{ name: "json", content: JSON.stringify({ format: "replyd/1", matter: "texts", texts }) }])).status).toBe(200);
  const rm = await call("DELETE", "/api/cli", [["id", "a1"]]);
  expect(rm.data.warnings).toEqual([
    'rule "care" answers with article "a1", which is deleted: it answers nothing and is passed over',
    'rule "kids" answers with tag "kids", which no live article carries: it answers nothing and is passed over',
    'the welcome text tells followers to send "3", the code of a1: they now get the not_found text (your fallback\'s words while it is unwritten), or an article whose title or keywords hold the number — edit the text (replyd import texts.json), or give the code to another article',
  ]);
  // Code 31 is told in both texts; its tag still has a live article, and "回复 3" is no mention of 31.
  const purged = await call("DELETE", "/api/cli", [["id", "a2"], ["purge", "1"]]);
  expect(purged.data.warnings).toEqual([
    'the welcome text tells followers to send "31", the code of a2: they now get the not_found text (your fallback\'s words while it is unwritten), or an article whose title or keywords hold the number — edit the text (replyd import texts.json), or give the code to another article',
    'the help text tells followers to send "31", the code of a2: they now get the not_found text (your fallback\'s words while it is unwritten), or an article whose title or keywords hold the number — edit the text (replyd import texts.json), or give the code to another article',
  ]);
  // Once the not_found text is written, it is what they get: said as that (a B&B's walkthrough had been told of the fallback's words).
  expect((await call("POST", "/api/cli", [["mode", "merge"]], [{ name: "json", content: JSON.stringify({ format: "replyd/1", matter: "texts", texts: { ...texts, welcome: "回复 7 看活动", not_found: "没有找到，回复 h 看帮助" } }) }])).status).toBe(200);
  await call("POST", "/api/cli", [["mode", "merge"]], [{ name: "json", content: doc([article(7, { code: "7", tag: null })]) }]);
  expect((await call("DELETE", "/api/cli", [["id", "a7"]])).data.warnings).toEqual([
    'the welcome text tells followers to send "7", the code of a7: they now get the not_found text, or an article whose title or keywords hold the number — edit the text (replyd import texts.json), or give the code to another article',
  ]);
  // a4 was the tag's last live article.
  expect((await call("DELETE", "/api/cli", [["id", "a4"]])).data.warnings).toEqual(['rule "news" answers with tag "news", which no live article carries: it answers nothing and is passed over']);
  // Nothing points at a5: no warnings; deleting an article again changes nothing and says nothing.
  await call("POST", "/api/cli", [["mode", "merge"]], [{ name: "json", content: doc([article(5, { code: "5", tag: null })]) }]);
  expect((await call("DELETE", "/api/cli", [["id", "a5"]])).data).not.toHaveProperty("warnings");
  expect((await call("DELETE", "/api/cli", [["id", "a1"]])).data).not.toHaveProperty("warnings");
});

test("an import --init or a restore that removes the codes the welcome text tells followers to send says so, Chinese codes too; one keeping them, or a merge removing none, says nothing", async () => {
  const texts = { welcome: "欢迎！回复1查看营业时间，回复2查看缴费方式，回复【缴费】看方式，回复报修查看流程，回复 h 帮助。营业时间9:00-17:00", help: "Reply 2 for payments" };
  await call("POST", "/api/cli", [["mode", "merge"]], [{ name: "json", content: doc([article(1, { code: "1" }), article(2, { code: "2" }), article(3, { code: "9" }), article(6, { code: "缴费" }), article(7, { code: "报修" })]) }]);
  expect((await call("POST", "/api/cli", [["mode", "merge"]], [{ name: "json", content: JSON.stringify({ format: "replyd/1", matter: "texts", texts }) }])).status).toBe(200);
  // A merge removes nothing; another file with --init keeps code 1 only.
  expect((await call("POST", "/api/cli", [["mode", "merge"]], [{ name: "json", content: doc([article(4)], { tags: { news: "News" } }) }])).data.warnings).toEqual([]);
  const init = await call("POST", "/api/cli", [["mode", "init"]], [{ name: "json", content: doc([article(5, { code: "1" })], { tags: { news: "News" } }) }]);
  // "9" is a time in the welcome text, not a code it tells followers to send: not named though a3 had it.
  expect(init.data.warnings).toEqual([
    'the welcome text tells followers to send "2", and no article has that code now: they get the not_found text (your fallback\'s words while it is unwritten), or an article whose title or keywords hold the number — edit the text (replyd import texts.json), or give the code to an article',
    'the help text tells followers to send "2", and no article has that code now: they get the not_found text (your fallback\'s words while it is unwritten), or an article whose title or keywords hold the number — edit the text (replyd import texts.json), or give the code to an article',
    'the welcome text tells followers to send "缴费", and no article has that code now: they get what the ranking finds for it, or the fallback — edit the text (replyd import texts.json), or give the code to an article',
    'the welcome text tells followers to send "报修", and no article has that code now: they get what the ranking finds for it, or the fallback — edit the text (replyd import texts.json), or give the code to an article',
  ]);
  // Health says it for as long as it lasts: the numbers told after 回复 / reply that no article has.
  const health = async () => (await call("GET", "/api/cli")).data.text_warnings as string[];
  expect(await health()).toEqual([
    'the welcome text tells followers to send "2", and no article has that code: they get the not_found text (your fallback\'s words while it is unwritten), or an article whose title or keywords hold the number — edit the text, or give the code to an article',
    'the help text tells followers to send "2", and no article has that code: they get the not_found text (your fallback\'s words while it is unwritten), or an article whose title or keywords hold the number — edit the text, or give the code to an article',
  ]);
  // A restore of the articles that brings them back says nothing of them; one without code 1 names it.
  const articles = doc([article(1, { code: "1" }), article(2, { code: "2" }), article(3, { code: "9" })]);
  const restored = await call("PUT", "/api/cli/revert/articles", [], [{ name: "json", content: articles }]);
  expect(restored.status).toBe(200);
  expect(restored.data.warnings).toEqual([]);
  expect(await health()).toEqual([]);
  const without = await call("PUT", "/api/cli/revert/articles", [], [{ name: "json", content: doc([article(2, { code: "2" })]) }]);
  expect(without.data.warnings).toEqual(['the welcome text tells followers to send "1", and no article has that code now: they get the not_found text (your fallback\'s words while it is unwritten), or an article whose title or keywords hold the number — edit the text (replyd import texts.json), or give the code to an article']);
});

test("a number the help text tells followers to send, which a numbered list would take as a place, is said by the import and by health while an article has no code; not once every article has one", async () => {
  // A bike share's walkthrough: "Or send a number: 1 Getting started, 3 Prices" — its help-centre export held no
  // codes, so lists were numbered, and "3" right after one picked its third entry.
  await call("POST", "/api/cli", [["mode", "merge"]], [{ name: "json", content: JSON.stringify({ format: "replyd/1", matter: "texts", texts: { help: "Or send a number: 1 Getting started, 3 Prices, 8 Parking" } }) }]);
  const imported = await call("POST", "/api/cli", [["mode", "merge"]], [{ name: "json", content: doc([article(1, { code: "1" }), article(3, { code: "3" }), article(8, { code: "8" }), article(9, { code: null }), article(10, { code: null })], { tags: { news: "News" } }) }]);
  const clash = (code: string, id: string, n = 2) =>
    `the help text tells followers to send "${code}" (${id}), and ${n} article${n === 1 ? " has" : "s have"} no code of at most 8 characters, so a list of answers holding one is numbered 1–3: "${code}" sent right after such a list picks its entry ${code}, not ${id} — give every article a code of at most 8 characters (a list is then labelled by its codes), or tell followers codes past 3`;
  // 8 is past a list's places: no clash.
  expect(imported.data.warnings).toEqual([clash("1", "a1"), clash("3", "a3")]);
  const health = async () => (await call("GET", "/api/cli")).data.text_warnings as string[];
  expect(await health()).toEqual([clash("1", "a1"), clash("3", "a3")]);
  // Every article given a code: lists are labelled by codes, nothing to say.
  await call("POST", "/api/cli", [["mode", "merge"]], [{ name: "json", content: doc([article(9, { code: "c9" }), article(10, { code: "c10" })]) }]);
  expect(await health()).toEqual([]);
  // A code too long to label an entry numbers the list as well (a review: long codes had silenced the warning).
  await call("POST", "/api/cli", [["mode", "merge"]], [{ name: "json", content: doc([article(10, { code: "longcode10" })]) }]);
  expect(await health()).toEqual([clash("1", "a1", 1), clash("3", "a3", 1)]);
});
