/** Single-article writes on each store (Writer.editArticle): decided against the article as stored, guarded by the rev they were based on and by live codes, ids made again continuing above old revs. */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import type { Article } from "../../src/article/article.ts";
import { openTarget, STORES, type Target } from "./targets.ts";
import { CODE } from "../../src/base/errors.ts";

const article = (id: string, more: Partial<Article> = {}): Article => ({
  id,
  code: null,
  tag: null,
  title: `Title ${id}`,
  description: "",
  url: "https://e.com/",
  picurl: null,
  keywords: [],
  questions: [],
  body: "",
  deleted: false,
  rev: 1,
  created_at: "2026-11-24T00:00:00.000Z",
  updated_at: "2026-11-24T00:00:00.000Z",
  ...more,
});

/** Writes `a` as the writer's decision: a new article when none is stored, else `a` over the stored one. */
const put = (t: Target, a: Article, expectRev?: number) => t.editArticle(a.id, { ...(expectRev !== undefined ? { expectRev } : {}), decide: () => a });

describe.each(STORES)("%s", (kind) => {
  let t: Target;
  beforeEach(async () => void (t = await openTarget(kind)));
  afterEach(() => t.close());

  test("created, revised at the rev it was read at, refused at any other", async () => {
    expect(await put(t, article("a1", { code: "K", keywords: ["x"] }))).toEqual({ article: article("a1", { code: "K", keywords: ["x"] }), created: true, changed: true });
    const revised = await put(t, article("a1", { title: "Revised", rev: 2 }), 1);
    expect(revised).toMatchObject({ article: { title: "Revised", rev: 2 }, created: false, changed: true });
    await expect(put(t, article("a1", { title: "Stale", rev: 2 }), 1)).rejects.toMatchObject({ code: CODE.rev_mismatch, details: { current_rev: 2 } });
    await expect(put(t, article("zz", { rev: 4 }), 3)).rejects.toMatchObject({ code: CODE.rev_mismatch, details: { current_rev: null } });
    expect(t.store.articles.get("a1")).toMatchObject({ title: "Revised", rev: 2 });
    expect(t.store.articles.get("zz")).toBeNull();
  });

  test("the edit decides against the article as stored: what it sees, nothing written when it says so, its refusal kept", async () => {
    await put(t, article("a1", { title: "Stored" }));
    const seen: (Article | null)[] = [];
    const same = await t.editArticle("a1", { decide: (stored) => (seen.push(stored), null) });
    expect(same).toEqual({ article: article("a1", { title: "Stored" }), created: false, changed: false });
    expect(seen).toEqual([article("a1", { title: "Stored" })]);
    const refusal = new Error("not this one");
    await expect(t.editArticle("a1", { decide: () => { throw refusal; } })).rejects.toBe(refusal);
    await expect(t.editArticle("a1", { decide: (s) => ({ ...(s as Article), id: "other" }) })).rejects.toThrow("decided to write");
    expect(t.store.articles.get("other")).toBeNull();
  });

  test("a live code belongs to one article; a soft-deleted one keeps its code without holding it", async () => {
    await put(t, article("a1", { code: "K" }));
    await expect(put(t, article("a2", { code: "k" }))).rejects.toMatchObject({ code: CODE.code_taken, details: { id: "a1" } });
    expect(t.store.articles.get("a2")).toBeNull();
    await put(t, article("a1", { code: "K", deleted: true, rev: 2 }), 1);
    expect((await put(t, article("a2", { code: "k" }))).article).toMatchObject({ code: "k" });
    expect(t.store.articles.getLiveByCode("K")?.id).toBe("a2");
  });

  test("purged for good; the id made again continues above its old revs", async () => {
    await put(t, article("a1"));
    await put(t, article("a1", { rev: 2 }), 1);
    expect(await t.purgeArticle("a1")).toBe(true);
    expect(await t.purgeArticle("a1")).toBe(false);
    expect(t.store.articles.get("a1")).toBeNull();
    expect((await put(t, article("a1", { title: "Someone else's" }))).article).toMatchObject({ rev: 3, title: "Someone else's" });
  });
  test("the newest live titles: the articles added last first, a deleted one left out, read again after a write", async () => {
    for (const id of ["a1", "a2", "a3"]) await put(t, article(id));
    expect(t.store.articles.newestTitles(2)).toEqual(["Title a3", "Title a2"]);
    await put(t, article("a3", { deleted: true, rev: 2 }), 1);
    expect(t.store.articles.newestTitles(2)).toEqual(["Title a2", "Title a1"]);
    await put(t, article("a4", { title: "新装用水开户" }));
    expect(t.store.articles.newestTitles(2)).toEqual(["新装用水开户", "Title a2"]);
  });
});
