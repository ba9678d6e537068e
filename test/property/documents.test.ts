import { afterAll, beforeAll, expect, test } from "bun:test";
import fc from "fast-check";
import { readFileSync } from "node:fs";
import { fixedClock } from "../../src/base/clock.ts";
import { parseDocument } from "../../src/doc/validation.ts";
import { ReplydError } from "../../src/base/errors.ts";
import { DataFolder } from "../../src/store/sqlite/data-folder.ts";
import { T0, tempDir } from "../helpers.ts";
import { documentArb, mutate, mutationArb } from "./arbitraries.ts";

let tmp: ReturnType<typeof tempDir>;
let n = 0;
beforeAll(() => (tmp = tempDir("replyd-prop-")));
afterAll(() => tmp.cleanup());
const freshStore = () => DataFolder.open(`${tmp.dir}/s${n++}`, { clock: fixedClock(T0), keep: 50 });

test("valid documents round-trip exactly: validate → import → backup → restore elsewhere", () => {
  fc.assert(
    fc.property(documentArb, (raw) => {
      const a = freshStore();
      const b = freshStore();
      try {
        const doc = parseDocument(JSON.stringify(raw));
        a.importDocument(doc, "merge");
        const backup = a.backup("all");
        const text = readFileSync(a.backups.pathOf(backup.id), "utf8");
        b.restore(parseDocument(text), "all");
        expect([...b.articles.iterateAll()]).toEqual([...a.articles.iterateAll()]);
        expect(b.content.tags()).toEqual(a.content.tags());
        expect(b.content.texts()).toEqual(a.content.texts());
        // And the restored store backs up to the same content (the document's own time and id aside).
        const again = JSON.parse(readFileSync(b.backups.pathOf(b.backup("all").id), "utf8"));
        const first = JSON.parse(text);
        expect(again.articles).toEqual(first.articles);
        expect(again.tags).toEqual(first.tags);
      } finally {
        a.close();
        b.close();
      }
    }),
    { numRuns: 60 },
  );
});

test("mutated documents are either valid and imported, or refused whole with nothing written", () => {
  fc.assert(
    fc.property(documentArb, mutationArb, fc.nat(), (raw, mutation, index) => {
      const s = freshStore();
      try {
        s.importDocument(parseDocument(JSON.stringify({ ...raw, articles: [{ id: "keep", code: "keep1", title: "Kept", url: "https://e.com/k" }] })), "merge");
        const before = [...s.articles.iterateAll()];
        const doc = structuredClone(raw);
        mutate(doc, mutation, index);
        let parsed;
        try {
          parsed = parseDocument(JSON.stringify(doc));
        } catch (e) {
          expect(e).toBeInstanceOf(ReplydError);
          expect((e as ReplydError).status).toBe(400);
          expect([...s.articles.iterateAll()]).toEqual(before);
          return;
        }
        try {
          s.importDocument(parsed, "merge");
        } catch (e) {
          // A conflict with the store (a code already taken) is refused whole too.
          expect((e as ReplydError).status).toBe(400);
          expect([...s.articles.iterateAll()]).toEqual(before);
        }
      } finally {
        s.close();
      }
    }),
    { numRuns: 150 },
  );
});
