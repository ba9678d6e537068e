/**
 * The synonyms a store keeps stay within what a document may hold (review of issue 34 D): an import
 * whose groups, merged with those kept, would pass the limits is refused whole, so every backup
 * can be written and restored. On each store (the app is testApp()'s).
 */
import { afterEach, beforeEach, expect, test } from "bun:test";
import type { Param } from "../../src/sign.ts";
import { SYNONYM_LIMITS, validateSynonyms } from "../../src/doc/synonyms.ts";
import { testApp } from "../helpers.ts";

let t: Awaited<ReturnType<typeof testApp>>;
beforeEach(async () => (t = await testApp()));
afterEach(() => t.close());

const call = (method: string, path: string, fields: Param[] = [], files?: { name: string; content: string }[]) =>
  t.call(method, path, fields, files ? { files } : {});
const groups = (from: number, n: number) => Array.from({ length: n }, (_, i) => [`word${from + i}a`, `word${from + i}b`]);
const synonymsDoc = (g: string[][]) => JSON.stringify({ format: "replyd/1", matter: "synonyms", created_at: "2026-11-25T10:00:00.000Z", synonyms: g });

test("an import that would keep more groups than a document may hold is refused whole; every backup is still written and restored", async () => {
  expect((await call("POST", "/api/cli", [["mode", "merge"]], [{ name: "json", content: synonymsDoc(groups(0, 700)) }])).status).toBe(200);
  const refused = await call("POST", "/api/cli", [["mode", "merge"]], [{ name: "json", content: synonymsDoc(groups(700, 400)) }]);
  expect([refused.status, refused.error?.code]).toEqual([400, "invalid_document"]);
  expect(JSON.stringify(refused.error)).toContain(`merged with the 700 groups kept, the synonyms must have at most ${SYNONYM_LIMITS.groups} groups (it has 1100)`);
  expect((await call("GET", "/api/cli/synonyms")).data.synonyms).toHaveLength(700);
  // Just at the limit: taken.
  expect((await call("POST", "/api/cli", [["mode", "merge"]], [{ name: "json", content: synonymsDoc(groups(700, 300)) }])).status).toBe(200);
  const backup = await call("POST", "/api/cli/revert/all");
  expect(backup.status).toBe(200);
  expect((await call("PUT", "/api/cli/revert/all", [["id", backup.data.id as string]])).status).toBe(200);
});

test("a document past the characters all its phrases may hold is refused", () => {
  const long = Array.from({ length: 400 }, (_, i) => [`${"长".repeat(30)}${i}`, `${"短".repeat(30)}${i}`]);
  expect(validateSynonyms(long).problems[0]?.reason).toContain(`at most ${SYNONYM_LIMITS.characters} characters of phrases in all`);
  expect(validateSynonyms(long.slice(0, 300)).problems).toEqual([]);
});

test("a synonym phrase holding no word the ranking reads is imported and said: it matches nothing; phrases with a word are not named", async () => {
  const r = await call("POST", "/api/cli", [["mode", "merge"]], [{ name: "json", content: synonymsDoc([["how much", "price", "cost"], ["人工", "客服"], ["在吗", "hello there"]]) }]);
  expect(r.status).toBe(200);
  expect(r.data.synonyms).toMatchObject({ added: 3 });
  const said = (r.data.warnings as string[]).filter((w) => w.startsWith("synonym phrase"));
  expect(said).toHaveLength(1);
  expect(said[0]).toContain('"how much" (group 0), "在吗" (group 2) hold no word the ranking reads');
  expect(said[0]).not.toContain("price");
  // Every phrase holding a word: nothing said.
  const clean = await call("POST", "/api/cli", [["mode", "merge"]], [{ name: "json", content: synonymsDoc([["visa", "credit card"]]) }]);
  expect((clean.data.warnings as string[]).filter((w) => w.startsWith("synonym phrase"))).toEqual([]);
});
