/**
 * The local read copy of a PostgreSQL store follows the database's change feed: rows as they are now,
 * purges, codes that moved through states the feed does not show, content reloaded when it changed.
 * Rows are written here the way the store's writers write them: each under the write lock, each
 * write taking a new generation.
 */
import { afterAll, afterEach, beforeAll, beforeEach, expect, test } from "bun:test";
import { SQL, type TransactionSQL } from "bun";
import { articleJson } from "../../src/article/article.ts";
import { LOCKS, prepareDatabase } from "../../src/store/postgres/connect.ts";
import { fromRow } from "../../src/store/rows.ts";
import { readChanges, type PgRow } from "../../src/store/postgres/feed.ts";
import { Replica } from "../../src/store/postgres/replica.ts";
import { type DataFolder } from "../../src/store/sqlite/data-folder.ts";
import { openStore, tempDir } from "../helpers.ts";
import { startPostgres, type Postgres } from "../pg.ts";
import { BULK_INDEX_THRESHOLD } from "../../src/store/model/model.ts";

let pg: Postgres;
let n = 0;
beforeAll(() => void (pg = startPostgres()));
afterAll(() => pg?.stop());

let sql: SQL;
let tmp: ReturnType<typeof tempDir>;
let store: DataFolder;
beforeEach(async () => {
  const admin = new SQL(pg.url);
  const name = `replica${++n}`;
  await admin.unsafe(`CREATE DATABASE ${name}`);
  await admin.close();
  sql = new SQL(pg.url.replace(/\/replyd$/, `/${name}`));
  await prepareDatabase(sql, { now: new Date(), firstKey: false });
  tmp = tempDir();
  store = openStore(tmp.dir);
});
afterEach(async () => {
  store.close();
  tmp.cleanup();
  await sql.close();
});

type Tx = TransactionSQL;
const write = (fn: (tx: Tx) => Promise<unknown>) =>
  sql.begin(async (tx) => {
    await tx`SELECT pg_advisory_xact_lock(${LOCKS.write.toString()}::bigint)`;
    await fn(tx);
  });
const row = (id: string, code: string | null, more: { title?: string; deleted?: boolean; rev?: number } = {}) => ({
  id,
  code,
  title: more.title ?? `Title ${id}`,
  url: `https://e.com/${id}`,
  deleted: more.deleted ?? false,
  rev: more.rev ?? 1,
  created_at: "2026-11-24T00:00:00.000Z",
  updated_at: "2026-11-24T00:00:00.000Z",
});
const insert = (tx: Tx, r: ReturnType<typeof row>) =>
  tx`INSERT INTO articles (id, code, title, url, deleted, rev, created_at, updated_at) VALUES (${r.id}, ${r.code}, ${r.title}, ${r.url}, ${r.deleted}, ${r.rev}, ${r.created_at}, ${r.updated_at})`;
const setCode = (tx: Tx, id: string, code: string | null) => tx`UPDATE articles SET code = ${code}, rev = rev + 1, gen = nextval('change_gen') WHERE id = ${id}`;
const purge = async (tx: Tx, id: string) => {
  await tx`DELETE FROM articles WHERE id = ${id}`;
  await tx`INSERT INTO removals (id) VALUES (${id})`;
};
/** The database's articles and the copy's, in the same shape. */
const inDb = async () => ((await sql`SELECT * FROM articles ORDER BY id`) as PgRow[]).map((r) => articleJson(fromRow(r)));
const inCopy = () => [...store.articles.iterateAll()].map(articleJson);

test("rows written, revised, purged and made again: the copy ends as the database is", async () => {
  const replica = new Replica(store, sql);
  await write(async (tx) => {
    for (const id of ["a1", "a2", "a3"]) await insert(tx, row(id, id.toUpperCase()));
  });
  expect(await replica.catchUp()).toBe(3);
  await write(async (tx) => {
    await setCode(tx, "a1", "NEW");
    await purge(tx, "a2");
    await purge(tx, "a3");
    await insert(tx, row("a3", "A3", { title: "made again", rev: 2 }));
  });
  // Two removals, then the two rows as they are now.
  expect(await replica.catchUp()).toBe(4);
  expect(inCopy()).toEqual(await inDb());
  expect(store.articles.get("a2")).toBeNull();
  expect(store.articles.getLiveByCode("new")?.id).toBe("a1");
  // Nothing new: nothing applied, the generation stays.
  const gen = replica.generation;
  expect(await replica.catchUp()).toBe(0);
  expect(replica.generation).toBe(gen);
});

test("two articles swap codes in one transaction (the feed shows only where they ended): the copy follows", async () => {
  const replica = new Replica(store, sql);
  await write(async (tx) => {
    await insert(tx, row("a1", "X"));
    await insert(tx, row("a2", "Y"));
    await insert(tx, row("a3", "Z"));
  });
  await replica.catchUp();
  await write(async (tx) => {
    await setCode(tx, "a1", null);
    await setCode(tx, "a2", "X");
    await setCode(tx, "a3", "Y");
    await setCode(tx, "a1", "Z");
  });
  await replica.catchUp();
  expect(inCopy()).toEqual(await inDb());
  expect(["x", "y", "z"].map((c) => store.articles.getLiveByCode(c)?.id)).toEqual(["a2", "a3", "a1"]);
});

