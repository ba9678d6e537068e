/**
 * The two stores agree: random sequences of imports (merge, init) and restores, drawn from a small
 * space of ids and codes so that documents overlap (codes move, swap, collide with articles left
 * alone, articles are deleted and made again), give the same answers and leave the same articles,
 * tags and texts on SQLite and on PostgreSQL (as its read copy sees them), which back up to the
 * same document.
 */
import { afterAll, expect, test } from "bun:test";
import fc from "fast-check";
import { readDocument } from "../../src/doc/reading.ts";
import { memorySource } from "../../src/doc/byte-source.ts";
import { ReplydError } from "../../src/base/errors.ts";
import { openTarget, type Target } from "../store/targets.ts";

const recordArb = fc.record(
  {
    id: fc.constantFrom("a0", "a1", "a2", "a3", "a4", "a5"),
    code: fc.option(fc.constantFrom("K0", "k0", "K1", "K2", "k3", "K4"), { nil: undefined }),
    tag: fc.option(fc.constantFrom("news", "tips"), { nil: undefined }),
    title: fc.constantFrom("One", "Two", "三"),
    url: fc.constant("https://e.com/x"),
    keywords: fc.option(fc.constantFrom(["a"], ["a", "b"], []), { nil: undefined }),
    deleted: fc.option(fc.boolean(), { nil: undefined }),
    rev: fc.option(fc.integer({ min: 1, max: 4 }), { nil: undefined }),
  },
  { requiredKeys: ["id", "title", "url"] },
);
const stepArb = fc.record({
  op: fc.constantFrom("merge", "init", "restore"),
  articles: fc.uniqueArray(recordArb, { selector: (r) => r.id, maxLength: 5 }),
  // null: a merge removes the tag's description (tags_removed), init and restore leave it out.
  tags: fc.dictionary(fc.constantFrom("news", "tips"), fc.constantFrom<string | null>("News", "Tips", "Other", null), { maxKeys: 2 }),
  texts: fc.record({ welcome: fc.constantFrom("Hi", "Hello") }, { requiredKeys: [] }),
});

/** The answer, or the refusal's code and problems. */
async function outcome(run: () => Promise<unknown>): Promise<unknown> {
  try {
    const { backup: _b, ...rest } = (await run()) as Record<string, unknown>;
    return rest;
  } catch (e) {
    if (!(e instanceof ReplydError)) throw e;
    return { code: e.code, details: e.details };
  }
}

const state = (t: Target) => ({ articles: [...t.store.articles.iterateAll()], tags: t.store.content.tags(), texts: t.store.content.texts() });

const open: Target[] = [];
afterAll(async () => {
  for (const t of open) await t.close();
});

test("SQLite and PostgreSQL give the same answers and end in the same state", async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(stepArb, { minLength: 1, maxLength: 4 }), async (steps) => {
      const targets = [await openTarget("sqlite"), await openTarget("postgres")];
      open.push(...targets);
      try {
        for (const step of steps) {
          const text = JSON.stringify({ format: "replyd/1", matter: "all", created_at: "2026-11-21T10:00:00.000Z", articles: step.articles, tags: step.tags, texts: step.texts });
          const answers = [];
          for (const t of targets) {
            // Read anew for each store: a document is read from its file once per write.
            const run = async () => {
              const doc = readDocument(memorySource(new TextEncoder().encode(text)));
              return step.op === "restore" ? t.restore(doc, "articles") : t.importDocument(doc, step.op as "merge" | "init");
            };
            answers.push(await outcome(run));
          }
          expect(answers[1]).toEqual(answers[0]);
          expect(state(targets[1] as Target)).toEqual(state(targets[0] as Target));
          // And the same backup document, byte for byte (automatic backups taken along the way included).
          const [x, y] = [await (targets[0] as Target).backup("all"), await (targets[1] as Target).backup("all")];
          expect(await (targets[1] as Target).readBackup(y.id)).toBe(await (targets[0] as Target).readBackup(x.id));
        }
      } finally {
        for (const t of targets.splice(0)) {
          await t.close();
          open.splice(open.indexOf(t), 1);
        }
      }
    }),
    { numRuns: 40 },
  );
}, 120_000);
