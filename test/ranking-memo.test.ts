/** A function of a string kept for the strings asked again, bounded (src/ranking/memo.ts). */
import { expect, test } from "bun:test";
import { memoized } from "../src/ranking/memo.ts";

test("a kept function is called once per string until more than `held` are kept, then all are forgotten; undefined is kept too", () => {
  const calls: string[] = [];
  const f = memoized(2, (k) => (calls.push(k), k === "none" ? undefined : k.length));
  expect([f("ab"), f("ab"), f("none"), f("none")]).toEqual([2, 2, undefined, undefined]);
  expect(calls).toEqual(["ab", "none"]);
  // A third string past the two held: the map is cleared, so "ab" is computed again.
  f("xyz");
  f("ab");
  expect(calls).toEqual(["ab", "none", "xyz", "ab"]);
});