test("the feed reads page by page from one snapshot; a write made meanwhile waits for the next catch-up", async () => {
  await write(async (tx) => {
    for (let i = 0; i < 7; i++) await insert(tx, row(`a${i}`, null));
  });
  const pages: number[] = [];
  let concurrent: Promise<unknown> | null = null;
  const to = await readChanges(
    sql,
    0n,
    async (page) => {
      pages.push(page.articles.length);
      concurrent ??= write((tx) => insert(tx, row("late", null)));
    },
    3,
  );
  await concurrent;
  expect(pages).toEqual([3, 3, 1]);
  const after: string[] = [];
  await readChanges(sql, to, (page) => void after.push(...page.articles.map((a) => a.id)));
  expect(after).toEqual(["late"]);
});

test("many rows at once: written without per-row indexing, the search index rebuilt, search finds them", async () => {
  const count = BULK_INDEX_THRESHOLD + 500;
  await write((tx) => tx`INSERT INTO articles (id, code, title, url, created_at, updated_at)
    SELECT 'a' || g, 'c' || g, CASE WHEN g = 77 THEN 'zebra crossing' ELSE 'plain ' || g END, 'https://e.com/' || g, '2026-11-24T00:00:00.000Z', '2026-11-24T00:00:00.000Z'
    FROM generate_series(1, ${count}) g`);
  const replica = new Replica(store, sql);
  expect(await replica.catchUp()).toBe(count);
  await store.indexed();
  expect(store.articles.search(["zebra"]).map((a) => a.id)).toEqual(["a77"]);
  expect(store.articles.counts().live).toBe(count);
});

test("tags, rules, texts and the menu are reloaded when the content generation moves, and only then", async () => {
  const replica = new Replica(store, sql);
  await write(async (tx) => {
    await tx`INSERT INTO tags (tag, description) VALUES ('news', 'News')`;
    await tx`INSERT INTO rules (id, position, body) VALUES ('hi', 0, ${JSON.stringify({ id: "hi", match: "hello", reply: { type: "text", content: "Hi!" } })})`;
    await tx`INSERT INTO texts (key, value) VALUES ('welcome', 'Welcome!')`;
    await tx`INSERT INTO menu (id, body, updated_at, pushed_at) VALUES (1, ${JSON.stringify({ button: [{ type: "click", name: "Help", key: "help" }] })}, '2026-11-24T01:00:00.000Z', NULL)`;
    await tx`UPDATE meta SET value = (value::bigint + 1)::text WHERE key = 'content_gen'`;
  });
  await replica.catchUp();
  expect(store.content.tags()).toEqual({ news: "News" });
  expect(store.content.rules().map((r) => r.id)).toEqual(["hi"]);
  expect(store.content.texts()).toEqual({ welcome: "Welcome!" });
  expect(store.content.menu()).toEqual({ menu: { button: [{ type: "click", name: "Help", key: "help" }] }, updated_at: "2026-11-24T01:00:00.000Z", pushed_at: null });
  // A change without the generation moving is not a change (writers always move it with their write).
  await sql`UPDATE tags SET description = 'Changed'`;
  await replica.catchUp();
  expect(store.content.tags()).toEqual({ news: "News" });
});

test("a copy opened again continues from the generation it reached", async () => {
  await write((tx) => insert(tx, row("a1", null)));
  await new Replica(store, sql).catchUp();
  await write((tx) => insert(tx, row("a2", null)));
  const again = new Replica(store, sql);
  expect(await again.catchUp()).toBe(1);
  expect(inCopy()).toEqual(await inDb());
});

test("catch-ups asked for while one runs wait for it and share the next one: every row is applied once", async () => {
  const replica = new Replica(store, sql);
  await write(async (tx) => {
    for (const id of ["a1", "a2", "a3"]) await insert(tx, row(id, null));
  });
  const first = replica.catchUp();
  const second = replica.catchUp();
  const third = replica.catchUp();
  // The two that came while the first ran get one catch-up after it, the same one.
  expect(third).toBe(second);
  expect(second).not.toBe(first);
  expect(await Promise.all([first, second, third])).toEqual([3, 0, 0]);
  // Done: the next caller starts a catch-up of its own.
  await write((tx) => insert(tx, row("a4", null)));
  expect(await replica.catchUp()).toBe(1);
  expect(inCopy()).toEqual(await inDb());
});

test("a restore's wipe in a copy holding articles: the old ones go, new ids take their codes, the copy ends as the database is", async () => {
  const replica = new Replica(store, sql);
  await write(async (tx) => {
    await insert(tx, row("a1", "X"));
    await insert(tx, row("a2", "Y"));
  });
  await replica.catchUp();
  await write(async (tx) => {
    await tx`DELETE FROM articles`;
    await tx`INSERT INTO removals (id) VALUES (NULL)`;
    await insert(tx, row("b1", "X"));
    await insert(tx, row("b2", "Y", { deleted: true }));
    await insert(tx, row("b3", "y"));
  });
  await replica.catchUp();
  expect(inCopy()).toEqual(await inDb());
  expect(["x", "y"].map((c) => store.articles.getLiveByCode(c)?.id)).toEqual(["b1", "b3"]);
});
