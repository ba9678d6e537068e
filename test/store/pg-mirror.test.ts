/**
 * A bulk write that replaces every article (a restore, an init into an empty database) loads the
 * read copy alongside (store/postgres/mirror.ts), and the restore's automatic backup is taken alongside
 * too (store/postgres/restore.ts): the copy ends as the database is without reading it back, whatever
 * goes wrong on either side leaves a state the feed can continue from, and the backup holds what
 * was replaced.
 */
import { afterEach, beforeEach, expect, test } from "bun:test";
import { SQL } from "bun";
import { articleJson, type ArticleInput } from "../../src/article/article.ts";
import { asBulk, type ReplydDocument } from "../../src/doc/document.ts";
import { fromRow } from "../../src/store/rows.ts";
import { backupPg, listBackupsPg, readBackupPg } from "../../src/store/postgres/backups.ts";
import { importDocumentPg } from "../../src/store/postgres/bulk.ts";
import { LOCKS, prepareDatabase } from "../../src/store/postgres/connect.ts";
import type { PgRow } from "../../src/store/postgres/feed.ts";
import { CopyMirror } from "../../src/store/postgres/mirror.ts";
import { Replica } from "../../src/store/postgres/replica.ts";
import { restoreDocumentPg } from "../../src/store/postgres/restore.ts";
import type { DataFolder } from "../../src/store/sqlite/data-folder.ts";
import { openStore, T0, tempDir } from "../helpers.ts";
import { testDatabase } from "../pg.ts";

let db: Awaited<ReturnType<typeof testDatabase>>;
let sql: SQL;
let tmp: ReturnType<typeof tempDir>;
let store: DataFolder;
let logged: string[];
let replica: Replica;
beforeEach(async () => {
  db = await testDatabase();
  sql = new SQL(db.url);
  await prepareDatabase(sql, { now: new Date(), firstKey: false });
  tmp = tempDir();
  store = openStore(tmp.dir);
  logged = [];
  replica = new Replica(store, sql, (m) => logged.push(m));
});
afterEach(async () => {
  store.close();
  tmp.cleanup();
  await sql.close();
  await db.drop();
});

const at = { now: T0, keep: 5 };
const NOW = new Date(T0).toISOString();
const record = (id: string, more: Partial<ArticleInput> = {}): ArticleInput => ({ id, code: id.toUpperCase(), title: `Title ${id}`, url: `https://e.com/${id}`, ...more });
const doc = (articles: ArticleInput[], matter: "articles" | "all" = "articles") => asBulk({ format: "replyd/1", matter, created_at: NOW, articles, tags: {} } as ReplydDocument);
const inDb = async () => ((await sql`SELECT * FROM articles ORDER BY id`) as PgRow[]).map((r) => articleJson(fromRow(r)));
const inCopy = () => [...store.articles.iterateAll()].map(articleJson);
const generation = async () =>
  BigInt(((await sql`SELECT greatest((SELECT max(gen) FROM articles), (SELECT max(gen) FROM removals))::text AS g`) as [{ g: string }])[0].g);
/** Another instance's write: under the write lock, as every writer. */
const writeElsewhere = (id: string) =>
  sql.begin(async (tx) => {
    await tx`SELECT pg_advisory_xact_lock(${LOCKS.write.toString()}::bigint)`;
    await tx`INSERT INTO articles (id, title, url, created_at, updated_at) VALUES (${id}, 'elsewhere', 'https://e.com/x', ${NOW}, ${NOW})`;
  });

test("a restore loads the copy alongside: PostgreSQL's revs and filled-in times, at its generation; nothing is read back", async () => {
  await importDocumentPg(sql, doc([record("a1"), record("a2"), record("gone")]), "merge", at);
  await replica.catchUp();
  // The restored a1 claims rev 1, which its id had already: PostgreSQL gives it 2; a2 has no times.
  const restored = [record("a1", { rev: 1, created_at: "2026-01-01T00:00:00.000Z", updated_at: "2026-01-02T00:00:00.000Z" }), record("a2"), record("b1", { rev: 7 })];
  const result = await replica.mirrored((m) => restoreDocumentPg(sql, doc(restored), "articles", at, m));
  expect(result.articles).toBe(3);
  expect(inCopy()).toEqual(await inDb());
  expect(inCopy().map((a) => [a.id, a.rev, a.created_at, a.updated_at])).toEqual([
    ["a1", 2, "2026-01-01T00:00:00.000Z", "2026-01-02T00:00:00.000Z"],
    ["a2", 2, NOW, NOW],
    ["b1", 7, NOW, NOW],
  ]);
  expect(replica.generation).toBe(await generation());
  // The copy already holds it all: the feed has nothing more to give.
  expect(await replica.catchUp()).toBe(0);
  // Searchable once the index is rebuilt, as after any bulk write.
  await store.indexed();
  expect(store.articles.search(["b1"]).map((a) => a.id)).toEqual(["b1"]);
  // The feed continues from there: another instance's write arrives, nothing else.
  await writeElsewhere("c1");
  expect(await replica.catchUp()).toBe(1);
  expect(inCopy()).toEqual(await inDb());
  expect(logged).toEqual([]);
});

