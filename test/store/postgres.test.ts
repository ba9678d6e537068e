/**
 * The PostgreSQL the store is being moved onto (issue 14), checked before the store relies on it:
 * the throwaway cluster starts on loopback (as the postgres user when the tests run as root),
 * Bun's built-in client reaches it, and the search plan holds — pg_trgm's GIN index serves
 * substrings of three characters and more, Chinese included (which needs the C.UTF-8 locale), and
 * shorter words need an index of their own (character bigrams, as the SQLite store has).
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { SQL } from "bun";
import { existsSync } from "node:fs";
import { startPostgres, type Postgres } from "../pg.ts";

let pg: Postgres;
let sql: SQL;
beforeAll(async () => {
  pg = startPostgres();
  sql = new SQL(pg.url);
  await sql`CREATE EXTENSION IF NOT EXISTS pg_trgm`;
  await sql`CREATE TABLE articles (seq bigserial PRIMARY KEY, title text NOT NULL, grams text[] NOT NULL)`;
  // Enough rows that the planner prefers an index to reading the table.
  await sql`INSERT INTO articles (title, grams) SELECT 'Article number ' || g, ARRAY['ar', 'rt'] FROM generate_series(1, 20000) g`;
  await sql`INSERT INTO articles (title, grams) VALUES ('春节快乐：放假安排', ARRAY['春节', '节快', '快乐']), ('退款流程说明', ARRAY['退款', '款流', '流程'])`;
  await sql`CREATE INDEX articles_title_trgm ON articles USING gin (title gin_trgm_ops)`;
  await sql`CREATE INDEX articles_grams ON articles USING gin (grams)`;
  await sql`ANALYZE articles`;
});
afterAll(async () => {
  await sql?.close();
  pg?.stop();
});

const plan = async (query: string) => (await sql.unsafe(`EXPLAIN ${query}`)).map((r: Record<string, string>) => r["QUERY PLAN"]).join("\n");

test("the throwaway cluster answers Bun's built-in client on loopback, in UTF-8 with the C.UTF-8 locale", async () => {
  expect(pg.url).toMatch(/^postgres:\/\/postgres@127\.0\.0\.1:\d+\/replyd$/);
  const [row] = await sql`SELECT current_setting('server_encoding') AS enc, current_setting('lc_ctype') AS ctype, current_database() AS db`;
  expect(row).toEqual({ enc: "UTF8", ctype: "C.UTF-8", db: "replyd" });
});

test("pg_trgm's GIN index finds a Chinese substring of three characters, case-insensitive Latin too", async () => {
  const q = (p: string) => `SELECT title FROM articles WHERE title ILIKE '${p}'`;
  expect((await sql.unsafe(q("%春节快%"))).map((r: { title: string }) => r.title)).toEqual(["春节快乐：放假安排"]);
  expect(await plan(q("%春节快%"))).toContain("Bitmap Index Scan on articles_title_trgm");
  expect(await plan(q("%NUMBER 1999%"))).toContain("Bitmap Index Scan on articles_title_trgm");
});

test("a two-character word is no trigram: the bigram array's GIN index serves it instead", async () => {
  expect(await plan(`SELECT title FROM articles WHERE title ILIKE '%退款%'`)).not.toContain("articles_title_trgm");
  const found = await sql`SELECT title FROM articles WHERE grams @> ARRAY['退款']`;
  expect(found.map((r: { title: string }) => r.title)).toEqual(["退款流程说明"]);
  expect(await plan(`SELECT title FROM articles WHERE grams @> ARRAY['退款']`)).toContain("Bitmap Index Scan on articles_grams");
});

test("stop removes the cluster and its folder", async () => {
  const other = startPostgres();
  const client = new SQL(other.url);
  expect((await client`SELECT 1 AS one`)[0]).toEqual({ one: 1 });
  await client.close();
  expect(existsSync(other.dir)).toBe(true);
  other.stop();
  expect(existsSync(other.dir)).toBe(false);
  // Nothing listens on its port any more.
  expect(await fetch(`http://127.0.0.1:${other.port}/`).then(() => "answered", () => "refused")).toBe("refused");
});
