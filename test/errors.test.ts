/** The closed set of error codes (src/base/errors.ts) is the one docs/protocol.md documents, status for status. */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { CODE, ERRORS, ReplydError } from "../src/base/errors.ts";

test("every code in the set is in protocol.md's table with its status, and the table has no other", () => {
  const doc = readFileSync(join(import.meta.dir, "../docs/protocol.md"), "utf8");
  const table = doc.slice(doc.indexOf("## Error codes"));
  const documented = new Map<string, number>();
  for (const row of table.split("\n").filter((l) => /^\| \d{3} \|/.test(l))) {
    const [, status, codes] = /^\| (\d{3}) \| ([^|]+) \|/.exec(row) as RegExpExecArray;
    for (const [, code] of (codes as string).matchAll(/`([a-z_]+)`/g)) documented.set(code as string, Number(status));
  }
  expect(Object.fromEntries(documented)).toEqual({ ...ERRORS });
});

test("a ReplydError takes its status from the set; CODE names each code", () => {
  expect(new ReplydError("rev_mismatch", "x").status).toBe(409);
  expect(new ReplydError("outcome_unknown", "x").status).toBe(503);
  expect(Object.keys(CODE)).toEqual(Object.keys(ERRORS));
  for (const [k, v] of Object.entries(CODE)) expect(v).toBe(k as typeof v);
});