test("an init into an empty database loads the copy alongside; what the copy still held of purged articles goes", async () => {
  await importDocumentPg(sql, doc([record("old")]), "merge", at);
  await replica.catchUp();
  // Purged in the database; this copy has not caught up yet.
  await sql.begin(async (tx) => {
    await tx`SELECT pg_advisory_xact_lock(${LOCKS.write.toString()}::bigint)`;
    await tx`DELETE FROM articles`;
    await tx`INSERT INTO removals (id) VALUES ('old')`;
  });
  const result = await replica.mirrored((m) => importDocumentPg(sql, doc([record("n1"), record("n2")]), "init", at, m));
  expect(result.added).toBe(2);
  expect(inCopy().map((a) => a.id)).toEqual(["n1", "n2"]);
  expect(inCopy()).toEqual(await inDb());
  expect(await replica.catchUp()).toBe(0);
});

test("a merge into articles already there does not use the mirror: the copy catches up from the feed", async () => {
  await importDocumentPg(sql, doc([record("a1")]), "merge", at);
  await replica.catchUp();
  await replica.mirrored((m) => importDocumentPg(sql, doc([record("a1", { title: "changed" }), record("a2")]), "merge", at, m));
  expect(inCopy().map((a) => a.title)).toEqual(["Title a1"]);
  expect(await replica.catchUp()).toBe(2);
  expect(inCopy()).toEqual(await inDb());
});

test("a restore that fails after the copy began leaves the copy and its generation as they were; its backup is kept", async () => {
  await importDocumentPg(sql, doc([record("a1"), record("a2")]), "merge", at);
  await replica.catchUp();
  const before = inCopy();
  const gen = replica.generation;
  // Two records with one id, past validation (a document is checked before it gets here): the primary key refuses the second.
  const twice = doc([record("x1"), record("x1", { code: "OTHER" })]);
  await expect(replica.mirrored((m) => restoreDocumentPg(sql, twice, "articles", at, m))).rejects.toThrow(/duplicate key/);
  expect(inCopy()).toEqual(before);
  expect(replica.generation).toBe(gen);
  expect(await inDb()).toEqual(before);
  expect(store.articles.index.indexComplete).toBe(true);
  // The automatic backup was taken alongside, committed on its own: it holds what the restore would have replaced.
  const [auto] = await listBackupsPg(sql, "articles");
  expect(auto?.kind).toBe("auto");
  expect(JSON.parse(await backupText(auto?.id as string)).articles).toEqual(before);
  // And the copy goes on following the database.
  await writeElsewhere("c1");
  expect(await replica.catchUp()).toBe(1);
  expect(inCopy()).toEqual(await inDb());
});

test("a copy that cannot be written does not fail the database's write: it is said once, and the feed catches the copy up", async () => {
  await importDocumentPg(sql, doc([record("a1")]), "merge", at);
  await replica.catchUp();
  const broken = new CopyMirror(`${tmp.dir}/no-such-folder/replyd.db`, (m) => logged.push(m));
  const result = await restoreDocumentPg(sql, doc([record("b1"), record("b2")]), "articles", at, broken);
  expect(result.articles).toBe(2);
  expect(broken.commit()).toBeNull();
  expect(logged).toHaveLength(1);
  expect(logged[0]).toMatch(/could not be written alongside the database .*catches up from the database instead/);
  expect(await replica.catchUp()).toBeGreaterThan(0);
  expect(inCopy()).toEqual(await inDb());
  expect(inCopy().map((a) => a.id)).toEqual(["b1", "b2"]);
});

test("catch-ups asked for during a mirrored write wait for it, then find nothing left to apply", async () => {
  await importDocumentPg(sql, doc([record("a1")]), "merge", at);
  await replica.catchUp();
  // Something for a catch-up to apply: one that did not wait would write it to the copy (1), and
  // would find the copy's write lock taken once the mirror has begun.
  await writeElsewhere("c1");
  const restore = replica.mirrored((m) => restoreDocumentPg(sql, doc(Array.from({ length: 3000 }, (_, i) => record(`r${i}`))), "articles", at, m));
  const during = replica.catchUp();
  await restore;
  expect(await during).toBe(0);
  expect(inCopy()).toEqual(await inDb());
});

test("the automatic backup, taken alongside the restore, holds exactly what it replaced", async () => {
  const old = Array.from({ length: 2500 }, (_, i) => record(`o${String(i).padStart(4, "0")}`));
  await importDocumentPg(sql, doc(old), "merge", at);
  const manual = await backupPg(sql, "articles", T0, 5);
  const result = await replica.mirrored((m) => restoreDocumentPg(sql, doc([record("n1")]), "articles", at, m));
  expect(result.backup.kind).toBe("auto");
  // The same document a manual backup of that state was, articles for articles.
  const auto = JSON.parse(await backupText(result.backup.id));
  expect(auto.articles).toEqual(JSON.parse(await backupText(manual.id)).articles);
  expect(auto.articles).toHaveLength(2500);
  expect(result.backup.sha256).toBe(auto.sha256);
});

async function backupText(id: string): Promise<string> {
  const parts: Uint8Array[] = [];
  await readBackupPg(sql, id, (b) => void parts.push(b));
  return Buffer.concat(parts).toString("utf8");
}
