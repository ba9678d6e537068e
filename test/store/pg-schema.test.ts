/** The PostgreSQL store's schema: migrated under a lock, the first key created once, a newer schema refused. */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { SQL } from "bun";
import { prepareDatabase } from "../../src/store/postgres/connect.ts";
import { redactUrl } from "../../src/store/postgres/url.ts";
import { PG_SCHEMA_VERSION } from "../../src/store/postgres/schema.ts";
import { LISTED } from "../../src/store/follower-log.ts";
import { startPostgres, type Postgres } from "../pg.ts";

let pg: Postgres;
beforeAll(() => void (pg = startPostgres()));
afterAll(() => pg?.stop());

/** A database of its own for each test. */
async function freshDb(name: string): Promise<{ url: string }> {
  const admin = new SQL(pg.url);
  await admin.unsafe(`CREATE DATABASE ${name}`);
  await admin.close();
  return { url: pg.url.replace(/\/replyd$/, `/${name}`) };
}

test("three instances starting at once on an empty database: one migrates and creates the first key, the others wait and create nothing", async () => {
  const { url } = await freshDb("race");
  const clients = [new SQL(url), new SQL(url), new SQL(url)];
  try {
    const results = await Promise.all(clients.map((c) => prepareDatabase(c, { now: new Date(), firstKey: true })));
    expect(results.map((r) => r.from).sort()).toEqual([0, PG_SCHEMA_VERSION, PG_SCHEMA_VERSION]);
    expect(results.filter((r) => r.firstKey).length).toBe(1);
    const keys = await clients[0]!`SELECT appkey, scope FROM admin_keys`;
    expect(keys).toEqual([{ appkey: results.find((r) => r.firstKey)!.firstKey!.appkey, scope: "admin" }]);
    expect(await clients[0]!`SELECT version FROM replyd_schema`).toEqual([{ version: PG_SCHEMA_VERSION }]);
  } finally {
    await Promise.all(clients.map((c) => c.close()));
  }
});

test("a start asked for no first key (keys from the environment) creates none; a later start does not either once one exists", async () => {
  const { url } = await freshDb("nokey");
  const sql = new SQL(url);
  try {
    expect((await prepareDatabase(sql, { now: new Date(), firstKey: false })).firstKey).toBeNull();
    expect(await sql`SELECT count(*)::int AS n FROM admin_keys`).toEqual([{ n: 0 }]);
    expect((await prepareDatabase(sql, { now: new Date(), firstKey: true })).firstKey).not.toBeNull();
    expect((await prepareDatabase(sql, { now: new Date(), firstKey: true })).firstKey).toBeNull();
  } finally {
    await sql.close();
  }
});

test("a database from a newer replyd is refused and not touched", async () => {
  const { url } = await freshDb("newer");
  const sql = new SQL(url);
  try {
    await prepareDatabase(sql, { now: new Date(), firstKey: false });
    await sql`UPDATE replyd_schema SET version = ${PG_SCHEMA_VERSION + 1}`;
    await expect(prepareDatabase(sql, { now: new Date(), firstKey: true })).rejects.toThrow("newer than this replyd understands");
    expect(await sql`SELECT count(*)::int AS n FROM admin_keys`).toEqual([{ n: 0 }]);
  } finally {
    await sql.close();
  }
});

test("a database URL is shown without its password", () => {
  expect(redactUrl("postgres://replyd:s3cret@db.internal:5432/replyd")).toBe("postgres://replyd:***@db.internal:5432/replyd");
  expect(redactUrl("postgres://db/replyd")).toBe("postgres://db/replyd");
  expect(redactUrl("not a url s3cret")).not.toContain("s3cret");
});

test("the questions answered with a list are read through their partial index (messages_lists), its predicate the one the log's query writes", async () => {
  const { url } = await freshDb("lists");
  const sql = new SQL(url);
  try {
    await prepareDatabase(sql, { now: new Date(), firstKey: false });
    const plan = await sql.begin(async (tx) => {
      // An empty table: the planner would read it whole; asked not to, it shows whether the index applies.
      await tx`SET LOCAL enable_seqscan = off`;
      const rows = (await tx.unsafe(`EXPLAIN SELECT * FROM messages WHERE ${LISTED.postgres} ORDER BY seq DESC LIMIT 50`)) as Record<string, string>[];
      return rows.map((r) => r["QUERY PLAN"]).join("\n");
    });
    expect(plan).toContain("messages_lists");
  } finally {
    await sql.close();
  }
});
