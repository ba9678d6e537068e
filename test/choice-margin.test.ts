/** How close an article offered alone came to a list (ranking/choice.ts margin): the report's close calls. */
import { expect, test } from "bun:test";
import { ANSWERS, choose } from "../src/ranking/choice.ts";

const ranked = (score: number, coverage = 1, word = true) => ({ score, coverage, word });
const margin = (xs: ReturnType<typeof ranked>[]) => {
  const c = choose(xs);
  return c.kind === "one" ? c.margin : null;
};

test("an article alone: the best relevant runner-up's score over its own; 0 without one", () => {
  expect(margin([ranked(10)])).toBe(0);
  expect(margin([ranked(10 * ANSWERS.lead), ranked(10)])).toBeCloseTo(1 / ANSWERS.lead, 10);
  expect(margin([ranked(20), ranked(11), ranked(5)])).toBeCloseTo(0.55, 10);
  // A runner-up that shares only characters, or too little of the question, is no relevant one: the next is.
  expect(margin([ranked(20), ranked(19, 1, false), ranked(4)])).toBeCloseTo(0.2, 10);
  expect(margin([ranked(20), ranked(19, ANSWERS.minCoverage - 0.01)])).toBe(0);
  // A list has no margin.
  expect(margin([ranked(10), ranked(9)])).toBeNull();
});
