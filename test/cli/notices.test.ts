/** The notices of what the binary carries (NOTICES.md): complete, and printed by `replyd notices` with no server. */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { run } from "../../src/cli/index.ts";
import { carried, packagesSection } from "../../scripts/notices.ts";
import { captureIO } from "../helpers.ts";

const NOTICES = readFileSync(resolve(import.meta.dir, "../../NOTICES.md"), "utf8");

test("NOTICES.md holds WordNet's notice, the Apache licence OpenCC's data is under, and every package the binary is built with, its licence as it ships it", () => {
  expect(NOTICES).toContain("WordNet 3.0 Copyright 2006 by Princeton University.  All rights reserved.");
  expect(NOTICES).toContain("TERMS AND CONDITIONS FOR USE, REPRODUCTION, AND DISTRIBUTION");
  // A dependency added without `bun scripts/notices.ts --write` fails here.
  const pkgs = carried();
  expect(pkgs.map((p) => p.name)).toEqual(expect.arrayContaining(["elysia", "cac", "stemmer", "@elysiajs/static", "cookie", "memoirist"]));
  expect(NOTICES.endsWith(packagesSection(pkgs))).toBe(true);
});

test("replyd notices prints them, asking no server; --json too", async () => {
  const io = captureIO({}, process.cwd());
  expect(await run(["notices"], io)).toBe(0);
  expect(io.stdout.join("\n")).toContain("WordNet 3.0 Copyright 2006 by Princeton University");
  expect(io.stdout.join("\n")).toContain("### elysia ");
  const json = captureIO({}, process.cwd());
  expect(await run(["notices", "--json"], json)).toBe(0);
  expect(JSON.parse(json.stdout.join(""))).toEqual({ notices: NOTICES });
});
