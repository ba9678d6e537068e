/**
 * replyd rules (GET /api/cli/rules): the rules in the order they are matched, the texts, what points
 * at nothing; and an import's word on stored rules its file does not list (two walkthroughs' operators
 * had read their rules only from a backup).
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { listening } from "./listening.ts";

let s: Awaited<ReturnType<typeof listening>>;
beforeAll(async () => (s = await listening()));
afterAll(() => s.close());
const cli = (...argv: string[]) => s.cli(...argv);

const rulesDoc = (rules: object[], texts?: object) => JSON.stringify({ format: "replyd/1", matter: "all", created_at: "2026-11-25T10:00:00.000Z", rules, ...(texts ? { texts } : {}) });

test("rules lists the rules in matching order with what each answers, the texts as set or replyd's own, and rules pointing at nothing; an import names stored rules its file leaves out", async () => {
  const dir = s.dir;
  expect((await cli("add", "id=hours", "title=Opening hours", "url=https://shop.example/hours", "body=Open 9 to 5.")).code).toBe(0);
  const first = join(dir, "rules1.json");
  writeFileSync(first, rulesDoc([
    { id: "human", match: "exact", pattern: "talk to a person", reply: { type: "text", text: "Call 0113 496 0000." } },
    { id: "agent", match: "exact", pattern: "agent", reply: { type: "text", text: "Call us." } },
    { id: "tracking", match: "regex", pattern: "[A-Z]{2}\\d{10,}", reply: { type: "text", text: "We will look it up." }, inbox: true },
    { id: "gone", match: "contains", pattern: "promo", reply: { type: "articles", ids: ["nope"] } },
  ], { welcome: "Welcome!\nReply 1 for hours." }));
  expect((await cli("import", first)).code).toBe(0);
  const listed = await cli("rules");
  expect(listed.code).toBe(0);
  const lines = listed.out.split("\n");
  expect(lines.slice(1, lines.indexOf("")).map((l) => l.trim().split(/\s+/).slice(0, 3))).toEqual([["1", "human", "exact"], ["2", "agent", "exact"], ["3", "tracking", "regex"], ["4", "gone", "contains"]]);
  expect(listed.out).toContain('text "We will look it up." (kept in the inbox)');
  expect(listed.out).toContain('welcome   "Welcome! Reply 1 for hours."');
  expect(listed.out).toContain("fallback  (replyd's own, in the follower's language)");
  expect(listed.out).toContain("not_found (replyd's own, in the follower's language)");
  expect(listed.out).toContain('warning: rule "gone" answers with article "nope", which does not exist');
  expect(JSON.parse((await cli("rules", "--json")).out)).toMatchObject({ count: 4, rules: [{ id: "human" }, { id: "agent" }, { id: "tracking", inbox: true }, { id: "gone" }] });
  // The file replaces two rules by one: the import says the one left out still answers.
  const second = join(dir, "rules2.json");
  writeFileSync(second, rulesDoc([{ id: "human", match: "regex", pattern: "talk to (a )?(person|human)", reply: { type: "text", text: "Call 0113 496 0000." } }, { id: "tracking", match: "regex", pattern: "[A-Z]{2}\\d{10,}", reply: { type: "text", text: "We will look it up." }, inbox: true }]));
  const merged = await cli("import", second);
  expect(merged.code).toBe(0);
  expect(merged.out + merged.err).toContain("2 stored rules the file does not list are kept and still answer: agent, gone (an import merges rules by id; replyd rules lists them; replyd restore --matter rules FILE makes the file's the only ones)");
  expect((await cli("rules", "extra")).code).toBe(2);
});

test("rules says not_found and media unwritten are the operator's fallback text once that is written, as health does (a bike share's walkthrough had read 'replyd's own')", async () => {
  const file = join(s.dir, "texts.json");
  writeFileSync(file, rulesDoc([], { fallback: "Sorry, we couldn't find an answer.", media: "Thanks for the photo." }));
  expect((await cli("import", file)).code).toBe(0);
  const out = (await cli("rules")).out;
  expect(out).toContain('fallback  "Sorry, we couldn\'t find an answer."');
  expect(out).toContain("not_found (your fallback text)");
  expect(out).toContain('media     "Thanks for the photo."');
  expect(out).toContain("help      (replyd's own, in the follower's language)");
});
