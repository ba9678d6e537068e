/** Single-article writes on each store: guarded by the rev they were based on and by live codes, ids made again continuing above old revs. */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import type { Article } from "../../src/article.ts";
import { openTarget, STORES, type Target } from "./targets.ts";

const article = (id: string, more: Partial<Article> = {}): Article => ({
  id,
  code: null,
  tag: null,
  title: `Title ${id}`,
  description: "",
  url: "https://e.com/",
  picurl: null,
  keywords: [],
  deleted: false,
  rev: 1,
  created_at: "2026-11-24T00:00:00.000Z",
  updated_at: "2026-11-24T00:00:00.000Z",
  ...more,
});

describe.each(STORES)("%s", (kind) => {
  let t: Target;
  beforeEach(async () => void (t = await openTarget(kind)));
  afterEach(() => t.close());

  test("created, revised at the rev it was read at, refused at any other", async () => {
    expect(await t.putArticle(article("a1", { code: "K", keywords: ["x"] }), null)).toEqual(article("a1", { code: "K", keywords: ["x"] }));
    await expect(t.putArticle(article("a1"), null)).rejects.toMatchObject({ code: "id_exists", status: 409 });
    const revised = await t.putArticle(article("a1", { title: "Revised", rev: 2 }), 1);
    expect(revised).toMatchObject({ title: "Revised", rev: 2 });
    await expect(t.putArticle(article("a1", { title: "Stale", rev: 2 }), 1)).rejects.toMatchObject({ code: "rev_mismatch", details: { current_rev: 2 } });
    await expect(t.putArticle(article("zz", { rev: 4 }), 3)).rejects.toMatchObject({ code: "rev_mismatch", details: { current_rev: null } });
    expect(t.store.articles.get("a1")).toMatchObject({ title: "Revised", rev: 2 });
    expect(t.store.articles.get("zz")).toBeNull();
  });

  test("a live code belongs to one article; a soft-deleted one keeps its code without holding it", async () => {
    await t.putArticle(article("a1", { code: "K" }), null);
    await expect(t.putArticle(article("a2", { code: "k" }), null)).rejects.toMatchObject({ code: "code_taken", details: { id: "a1" } });
    expect(t.store.articles.get("a2")).toBeNull();
    await t.putArticle(article("a1", { code: "K", deleted: true, rev: 2 }), 1);
    expect(await t.putArticle(article("a2", { code: "k" }), null)).toMatchObject({ code: "k" });
    expect(t.store.articles.getLiveByCode("K")?.id).toBe("a2");
  });

  test("purged for good; the id made again continues above its old revs", async () => {
    await t.putArticle(article("a1"), null);
    await t.putArticle(article("a1", { rev: 2 }), 1);
    expect(await t.purgeArticle("a1")).toBe(true);
    expect(await t.purgeArticle("a1")).toBe(false);
    expect(t.store.articles.get("a1")).toBeNull();
    expect(await t.putArticle(article("a1", { title: "Someone else's" }), null)).toMatchObject({ rev: 3, title: "Someone else's" });
  });
});
