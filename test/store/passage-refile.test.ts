/**
 * The passage index rebuilt alone (model/article-index.ts refilePassages): when only what every
 * article is filed with changed — another version of the ranking found at start, new synonyms —
 * the title and keyword search indexes are left whole, and the rebuild has its own marker.
 */
import { afterEach, beforeEach, expect, test } from "bun:test";
import { parseDocument } from "../../src/doc/validation.ts";
import { openStore, tempDir } from "../helpers.ts";
import { BULK_INDEX_THRESHOLD } from "../../src/store/model/model.ts";
import { rank } from "../../src/ranking/rank.ts";
import { SqlitePostings } from "../../src/store/model/postings.ts";
import type { DataFolder } from "../../src/store/sqlite/data-folder.ts";

let tmp: ReturnType<typeof tempDir>;
beforeEach(() => void (tmp = tempDir()));
afterEach(() => tmp.cleanup());

const docOf = (n: number, word: (i: number) => string) =>
  parseDocument(JSON.stringify(Array.from({ length: n }, (_, i) => ({ id: `a${i}`, code: `c${i}`, title: `${word(i)} article ${i}`, url: `https://e.com/${i}` }))));
const synonymsDoc = (groups: string[][]) => parseDocument(JSON.stringify({ format: "replyd/1", matter: "synonyms", synonyms: groups }));

const n = (store: DataFolder, sql: string) => (store.db.query(sql).get() as { n: number }).n;
const meta = (store: DataFolder, key: string) => (store.db.query("SELECT value FROM meta WHERE key = ?").get(key) as { value: string } | null)?.value ?? null;
/** The rebuild's marker and the key saying it files the passage index alone, as stored (rebuild-marker.ts). */
const markers = (store: DataFolder) => [meta(store, "fts_rebuild_from"), meta(store, "answer_rebuild_alone")];
const df = (store: DataFolder, term: string) => (store.db.query("SELECT df FROM answer_df WHERE term = ?").get(term) as { df: number } | null)?.df ?? 0;

/**
 * A data folder holding `doc`, indexed, then left as an older replyd leaves it — its own counts, and
 * another version — after `before` (damage of another kind); closed.
 */
async function filedByAnOlderVersion(dir: string, doc: ReturnType<typeof parseDocument>, before?: (store: DataFolder) => void): Promise<void> {
  const store = openStore(dir);
  store.importDocument(doc, "init");
  await store.indexed();
  before?.(store);
  store.db.run("UPDATE answer_df SET df = 999");
  store.db.run("UPDATE meta SET value = '1' WHERE key = 'answer_version'");
  store.close();
}

test("an index of another version is rebuilt alone at start: the search indexes keep every entry and answer throughout", async () => {
  await filedByAnOlderVersion(tmp.dir, docOf(300, (i) => (i === 250 ? "zebra" : "plain")));
  let store = openStore(tmp.dir);
  expect(store.articles.index.indexComplete).toBe(false);
  expect(store.articles.index.searchIndexComplete).toBe(true);
  expect(markers(store)).toEqual(["0.0", "0.0"]);
  expect(n(store, "SELECT count(*) AS n FROM articles_fts")).toBe(300);
  expect(n(store, "SELECT count(*) AS n FROM articles_grams")).toBe(300);
  expect(n(store, "SELECT count(*) AS n FROM articles_fts WHERE articles_fts MATCH 'zebra'")).toBe(1);
  await store.indexed();
  expect(markers(store)).toEqual([null, null]);
  expect([df(store, "zebra"), df(store, "plain")]).toEqual([1, 299]);
  expect(rank("zebra", new SqlitePostings(store.db)).articles[0]?.id).toBe("a250");
  expect(n(store, "SELECT count(*) AS n FROM articles_fts")).toBe(300);
  store.close();
});

test("a rebuild of the passage index alone cut short by a restart resumes where it stopped, still alone, each article counted once", async () => {
  const count = BULK_INDEX_THRESHOLD * 4;
  await filedByAnOlderVersion(tmp.dir, docOf(count, (i) => (i % 2 ? "odd" : "even")));
  let store = openStore(tmp.dir);
  store.close(); // before the background rebuild ran
  store = openStore(tmp.dir);
  expect(store.articles.index.indexBatch(2000)).toBe(false);
  expect(store.articles.index.indexProgress()).toBe(0.25);
  store.close(); // after one batch
  store = openStore(tmp.dir);
  expect(store.articles.index.indexComplete).toBe(false);
  expect(store.articles.index.searchIndexComplete).toBe(true);
  expect(store.articles.index.indexProgress()).toBe(0.25);
  await store.indexed();
  expect([df(store, "even"), df(store, "odd")]).toEqual([count / 2, count / 2]);
  expect(store.articles.index.passageIndexSizes().articles).toBe(count);
  store.close();
});

