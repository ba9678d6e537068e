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

const ranked = (id: string, score: number, questions: string[] = []): RankedArticle => ({
  id, title: id, description: "", url: `https://example.com/${id}`, picurl: null, score, coverage: 0.8, headCoverage: 0.5, ownCoverage: 0.8, word: true,
  questions, keywords: [], head: 1, passage: null, passageScore: 0, excerpt: null, passages: [],
});
const ctx = (articles: RankedArticle[], deleted: Record<string, string> = {}, rules: Rule[] = []) =>
  ({
    clock: systemClock,
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

test("a rule made since answers it first, as followers get it: exact, prefix and contains as the responder matches them; not one whose articles are gone; none said past a regex rule, which is not run", async () => {
  const rule = (id: string, match: Rule["match"], pattern: string, reply: Rule["reply"] = { type: "text", text: "…" }): Rule => ({ id, match, pattern, reply }) as Rule;
  const rules = [rule("promo", "contains", "promo", { type: "articles", ids: ["gone"] }), rule("jobs", "contains", "JOBS"), rule("hours", "exact", "opening hours"), rule("menu", "prefix", "menu"), rule("any", "regex", "fees"), rule("fees", "contains", "fees")];
  const got = await answeredNow(ctx([ranked("maintenance", 10)], {}, rules), ["are there any jobs going", "Opening hours?", "menu for kids", "promo codes", "what are the fees", "索道开吗"]);
  expect(got).toEqual(
    new Map([
      ["are there any jobs going", "rule:jobs"],
      ["Opening hours?", "rule:hours"],
      ["menu for kids", "rule:menu"],
      // Its article deleted, the rule is passed over: what the ranking offers.
      ["promo codes", "answer:maintenance"],
      // A regex rule before the one that matches may answer first: not said.
      ["what are the fees", "answer:maintenance"],
      ["索道开吗", "answer:maintenance"],
    ]),
  );
});
