/** How close an article offered alone came to a list (ranking/choice.ts margin): the report's close calls. */
import { expect, test } from "bun:test";
import { ANSWERS, choose } from "../src/ranking/choice.ts";

const ranked = (score: number, coverage = 1, word = true, headCoverage = 0) => ({ score, coverage, word, headCoverage });
const margin = (xs: ReturnType<typeof ranked>[]) => {
  const c = choose(xs);
  return c.kind === "one" ? c.margin : null;
};

test("an article alone: the best runner-up that could be listed, its score over the article's; 0 without one", () => {
  expect(margin([ranked(10)])).toBe(0);
  expect(margin([ranked(10 * ANSWERS.lead), ranked(10)])).toBeCloseTo(1 / ANSWERS.lead, 10);
  expect(margin([ranked(25), ranked(11), ranked(5)])).toBeCloseTo(0.44, 10);
  // A runner-up that shares only characters, or too little of the question to be listed, is none: the next is.
  expect(margin([ranked(20), ranked(9, 1, false), ranked(4)])).toBeCloseTo(0.2, 10);
  expect(margin([ranked(20), ranked(9, ANSWERS.listCoverage - 0.01)])).toBe(0);
  expect(margin([ranked(20), ranked(9, ANSWERS.listCoverage)])).toBeCloseTo(0.45, 10);
  // A list has no margin.
  expect(margin([ranked(10), ranked(9)])).toBeNull();
});