/** A complete index of 300 articles, a5 holding "credit card"; then the synonym group Visa = credit card imported. */
async function indexedThenSynonyms(): Promise<DataFolder> {
  const store = openStore(tmp.dir);
  store.importDocument(docOf(300, (i) => (i === 5 ? "credit card" : "plain")), "init");
  await store.indexed();
  store.importDocument(synonymsDoc([["Visa", "credit card"]]), "merge");
  return store;
}

test("new synonyms on a complete index rebuild the passage index alone, filing every article with them", async () => {
  const store = await indexedThenSynonyms();
  expect(store.articles.index.searchIndexComplete).toBe(true);
  expect(markers(store)).toEqual(["0.0", "0.0"]);
  expect(n(store, "SELECT count(*) AS n FROM articles_fts")).toBe(300);
  await store.indexed();
  expect(df(store, "syn_visa")).toBe(1);
  const ranked = await store.searcher.rank("visa");
  expect(ranked && ranked !== "busy" ? ranked.articles[0]?.id : null).toBe("a5");
  store.close();
});

test("new synonyms during a rebuild of every index start that rebuild over: what it had filed was filed without them", async () => {
  const count = BULK_INDEX_THRESHOLD * 3;
  const store = openStore(tmp.dir);
  store.importDocument(docOf(count, (i) => (i === 5 ? "credit card" : "plain")), "init");
  expect(store.articles.index.indexBatch(2000)).toBe(false); // a5 filed, without synonyms
  store.importDocument(synonymsDoc([["Visa", "credit card"]]), "merge");
  expect(store.articles.index.searchIndexComplete).toBe(false);
  expect(markers(store)).toEqual(["0", null]);
  await store.indexed();
  expect(df(store, "syn_visa")).toBe(1);
  expect(df(store, "plain")).toBe(count - 1);
  expect(n(store, "SELECT count(*) AS n FROM articles_fts")).toBe(count);
  store.close();
});

test("the count after start taken while the passage index is rebuilt alone, the check after it is whole: no mismatch is reported", async () => {
  await filedByAnOlderVersion(tmp.dir, docOf(300, () => "plain"));
  let store: DataFolder;
  const errors: string[] = [];
  store = openStore(tmp.dir, { logError: (m) => errors.push(m) });
  // The check waits while the index's writes are held; the count, on the search worker, does not.
  const release = store.holdIndexing();
  await Bun.sleep(300);
  while (!store.articles.index.indexBatch(2000));
  release();
  while (store.indexVerified === "checking") await Bun.sleep(5);
  expect(errors).toEqual([]);
  expect(store.indexVerified).toBe("ok");
  store.close();
});

test("after new synonyms the rebuild of the passage index starts by itself, without being asked for", async () => {
  const store = await indexedThenSynonyms();
  expect(store.articles.index.indexComplete).toBe(false);
  // Not store.indexed(), which would start it: the import must have.
  for (let i = 0; i < 100 && !store.articles.index.indexComplete; i++) await Bun.sleep(20);
  expect(store.articles.index.indexComplete).toBe(true);
  expect(df(store, "syn_visa")).toBe(1);
  store.close();
});

test("single writes during a rebuild of the passage index alone, before and past where it stands: each live article counted once", async () => {
  const count = BULK_INDEX_THRESHOLD * 3;
  await filedByAnOlderVersion(tmp.dir, docOf(count, (i) => (i % 2 ? "odd" : "even")));
  let store = openStore(tmp.dir);
  expect(store.articles.index.indexBatch(2000)).toBe(false);
  const retitle = (id: string, title: string) =>
    store.editArticle(id, { decide: (stored) => ({ ...(stored as NonNullable<typeof stored>), title, rev: (stored as NonNullable<typeof stored>).rev + 1 }) });
  retitle("a10", "zebra refiled"); // filed already
  retitle(`a${count - 10}`, "zebra waiting"); // not yet
  store.articles.purge("a12");
  store.articles.purge(`a${count - 12}`);
  store.importDocument(parseDocument(JSON.stringify([{ id: "new", title: "zebra new", url: "https://e.com/new" }])), "merge");
  await store.indexed();
  const live = count - 2 + 1;
  expect(df(store, "zebra")).toBe(3);
  expect(df(store, "even") + df(store, "odd")).toBe(count - 4);
  expect(store.articles.index.passageIndexSizes().articles).toBe(live);
  expect(n(store, "SELECT count(*) AS n FROM articles_fts")).toBe(live);
  expect(n(store, "SELECT count(*) AS n FROM articles_fts WHERE articles_fts MATCH 'zebra'")).toBe(3);
  store.close();
});

