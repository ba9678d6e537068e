/**
 * Bulk writes from a document read in bounded memory, on each store: the articles are handed over
 * again from the file for every pass, so these documents are read through a 32-byte window, every
 * record crossing an edge. On PostgreSQL the checks are made on the copy replies read from, after
 * it caught up.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { readDocument } from "../../src/doc/reading.ts";
import { memorySource, type ByteSource } from "../../src/doc/byte-source.ts";
import { type DataFolder } from "../../src/store/sqlite/data-folder.ts";
import { doc } from "../helpers.ts";
import { openTarget, STORES, type Target } from "./targets.ts";
import { BULK_INDEX_THRESHOLD } from "../../src/store/model/model.ts";
import { CODE } from "../../src/base/errors.ts";
import { DROPPED_NAMED } from "../../src/store/writer.ts";

describe.each(STORES)("%s", (kind) => {
  let t: Target;
  let store: DataFolder;
  beforeEach(async () => {
    t = await openTarget(kind);
    store = t.store;
  });
  afterEach(() => t.close());

  const asFile = (text: string): ByteSource => {
    const { size, read } = memorySource(new TextEncoder().encode(text));
    return { size, read };
  };
  const fromFile = (records: unknown[]) => readDocument(asFile(doc(records)), { window: 32 });
  const rec = (id: string | undefined, code: string | null, more: Record<string, unknown> = {}) => ({
    ...(id ? { id } : {}),
    ...(code ? { code } : {}),
    title: `T ${id ?? code}`,
    url: "https://e.com/",
    ...more,
  });
  const live = () => [...store.articles.iterateAll()].filter((a) => !a.deleted).map((a) => [a.id, a.code]);

  test(`an import replacing questions names up to ${DROPPED_NAMED} articles that lost questions or keywords, with what each lost; past them, counted`, async () => {
    const n = DROPPED_NAMED + 2;
    const ids = Array.from({ length: n }, (_, i) => `q${i}`);
    await t.importDocument(fromFile(ids.map((id) => rec(id, null, { questions: [`taught ${id}`], keywords: [`kw${id}`] }))), "merge");
    const r = await t.importDocument(fromFile(ids.map((id) => rec(id, null, { questions: ["another"], keywords: ["other"] }))), "merge", { replaceQuestions: true });
    for (const dropped of [r.questions_dropped, r.keywords_dropped]) {
      expect(dropped.count).toBe(n);
      expect(dropped.ids).toEqual(ids.slice(0, DROPPED_NAMED));
      expect(dropped.lost).toHaveLength(DROPPED_NAMED);
    }
    expect(r.questions_dropped.lost[6]).toEqual(["taught q6"]);
    expect(r.keywords_dropped.lost[6]).toEqual(["kwq6"]);
  });

  test("an import keeps the questions an article holds that its record does not list, after the record's, in merge and init alike; names those articles, changed or not; past fifty the record's come first", async () => {
    // Past a thousand rows: PostgreSQL reads the records to merge a thousand at a time.
    const ids = Array.from({ length: 1003 }, (_, i) => `q${i}`);
    await t.importDocument(fromFile(ids.map((id) => rec(id, null, { questions: [`taught ${id}`, "how much"] }))), "merge");
    const r = await t.importDocument(fromFile(ids.map((id) => rec(id, null, { questions: ["how much??", "another"] }))), "merge");
    expect(r).toMatchObject({ updated: ids.length, questions_dropped: { count: 0 } });
    expect(r.questions_kept).toMatchObject({ count: ids.length, ids: ids.slice(0, DROPPED_NAMED) });
    expect(r.questions_kept?.lost[1002 % DROPPED_NAMED]).toEqual([`taught q${1002 % DROPPED_NAMED}`]);
    expect(store.articles.get("q1002")?.questions).toEqual(["how much??", "another", "taught q1002"]);
    // The same file again: nothing changes; what each keeps is said again (the file still does not list it).
    expect(await t.importDocument(fromFile(ids.map((id) => rec(id, null, { questions: ["how much??", "another"] }))), "merge")).toMatchObject({ updated: 0, unchanged: ids.length, questions_kept: { count: ids.length } });
    // A record listing none keeps them too; --init as a merge does, for the articles it keeps.
    const init = await t.importDocument(fromFile([rec("q0", null, { questions: [], title: "new title" })]), "init");
    expect(init).toMatchObject({ updated: 1, removed: ids.length - 1, questions_kept: { count: 1, ids: ["q0"], lost: [["how much??", "another", "taught q0"]] } });
    expect(store.articles.get("q0")?.questions).toEqual(["how much??", "another", "taught q0"]);
    // Fifty in the record: what the article held besides them does not fit, and is named as lost.
    const fifty = Array.from({ length: 50 }, (_, i) => `question ${i}`);
    const full = await t.importDocument(fromFile([rec("q0", null, { questions: fifty })]), "merge");
    expect(full).toMatchObject({ updated: 1, questions_dropped: { count: 1, ids: ["q0"], lost: [["how much??", "another", "taught q0"]] }, questions_kept: { count: 0 } });
    expect(store.articles.get("q0")?.questions).toEqual(fifty);
    // Forty-eight: two of the three fit, in the order the article held them.
    await t.importDocument(fromFile([rec("q0", null, { questions: ["x", "y", "z"] })]), "merge", { replaceQuestions: true });
    const some = await t.importDocument(fromFile([rec("q0", null, { questions: fifty.slice(0, 48) })]), "merge");
    expect(some).toMatchObject({ questions_kept: { count: 1, lost: [["x", "y"]] }, questions_dropped: { count: 1, lost: [["z"]] } });
  });

  test("merge: an article deleted by the document gives its code up to another record of the same document", async () => {
    await t.importDocument(fromFile([rec("a1", "K")]), "merge");
    const r = await t.importDocument(fromFile([rec("a1", "K", { deleted: true }), rec("a2", "K")]), "merge");
    expect(r).toMatchObject({ added: 1, updated: 1, unchanged: 0 });
    expect(store.articles.getLiveByCode("k")?.id).toBe("a2");
    expect(store.articles.get("a1")).toMatchObject({ deleted: true, code: "K", rev: 2 });
  });

  test("merge: an article taking the code of one the document deletes (keeping it), written first or second", async () => {
    await t.importDocument(fromFile([rec("a1", "K"), rec("a2", "L")]), "merge");
    expect(await t.importDocument(fromFile([rec("a2", "K"), rec("a1", "K", { deleted: true })]), "merge")).toMatchObject({ updated: 2 });
    expect(store.articles.getLiveByCode("k")?.id).toBe("a2");
    expect(store.articles.get("a1")).toMatchObject({ deleted: true, code: "K" });
    expect(await t.importDocument(fromFile([rec("a1", "K"), rec("a2", "K", { deleted: true })]), "merge")).toMatchObject({ updated: 2 });
    expect(store.articles.getLiveByCode("k")?.id).toBe("a1");
  });

  test("merge: a code dropped by the document is an update (rev moves on), not unchanged", async () => {
    await t.importDocument(fromFile([rec("a1", "K"), rec("a2", "L")]), "merge");
    const r = await t.importDocument(fromFile([rec("a1", null), rec("a2", "L")]), "merge");
    expect(r).toMatchObject({ updated: 1, unchanged: 1 });
    expect(store.articles.get("a1")).toMatchObject({ code: null, rev: 2 });
  });

  test("merge: records without an id take the live article's id by code, or a new id free of the document's own", async () => {
    await t.importDocument(fromFile([rec("a1", "K")]), "merge");
    // "m2" would be minted from the code, but a later record names that id itself.
    const r = await t.importDocument(fromFile([rec(undefined, "k", { title: "by code" }), rec(undefined, "M2"), rec("m2", "other")]), "merge");
    expect(r).toMatchObject({ added: 2, updated: 1 });
    expect(store.articles.get("a1")?.title).toBe("by code");
    expect(store.articles.get("m2")?.code).toBe("other");
    expect(store.articles.getLiveByCode("m2")?.id).not.toBe("m2");
  });

  test("merge: a code kept by an article the document leaves alone refuses the whole document; one it moves away is free", async () => {
    await t.importDocument(fromFile([rec("a1", "K"), rec("a2", "L")]), "merge");
    await expect(t.importDocument(fromFile([rec("a9", "x"), rec("a3", "k")]), "merge")).rejects.toMatchObject({ code: CODE.invalid_document, problems: [{ section: "articles", index: 1, id: "a3", field: "code", reason: '"k" is already the code of live article "a1"' }] });
    expect(store.articles.get("a9")).toBeNull();
    const r = await t.importDocument(fromFile([rec("a3", "k"), rec("a1", "N")]), "merge");
    expect(r).toMatchObject({ added: 1, updated: 1 });
    expect(store.articles.getLiveByCode("K")?.id).toBe("a3");
  });

  test("merge and init: a deleted article whose record says nothing of deleted is live again, counted as undeleted; one saying deleted stays so; a live one its record deletes counted as deleted now", async () => {
    await t.importDocument(fromFile([rec("a1", "K"), rec("a2", "L"), rec("a3", "M")]), "merge");
    const deleting = await t.importDocument(fromFile([rec("a1", "K", { deleted: true }), rec("a2", "L", { deleted: true })]), "merge");
    expect(deleting).toMatchObject({ updated: 2, deleted_now: 2, deleted_now_ids: ["a1", "a2"], undeleted: 0 });
    const r = await t.importDocument(fromFile([rec("a1", "K"), rec("a2", "L", { deleted: true }), rec("a3", "M")]), "merge");
    expect(r).toMatchObject({ updated: 1, updated_ids: ["a1"], unchanged: 2, undeleted: 1, undeleted_ids: ["a1"], deleted_now: 0 });
    expect(store.articles.get("a1")?.deleted).toBe(false);
    expect(store.articles.get("a2")?.deleted).toBe(true);
    const again = await t.importDocument(fromFile([rec("a1", "K"), rec("a2", "L"), rec("a3", "M")]), "init");
    expect(again).toMatchObject({ updated: 1, updated_ids: ["a2"], undeleted: 1, undeleted_ids: ["a2"] });
  });

  test("merge and init: each updated article named with the fields the document changed of it, in the field table's order; none for the unchanged", async () => {
    // A pet hospital's walkthrough: a body edited on the server, written over by the file's, had read "1 updated (parking)".
    await t.importDocument(fromFile([rec("a1", "K"), rec("a2", "L"), rec("a3", "M")]), "merge");
    const r = await t.importDocument(fromFile([rec("a1", "K", { body: "edited on the server" }), rec("a2", "X", { title: "Another title", keywords: ["new"] }), rec("a3", "M")]), "merge");
    expect(r).toMatchObject({ updated: 2, updated_ids: ["a1", "a2"], unchanged: 1 });
    expect(r.updated_fields).toEqual({ a1: ["body"], a2: ["code", "title", "keywords"] });
    // A body the article had, replaced, is named apart too: "and 2 more" had hidden it (two walkthroughs); a body given where there was none is not.
    expect(r.bodies_replaced).toEqual({ count: 0, ids: [] });
    const replaced = await t.importDocument(fromFile([rec("a1", "K", { body: "the file's body" }), rec("a2", "X", { title: "Another title", keywords: ["new"], body: "a first body" }), rec("a3", "M")]), "merge");
    expect(replaced).toMatchObject({ updated: 2, bodies_replaced: { count: 1, ids: ["a1"] } });
    // Put back as it was.
    await t.importDocument(fromFile([rec("a1", "K", { body: "edited on the server" }), rec("a2", "X", { title: "Another title", keywords: ["new"] }), rec("a3", "M")]), "merge");
    const init = await t.importDocument(fromFile([rec("a1", "K", { body: "edited on the server", tag: "t1" }), rec("a2", "X", { title: "Another title", keywords: ["new"] }), rec("a3", "M")]), "init");
    expect(init.updated_fields).toEqual({ a1: ["tag"] });
    // A code another record takes first: its holder's change said against the code it held (the stores had told it apart: a property test).
    const moved = await t.importDocument(fromFile([rec("a4", "k"), rec("a1", null, { body: "edited on the server", tag: "t1" })]), "merge");
    expect(moved.updated_fields).toEqual({ a1: ["code"] });
  });

  test("merge: a tag given null loses its description, named when it had one; --init replaces them whole", async () => {
    const withTags = (tags: Record<string, string | null>) => readDocument(asFile(doc([rec("a1", "K", { tag: "talks" })], { tags })), { window: 32 });
    await t.importDocument(withTags({ event: "Readings", talks: "Talks" }), "merge");
    const r = await t.importDocument(withTags({ event: null, never: null }), "merge");
    expect(r).toMatchObject({ tags: 0, tags_removed: ["event"] });
    expect(store.content.tags()).toEqual({ talks: "Talks" });
    const init = await t.importDocument(withTags({ talks: null, other: "Other" }), "init");
    expect(init).toMatchObject({ tags: 1, tags_removed: [] });
    expect(store.content.tags()).toEqual({ other: "Other" });
  });

  test("init: articles the document leaves out are purged, even one holding a code a new record takes", async () => {
    await t.importDocument(fromFile([rec("a1", "K"), rec("a2", "L"), rec("a3", "M")]), "merge");
    const r = await t.importDocument(fromFile([rec("b1", "K"), rec("a2", "L")]), "init");
    expect(r).toMatchObject({ added: 1, unchanged: 1, removed: 2 });
    expect(live()).toEqual([["a2", "L"], ["b1", "K"]]);
    // Purged ids continue above their old revs when made again.
    await t.importDocument(fromFile([rec("a1", "K2")]), "merge");
    expect(store.articles.get("a1")?.rev).toBe(2);
  });

  test("init past the bulk threshold: the purge runs as one statement and the search index is rebuilt", async () => {
    const n = BULK_INDEX_THRESHOLD + 10;
    const many = (from: number, count: number) => Array.from({ length: count }, (_, i) => rec(`a${from + i}`, `c${from + i}`));
    await t.importDocument(fromFile(many(0, n)), "merge");
    const r = await t.importDocument(fromFile([...many(5, n - 5), rec("z", "c0")]), "init");
    expect(r).toMatchObject({ added: 1, unchanged: n - 5, removed: 5 });
    expect(store.articles.counts()).toEqual({ live: n - 4, deleted: 0 });
    expect(store.articles.getLiveByCode("c0")?.id).toBe("z");
    await store.indexed();
    expect(store.articles.search(["T z"]).map((a) => a.id)).toEqual(["z"]);
    await t.importDocument(fromFile([rec("a0", "again")]), "merge");
    expect(store.articles.get("a0")?.rev).toBe(2);
  });

  test("restore: records without an id get one, free of the document's own", async () => {
    const r = await t.restore(fromFile([rec(undefined, "M2"), rec("m2", "x")]), "articles");
    expect(r.articles).toBe(2);
    expect(store.articles.get("m2")?.code).toBe("x");
    expect(store.articles.getLiveByCode("M2")?.id).toMatch(/^a[0-9a-z]{9}$/);
  });

  // PostgreSQL takes batches as array literals (store/postgres/columns.ts): every character that means something in one, and text that spells NULL.
  const awkward = ['say "hi"', "back\\slash \\\"", "{braces}, commas", "NULL", "", "line\nbreak\ttab", "中文 ✓ 😀"];
  test("values with quotes, backslashes, braces, commas, NULL spelled out and empty strings come back as written, by every bulk path", async () => {
    const records = awkward.map((text, i) => rec(`w${i}`, text.length && !/\s/.test(text) ? `k${i}` : null, { title: text || "t", description: text, keywords: text ? [text, "x"] : [], tag: i % 2 ? "news" : null }));
    const expected = (a: { id: string; title: string; description: string; keywords: string[]; tag: string | null }) => [a.id, a.title, a.description, a.keywords, a.tag];
    const want = records.map((r) => expected(r as never));
    const now = () => want.map((w) => expected(store.articles.get(w[0] as string) as never));
    // init into an empty store (straight into the articles), merge (through the staging table), restore.
    await t.importDocument(fromFile(records), "init");
    expect(now()).toEqual(want);
    await t.importDocument(fromFile([...records.map((r) => ({ ...r, url: "https://e.com/2" })), rec(undefined, "NEW", { title: awkward[1] })]), "merge");
    expect(now()).toEqual(want);
    expect(store.articles.getLiveByCode("new")?.title).toBe(awkward[1] as string);
    expect((await t.restore(fromFile(records), "articles")).articles).toBe(records.length);
    expect(now()).toEqual(want);
  });
});
