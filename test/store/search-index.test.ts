import { expect, test } from "bun:test";
import { parseDocument } from "../../src/doc/validation.ts";
import { openStore, tempDir } from "../helpers.ts";
import { BULK_INDEX_THRESHOLD } from "../../src/store/model/model.ts";
import { rank } from "../../src/ranking/rank.ts";
import { INDEX_VERSION } from "../../src/ranking/tiers.ts";
import { SqlitePostings } from "../../src/store/model/postings.ts";

const docOf = (n: number, word: (i: number) => string) =>
  parseDocument(JSON.stringify(Array.from({ length: n }, (_, i) => ({ id: `a${i}`, code: `c${i}`, title: `${word(i)} article ${i}`, url: `https://e.com/${i}` }))));

test("a bulk import rebuilds the search index in the background; search is right before, during and after", async () => {
  const tmp = tempDir();
  try {
    const store = openStore(tmp.dir);
    const n = BULK_INDEX_THRESHOLD * 3;
    store.importDocument(docOf(n, (i) => (i === n - 7 ? "zebra" : "plain")), "init");
    expect(store.articles.index.indexComplete).toBe(false);
    expect(store.articles.search(["zebra"]).map((a) => a.id)).toEqual([`a${n - 7}`]); // scanning
    await store.indexed();
    expect(store.articles.index.indexComplete).toBe(true);
    expect(store.articles.search(["zebra"]).map((a) => a.id)).toEqual([`a${n - 7}`]); // the index
    // Single writes keep the index in step.
    store.editArticle("a1", { expectRev: 1, decide: (stored) => ({ ...(stored as NonNullable<typeof stored>), title: "giraffe one", rev: 2 }) });
    expect(store.articles.search(["giraffe"]).map((a) => a.id)).toEqual(["a1"]);
    expect(store.articles.search(["plain", "article", "1"]).map((a) => a.id)).not.toContain("a1");
    store.articles.purge("a1");
    expect(store.articles.search(["giraffe"])).toEqual([]);
    store.close();
  } finally {
    tmp.cleanup();
  }
});

test("a rebuild cut short by a restart resumes where it stopped", async () => {
  const tmp = tempDir();
  try {
    let store = openStore(tmp.dir);
    store.importDocument(docOf(BULK_INDEX_THRESHOLD * 4, (i) => (i % 2 ? "odd" : "even")), "init");
    store.close(); // before the background rebuild ran
    store = openStore(tmp.dir);
    expect(store.articles.index.indexBatch(2000)).toBe(false);
    store.close(); // after one batch
    store = openStore(tmp.dir);
    await store.indexed();
    const rows = store.db.query("SELECT count(*) AS n FROM articles_fts").get() as { n: number };
    expect(rows.n).toBe(BULK_INDEX_THRESHOLD * 4); // every article once, none twice
    const even = store.db.query("SELECT count(*) AS n FROM articles_fts WHERE articles_fts MATCH 'even'").get() as { n: number };
    expect(even.n).toBe(BULK_INDEX_THRESHOLD * 2);
    const grams = store.db.query("SELECT count(*) AS n FROM articles_grams").get() as { n: number };
    expect(grams.n).toBe(BULK_INDEX_THRESHOLD * 4);
    store.close();
  } finally {
    tmp.cleanup();
  }
});

test("a new store's search index is complete from the start (nothing to rebuild)", () => {
  const tmp = tempDir();
  try {
    const store = openStore(tmp.dir);
    expect(store.articles.index.indexComplete).toBe(true);
    store.close();
  } finally {
    tmp.cleanup();
  }
});

test("an index that lost entries is found at start (counted against the articles) and rebuilt", async () => {
  const tmp = tempDir();
  try {
    let store = openStore(tmp.dir);
    store.importDocument(docOf(300, (i) => (i === 250 ? "zebra" : "plain")), "init");
    await store.indexed();
    // A batch lost without the bookkeeping noticing (what a commit failing mid-rebuild once did).
    store.db.run("DELETE FROM articles_fts WHERE rowid > 200");
    store.close();
    const errors: string[] = [];
    store = openStore(tmp.dir, { logError: (m) => errors.push(m) });
    // Counted off the event loop after start; health says "checking" meanwhile.
    while (store.indexVerified === "checking") await Bun.sleep(5);
    expect(store.indexVerified).toBe("rebuilt");
    expect(errors.some((e) => e.includes("rebuilding"))).toBe(true);
    await store.indexed();
    expect(store.articles.search(["zebra"]).map((a) => a.id)).toEqual(["a250"]);
    store.close();
    // Control: an intact index is left alone.
    const again: string[] = [];
    store = openStore(tmp.dir, { logError: (m) => again.push(m) });
    while (store.indexVerified === "checking") await Bun.sleep(5);
    expect(store.indexVerified).toBe("ok");
    expect(again).toEqual([]);
    store.close();
  } finally {
    tmp.cleanup();
  }
});

