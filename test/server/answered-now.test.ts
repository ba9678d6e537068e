/**
 * What an inbox entry or the report says a text nothing answered gets now (server/answered-now.ts):
 * as a follower gets it — a question taught since is its article alone, however close the ranking
 * puts another; one taught to an article deleted since, nothing.
 */
import { expect, test } from "bun:test";
import { answeredNow } from "../../src/server/answered-now.ts";
import type { RankedArticle } from "../../src/ranking/types.ts";
import { systemClock } from "../../src/base/clock.ts";
import type { Rule } from "../../src/doc/rule.ts";
import { RegexMatcher } from "../../src/wechat/answering/regex.ts";

const ranked = (id: string, score: number, questions: string[] = []): RankedArticle => ({
  id, title: id, description: "", url: `https://example.com/${id}`, picurl: null, score, coverage: 0.8, headCoverage: 0.5, ownCoverage: 0.8, word: true,
  questions, keywords: [], head: 1, passage: null, passageScore: 0, excerpt: null, passages: [],
});
const ctx = (articles: RankedArticle[], deleted: Record<string, string> = {}, rules: Rule[] = [], regex = new RegexMatcher()) =>
  ({
    clock: systemClock,
    regex,
    read: {
      content: { rules: () => rules },
      articles: { deletedTaught: (form: string) => deleted[form] ?? null, get: (id: string) => (id === "gone" ? { id, deleted: true } : null), byTag: () => [] },
      searcher: { rank: async () => ({ terms: [], postings: 0, candidates: articles.length, articles }) },
    },
  }) as unknown as Parameters<typeof answeredNow>[0];

test("a question taught since is its article alone, as followers get it, though the ranking lists it beside another", async () => {
  const close = [ranked("maintenance", 10), ranked("cableway", 9, ["索道几点停"])];
  expect(await answeredNow(ctx(close), ["索道几点停", "索道开吗"])).toEqual(new Map([["索道几点停", "answer:cableway"], ["索道开吗", "answers:maintenance,cableway"]]));
  // Taught to an article deleted since: nothing now, as the follower gets the fallback.
  expect(await answeredNow(ctx([ranked("maintenance", 10)], { 索道几点停: "gone" }), ["索道几点停"])).toEqual(new Map());
});

test("a rule made since answers it first, as followers get it: exact, prefix, contains and regex as the responder matches them; not one whose articles are gone", async () => {
  const rule = (id: string, match: Rule["match"], pattern: string, reply: Rule["reply"] = { type: "text", text: "…" }): Rule => ({ id, match, pattern, reply }) as Rule;
  const rules = [rule("promo", "contains", "promo", { type: "articles", ids: ["gone"] }), rule("jobs", "contains", "JOBS"), rule("hours", "exact", "opening hours"), rule("menu", "prefix", "menu"), rule("any", "regex", "^fees|fees$"), rule("fees", "contains", "fees")];
  const got = await answeredNow(ctx([ranked("maintenance", 10)], {}, rules), ["are there any jobs going", "Opening hours?", "menu for kids", "promo codes", "what are the fees", "索道开吗", "   fees\u200b "]);
  expect(got).toEqual(
    new Map([
      ["are there any jobs going", "rule:jobs"],
      ["Opening hours?", "rule:hours"],
      ["menu for kids", "rule:menu"],
      // Its article deleted, the rule is passed over: what the ranking offers.
      ["promo codes", "answer:maintenance"],
      // A regex rule before the one that matches answers first, as for a follower (a bike share's
      // walkthrough: the inbox had said the ranking's list of a message a regex rule still answered).
      ["what are the fees", "rule:any"],
      // Read as the responder reads a follower's text, its ends trimmed: the regex "fees" matched (a review: "^fees" had not, here alone).
      ["   fees\u200b ", "rule:any"],
      ["索道开吗", "answer:maintenance"],
    ]),
  );
});

test("a regex rule that misses its deadline here is no strike against it: that text and the rest behind a regex are left out, not said to get the ranking's", async () => {
  const rule = (id: string, match: Rule["match"], pattern: string): Rule => ({ id, match, pattern, reply: { type: "text", text: "…" } }) as Rule;
  const regex = new RegexMatcher(50);
  try {
    const rules = [rule("slow", "regex", "^(a+)+$"), rule("hours", "contains", "hours")];
    const slow = `${"a".repeat(40)}b`;
    const got = await answeredNow(ctx([ranked("maintenance", 10)], {}, rules, regex), ["opening hours", slow, "索道开吗"]);
    // Before the slow one: the regex ran and matched nothing, the contains rule answers; after it, nothing known.
    expect(got).toEqual(new Map([["opening hours", "rule:hours"]]));
    expect(await regex.probe(["^(a+)+$"], slow)).toBeNull();
    // Twice past the deadline, and not disabled for followers: a probe strikes nothing.
    expect(regex.disabled()).toEqual([]);
    expect(await regex.match(["^(a+)+$", "b$"], slow)).toEqual(new Set([1]));
  } finally {
    regex.close();
  }
});