test("the key saying the passage index is rebuilt alone is believed only while it equals the marker, written in a form no older replyd writes", async () => {
  await filedByAnOlderVersion(tmp.dir, docOf(BULK_INDEX_THRESHOLD * 3, () => "plain"));
  let store = openStore(tmp.dir);
  expect(store.articles.index.indexBatch(2000)).toBe(false);
  const [marker, alone] = markers(store);
  expect(marker).toBe(alone);
  expect(Number(marker)).toBeGreaterThan(0);
  expect(marker).toMatch(/^\d+\.0$/);
  store.close();
  // An older replyd knows only the marker, which it writes as "0" or a batch's last seq. It goes on as
  // a rebuild of every index from where the marker stands (the same number), or starts one over after a bulk write of its own.
  for (const older of [String(Number(marker)), "0"]) {
    store = openStore(tmp.dir);
    store.db.run("UPDATE meta SET value = ? WHERE key = 'fts_rebuild_from'", [older]);
    store.articles.index.reload();
    expect([store.articles.index.indexComplete, store.articles.index.searchIndexComplete]).toEqual([false, false]);
    store.close();
  }
  // It finished and removed the marker: nothing under way, whatever key it left.
  store = openStore(tmp.dir);
  store.db.run("DELETE FROM meta WHERE key = 'fts_rebuild_from'");
  store.articles.index.reload();
  expect(store.articles.index.indexComplete).toBe(true);
  expect(markers(store)[1]).toBe(alone);
  store.close();
});

test("search entries lost, found at start while the passage index is rebuilt alone: every index is rebuilt", async () => {
  await filedByAnOlderVersion(tmp.dir, docOf(300, (i) => (i === 7 ? "zebra" : "plain")), (store) => {
    store.db.run("DELETE FROM articles_fts WHERE rowid = (SELECT seq FROM articles WHERE id = 'a7')");
    store.db.run("DELETE FROM articles_grams WHERE rowid = (SELECT seq FROM articles WHERE id = 'a7')");
  });
  let store: DataFolder;
  const errors: string[] = [];
  store = openStore(tmp.dir, { logError: (m) => errors.push(m) });
  const release = store.holdIndexing();
  await Bun.sleep(300);
  release();
  while (store.indexVerified === "checking") await Bun.sleep(5);
  expect(store.indexVerified).toBe("rebuilt");
  expect(errors.some((e) => e.includes("does not match"))).toBe(true);
  await store.indexed();
  expect(n(store, "SELECT count(*) AS n FROM articles_fts")).toBe(300);
  expect(n(store, "SELECT count(*) AS n FROM articles_fts WHERE articles_fts MATCH 'zebra'")).toBe(1);
  store.close();
});

test("a batch of a rebuild whose transaction fails leaves the passage index's sizes as committed; done again, each article is counted once", async () => {
  const count = BULK_INDEX_THRESHOLD * 3;
  await filedByAnOlderVersion(tmp.dir, docOf(count, () => "plain"));
  let store = openStore(tmp.dir);
  expect(store.articles.index.indexBatch(2000)).toBe(false);
  const before = store.articles.index.passageIndexSizes();
  // The marker's write fails (as a full disk would), after the batch's entries and sizes were counted.
  store.db.run("CREATE TEMP TRIGGER fail_marker BEFORE INSERT ON meta WHEN NEW.key = 'fts_rebuild_from' BEGIN SELECT RAISE(ABORT, 'the disk is full'); END");
  expect(() => store.articles.index.indexBatch(2000)).toThrow("the disk is full");
  expect(store.articles.index.passageIndexSizes()).toEqual(before);
  store.db.run("DROP TRIGGER fail_marker");
  await store.indexed();
  expect(store.articles.index.passageIndexSizes().articles).toBe(count);
  expect(df(store, "plain")).toBe(count);
  store.close();
});