test("health's rebuild progress follows the batches done: 0, a quarter, a half, then complete", async () => {
  const tmp = tempDir();
  try {
    let store = openStore(tmp.dir);
    store.importDocument(docOf(8000, () => "plain"), "init");
    store.close(); // before the background rebuild ran
    store = openStore(tmp.dir);
    expect(store.articles.index.indexProgress()).toBe(0);
    store.articles.index.indexBatch(2000);
    expect(store.articles.index.indexProgress()).toBe(0.25);
    store.articles.index.indexBatch(2000);
    expect(store.articles.index.indexProgress()).toBe(0.5);
    await store.indexed();
    expect(store.articles.index.indexProgress()).toBe(1);
    store.close();
  } finally {
    tmp.cleanup();
  }
});

test("a passage index filed by another version of the ranking is rebuilt at start; one of this version is left alone", async () => {
  const tmp = tempDir();
  try {
    let store = openStore(tmp.dir);
    store.importDocument(
      parseDocument(JSON.stringify([{ id: "refund", title: "售后政策", url: "https://e.com/r", body: "签收后七天内可以申请退款，原路退回。" }, { id: "ship", title: "配送说明", url: "https://e.com/s", body: "顺丰快递，三天送达。" }])),
      "init",
    );
    await store.indexed();
    // What an older replyd left: its own counts, and no version (or another one).
    store.db.run("UPDATE answer_df SET df = 999");
    store.db.run("UPDATE meta SET value = '1' WHERE key = 'answer_version'");
    store.close();
    store = openStore(tmp.dir);
    expect(store.articles.index.indexComplete).toBe(false);
    await store.indexed();
    expect((store.db.query("SELECT max(df) AS d FROM answer_df").get() as { d: number }).d).toBeLessThanOrEqual(2);
    expect((store.db.query("SELECT value FROM meta WHERE key = 'answer_version'").get() as { value: string }).value).toBe(String(INDEX_VERSION));
    const ranked = rank("还能退款吗", new SqlitePostings(store.db));
    expect(ranked.articles[0]?.id).toBe("refund");
    store.close();
    // Control: an index of this version is not rebuilt at the next start.
    store = openStore(tmp.dir);
    expect(store.articles.index.indexComplete).toBe(true);
    store.close();
  } finally {
    tmp.cleanup();
  }
});

for (const how of ["refilePassages", "resetIndex"] as const)
  test(`a write that changed the synonyms and emptied the passage index (${how}), then rolled back, leaves the index as it was: its sizes, and the synonyms it files with`, async () => {
    const tmp = tempDir();
    try {
      const store = openStore(tmp.dir);
      store.importDocument(parseDocument(JSON.stringify([{ id: "pay", title: "Ways to pay", url: "https://e.com/pay", body: "We accept credit cards." }])), "init");
      await store.indexed();
      const sizes = store.articles.index.passageIndexSizes();
      // An import of synonyms or a read copy's content catch-up (refilePassages), a bulk write (resetIndex), whose commit fails.
      expect(() =>
        store.writeArticles(false, () => {
          store.content.replaceSynonyms([["Visa", "credit card"]]);
          store.articles.index[how]();
          throw new Error("the disk is full");
        }),
      ).toThrow("the disk is full");
      expect(store.content.synonyms()).toEqual([]);
      expect(store.articles.index.indexComplete).toBe(true);
      expect(store.articles.index.passageIndexSizes()).toEqual(sizes);
      // A single write after it files the article without the synonyms that never were.
      store.editArticle("pay", { decide: (stored) => ({ ...(stored as NonNullable<typeof stored>), body: "We accept credit cards and cash.", rev: 2 }) });
      const ranked = await store.searcher.rank("credit card");
      expect(ranked && ranked !== "busy" ? ranked.articles.map((a) => a.id) : null).toEqual(["pay"]);
      expect(store.db.query("SELECT df FROM answer_df WHERE term = 'syn_visa'").get()).toBeNull();
      store.close();
    } finally {
      tmp.cleanup();
    }
  });
