/** The search worker's bounded keeping (src/base/lru.ts): longest unused forgotten first, by cost, to the bound and not one past it. */
import { expect, test } from "bun:test";
import { CostBoundMap } from "../src/base/lru.ts";

const costed = (bound: number) => new CostBoundMap<string, number[]>(() => bound, (v) => v.length);

test("entries cost their size: at the bound all are kept; one past it forgets the longest unused, a read counting as a use", () => {
  const m = costed(6);
  m.set("a", [1, 2]);
  m.set("b", [1, 2]);
  m.set("c", [1, 2]);
  expect({ size: m.size, cost: m.cost }).toEqual({ size: 3, cost: 6 });
  expect(m.get("a")).toEqual([1, 2]);
  m.set("d", [1]);
  expect([m.get("a"), m.get("b"), m.get("c"), m.get("d")].map((v) => v !== undefined)).toEqual([true, false, true, true]);
  expect(m.cost).toBe(5);
});

test("a value costing more than the bound alone is not kept, and nothing is forgotten for it", () => {
  const m = costed(4);
  m.set("a", [1, 2]);
  expect(m.set("big", [1, 2, 3, 4, 5])).toBe(false);
  expect({ a: m.get("a"), big: m.get("big"), cost: m.cost }).toEqual({ a: [1, 2], big: undefined, cost: 2 });
  expect(m.set("fits", [1, 2, 3, 4])).toBe(true);
  expect({ a: m.get("a"), cost: m.cost }).toEqual({ a: undefined, cost: 4 });
});

test("setting a key again replaces its cost; delete and clear give theirs back", () => {
  const m = costed(10);
  m.set("a", [1, 2, 3]);
  m.set("a", [1]);
  expect({ size: m.size, cost: m.cost }).toEqual({ size: 1, cost: 1 });
  m.set("b", [1, 2]);
  m.delete("a");
  m.delete("missing");
  expect(m.cost).toBe(2);
  m.clear();
  expect({ size: m.size, cost: m.cost }).toEqual({ size: 0, cost: 0 });
});

test("the bound is read at each write: lowered, the next write forgets down to it", () => {
  let bound = 10;
  const m = new CostBoundMap<string, number[]>(() => bound, (v) => v.length);
  for (const k of ["a", "b", "c", "d", "e"]) m.set(k, [1, 2]);
  bound = 4;
  m.set("f", [1]);
  expect({ cost: m.cost, e: m.get("e") !== undefined, d: m.get("d") !== undefined, c: m.get("c") }).toEqual({ cost: 3, e: true, d: false, c: undefined });
});
