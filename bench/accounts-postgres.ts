/**
 * Several accounts on PostgreSQL (issue 36 B, docs/operations.md "Several accounts on PostgreSQL"):
 * what a schema per account costs, and the two parts where a shared `account` column would differ.
 *
 * 1. replyd as it is (a schema per account): a server with N accounts opened as serve opens it —
 *    migrations per schema, each account's local copy — then 100 articles imported into each
 *    through the admin API, then 200 follower messages per account answered through the callback.
 * 2. The SQL the alternative would change, on the same data: the migrations (once, against once
 *    per schema), and one account's articles after a generation (the change feed's query, its
 *    columns cut to three in both), from one shared table filtered by account against its own
 *    schema's table. The alternative is not built: this measures its SQL, not a store.
 *
 * Replies are answered from the account's local SQLite copy in either design, so their cost does
 * not depend on the choice; the figures show it does not depend on N either. Needs PostgreSQL.
 * Run: bun bench/accounts-postgres.ts [N…]   (default 1 10)
 */
import { SQL } from "bun";
import { fixedClock } from "../src/base/clock.ts";
import { accountSettings } from "../src/account/settings.ts";
import { createApp } from "../src/server/app.ts";
import type { Backend } from "../src/store/backend.ts";
import { KeyRing } from "../src/store/keys.ts";
import { openAccountsServer } from "../src/store/open.ts";
import { PG_MIGRATIONS } from "../src/store/postgres/schema.ts";
import { ADMIN, article, doc, signedRequest, T0, tempDir } from "../test/helpers.ts";
import { startPostgres } from "../test/pg.ts";
import { textMsg, TOKEN, wxPost } from "../test/wechat/helpers.ts";

const counts = process.argv.slice(2).map(Number).filter((n) => n > 0);
const NS = counts.length ? counts : [1, 10];
const ARTICLES = 100;
const MESSAGES = 200;
const pg = startPostgres();
const admin = new SQL(pg.url);
const ms = (t0: number) => performance.now() - t0;
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))] as number;

async function database(name: string): Promise<string> {
  await admin.unsafe(`CREATE DATABASE ${name}`);
  return pg.url.replace(/\/replyd$/, `/${name}`);
}

async function schemaPerAccount(n: number) {
  const url = await database(`acc_schema_${n}`);
  const { dir, cleanup } = tempDir("replyd-bench-accounts-");
  const clock = fixedClock(T0);
  const options = { clock, keep: 5, extraKeys: [], firstKey: false, logError: () => {} };
  const names = Array.from({ length: n }, (_, i) => `a${i}`);
  let t0 = performance.now();
  const server = await openAccountsServer(url, options);
  const backends: Backend[] = [];
  for (const name of names) backends.push(await server.openAccount(name, options));
  const start = ms(t0);
  const app = await createApp({
    accounts: names.map((name, i) => ({ settings: accountSettings({ token: TOKEN, path: `/wechat/${name}` }, undefined, name), read: (backends[i] as Backend).read, write: (backends[i] as Backend).write })),
    keys: new KeyRing(null, [ADMIN]),
    clock,
    logError: () => {},
    spoolDir: dir,
  });
  const articles = Array.from({ length: ARTICLES }, (_, i) => article(i + 1, { code: `c${i + 1}`, title: `Article ${i + 1} about returns and delivery` }));
  t0 = performance.now();
  for (const name of names) {
    const res = await app.handle(signedRequest("POST", "/api/cli", { nowMs: clock.now(), fields: [["mode", "merge"], ["account", name]], files: [{ name: "json", content: doc(articles) }] }));
    if (res.status !== 200) throw new Error(`import into ${name}: ${res.status} ${await res.text()}`);
  }
  const importPerAccount = ms(t0) / n;
  const replies: number[] = [];
  const now = Math.floor(T0 / 1000);
  for (let m = 0; m < MESSAGES; m++)
    for (const name of names) {
      const t = performance.now();
      const res = await app.handle(wxPost(textMsg(`c${(m % ARTICLES) + 1}`, now), now, { path: `/wechat/${name}` }));
      const text = await res.text();
      replies.push(ms(t));
      if (res.status !== 200 || !text.includes("Article ")) throw new Error(`${name}'s reply: ${res.status} ${text.slice(0, 200)}`);
    }
  for (const a of app.accounts) a.close();
  for (const b of backends) await b.close();
  await server.close();
  cleanup();
  return { start, importPerAccount, p50: pct(replies, 50), p99: pct(replies, 99), url };
}

/** The SQL a shared `account` column would change: migrations once, and a feed read filtered by account. */
async function columnParts(n: number, schemaUrl: string) {
  const url = await database(`acc_column_${n}`);
  const sql = new SQL(url);
  let t0 = performance.now();
  await sql.begin(async (tx) => {
    for (const m of PG_MIGRATIONS) await tx.unsafe(m);
  });
  const migrateOnce = ms(t0);
  await sql.unsafe(`ALTER TABLE articles ADD COLUMN account text NOT NULL DEFAULT '';
    ALTER TABLE articles DROP CONSTRAINT articles_pkey; ALTER TABLE articles ADD PRIMARY KEY (account, id);
    CREATE INDEX articles_account_gen ON articles (account, gen);`);
  for (let a = 0; a < n; a++)
    await sql.unsafe(
      `INSERT INTO articles (account, id, title, url, created_at, updated_at) SELECT 'a${a}', 'a' || g, 'Article ' || g, 'https://example.com/' || g, '2026-11-26', '2026-11-26' FROM generate_series(1, ${ARTICLES}) g`,
    );
  await sql`ANALYZE articles`;
  const rounds = 50;
  t0 = performance.now();
  for (let r = 0; r < rounds; r++) await sql`SELECT id, title, gen FROM articles WHERE account = 'a0' AND gen > 0 ORDER BY gen`;
  const feedColumn = ms(t0) / rounds;
  await sql.close();
  const mine = new SQL({ url: schemaUrl, connection: { search_path: '"replyd_acct_a0"' } });
  t0 = performance.now();
  for (let r = 0; r < rounds; r++) await mine`SELECT id, title, gen FROM articles WHERE gen > 0 ORDER BY gen`;
  const feedSchema = ms(t0) / rounds;
  await mine.close();
  return { migrateOnce, feedColumn, feedSchema };
}

try {
  console.log(`accounts  start ms  import ms/account (${ARTICLES} articles)  reply p50/p99 ms  | migrations once ms  feed read ms: own schema / shared table`);
  for (const n of NS) {
    const s = await schemaPerAccount(n);
    const c = await columnParts(n, s.url);
    console.log(
      `${String(n).padStart(8)}  ${s.start.toFixed(0).padStart(8)}  ${s.importPerAccount.toFixed(1).padStart(33)}  ${`${s.p50.toFixed(2)} / ${s.p99.toFixed(2)}`.padStart(16)}  | ${c.migrateOnce.toFixed(0).padStart(18)}  ${`${c.feedSchema.toFixed(2)} / ${c.feedColumn.toFixed(2)}`.padStart(12)}`,
    );
  }
} finally {
  await admin.close();
  pg.stop();
}
// Bun's SQL keeps the process alive after its pools close.
process.exit(0);
