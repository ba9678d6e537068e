import { expect, test } from "bun:test";
import fc from "fast-check";
import { repeatedKeys } from "../src/doc/duplicates.ts";
import { fnv1a } from "../src/base/fnv.ts";

/** The plain definition: a Map of first occurrences. */
const reference = (keys: (string | undefined)[]) => {
  const first = new Map<string, number>();
  const out: [number, number][] = [];
  keys.forEach((k, i) => {
    if (k === undefined) return;
    const earlier = first.get(k);
    if (earlier === undefined) first.set(k, i);
    else out.push([i, earlier]);
  });
  return out;
};

test("agrees with a Map of first occurrences", () => {
  const key = fc.option(fc.string({ unit: fc.constantFrom("a", "b", "C", "é", "你", "1"), maxLength: 3 }), { nil: undefined });
  fc.assert(fc.property(fc.array(key, { maxLength: 60 }), (keys) => expect(repeatedKeys(keys)).toEqual(reference(keys))), { numRuns: 3000 });
});

test("keys whose hashes collide are told apart by their text", () => {
  // Found by search: two different ids with the same 32-bit FNV-1a hash.
  expect(fnv1a("a1039599")).toBe(fnv1a("a1222382"));
  expect(repeatedKeys(["a1039599", "a1222382", "x"])).toEqual([]);
  expect(repeatedKeys(["a1039599", "a1222382", "a1222382", "a1039599"])).toEqual([
    [2, 1],
    [3, 0],
  ]);
});

test("a million distinct ids: no false repeats; one planted repeat found", () => {
  const ids = Array.from({ length: 1_000_000 }, (_, i) => `a${i}`);
  expect(repeatedKeys(ids)).toEqual([]);
  ids.push("a999");
  expect(repeatedKeys(ids)).toEqual([[1_000_000, 999]]);
});
