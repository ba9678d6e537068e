/**
 * Several accounts on PostgreSQL from the binary (issue 36 B): dist/replyd serve --db … --config
 * with [accounts.shop] and [accounts.blog] — each account a schema of its own in the one database,
 * keys server-wide in the default schema (replyd keys add --account NAME --db), backups and
 * restores per account.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { SQL } from "bun";
import { chmodSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BIN, buildIfMissing, keyPrinted, printedKey, runCleanups, spawnServer, type Cleanups, type ServerProcess } from "../binary-server.ts";
import { article, doc, tempDir } from "../helpers.ts";
import { testDatabase } from "../pg.ts";
import { textMsg, TOKEN, wxPost } from "../wechat/helpers.ts";

const PATH = process.env.PATH ?? "/usr/bin:/bin";
let tmp: ReturnType<typeof tempDir>;
let db: { url: string; drop(): Promise<void> };
let server: ServerProcess;
let env: Record<string, string>;
const cleanups: Cleanups = [];

const CONFIG = `host = "127.0.0.1"
port = 0

[accounts.shop]
wx-token = "${TOKEN}"

[accounts.blog]
wx-token = "${TOKEN}"
`;

async function waitFor(check: () => boolean, what: string, ms = 20_000) {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}; stdout: ${server.out()}; stderr: ${server.err().replace(/REPLYD_SECRET=\S+/, "REPLYD_SECRET=…")}`);
    await Bun.sleep(20);
  }
}
function replyd(args: string[], extraEnv: Record<string, string> = {}) {
  const p = Bun.spawnSync([BIN, ...args], { cwd: tmp.dir, env: { PATH, ...env, ...extraEnv }, timeout: 20_000 });
  return { code: p.exitCode, out: p.stdout.toString(), err: p.stderr.toString() };
}

beforeAll(async () => {
  buildIfMissing();
  tmp = tempDir("replyd-accounts-pg-bin-");
  cleanups.push(tmp.cleanup);
  db = await testDatabase();
  cleanups.push(() => db.drop());
  writeFileSync(join(tmp.dir, "replyd.toml"), CONFIG);
  chmodSync(join(tmp.dir, "replyd.toml"), 0o600);
  server = await spawnServer(["--config", "replyd.toml", "--db", db.url], { cwd: tmp.dir, cleanups, until: keyPrinted, ms: 20_000, stopWith: "SIGKILL" });
  env = printedKey(server);
});
afterAll(() => runCleanups(cleanups));

test("the first key is made in the database, and the listening line names the database and both accounts", () => {
  expect(server.err()).toContain("created an admin key in the database at");
  expect(server.err()).toContain("  replyd accounts\n");
  expect(server.out()).toContain('"accounts":[{"name":"shop","wechat":"/wechat/shop"},{"name":"blog","wechat":"/wechat/blog"}]');
  expect(server.out()).toContain('"db":"postgres://');
});

test("an import into shop is shop's alone, kept in shop's schema; the platform at each callback gets its account's article", async () => {
  writeFileSync(join(tmp.dir, "shop.json"), doc([article(1, { code: "c1", title: "Shop returns" })]));
  writeFileSync(join(tmp.dir, "blog.json"), doc([article(2, { code: "c1", title: "Blog post" })]));
  expect(replyd(["import", "shop.json", "--account", "shop"]).code).toBe(0);
  expect(replyd(["import", "blog.json", "--account", "blog"]).code).toBe(0);
  expect(JSON.parse(replyd(["ls", "--json", "--account", "shop"]).out).items.map((a: { title: string }) => a.title)).toEqual(["Shop returns"]);
  expect(JSON.parse(replyd(["health", "--json", "--account", "blog"]).out)).toMatchObject({ store: "postgres", account: "blog", counts: { articles_live: 1 } });
  const sql = new SQL(db.url);
  try {
    expect((await sql`SELECT title FROM replyd_acct_shop.articles`).map((r: { title: string }) => r.title)).toEqual(["Shop returns"]);
    expect((await sql`SELECT title FROM replyd_acct_blog.articles`).map((r: { title: string }) => r.title)).toEqual(["Blog post"]);
    expect((await sql`SELECT count(*)::int AS n FROM public.articles`)[0].n).toBe(0);
  } finally {
    await sql.close();
  }
  const now = Math.floor(Date.now() / 1000);
  for (const [path, title] of [
    ["/wechat/shop", "Shop returns"],
    ["/wechat/blog", "Blog post"],
  ] as const) {
    const req = wxPost(textMsg("c1", now, "5550001"), now, { path });
    const res = await fetch(env.REPLYD_URL + path + new URL(req.url).search, { method: "POST", body: textMsg("c1", now, "5550001"), headers: { "content-type": "text/xml" } });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain(title);
  }
});

test("a backup and a restore of shop leave blog as it was", () => {
  const backup = replyd(["backup", "articles", "-o", "shop-backup.json", "--account", "shop", "--json"]);
  expect(backup.code).toBe(0);
  const id = (JSON.parse(backup.out) as { id: string }).id;
  writeFileSync(join(tmp.dir, "shop2.json"), doc([article(3, { code: "c3", title: "Shop delivery" })]));
  expect(replyd(["import", "shop2.json", "--init", "--yes", "--account", "shop"]).code).toBe(0);
  expect(JSON.parse(replyd(["ls", "--json", "--account", "shop"]).out).items.map((a: { title: string }) => a.title)).toEqual(["Shop delivery"]);
  // Blog has no such backup: ids are the account's.
  expect(replyd(["restore", "--id", id, "--yes", "--account", "blog"]).code).not.toBe(0);
  expect(replyd(["restore", "--id", id, "--yes", "--account", "shop"]).code).toBe(0);
  expect(JSON.parse(replyd(["ls", "--json", "--account", "shop"]).out).items.map((a: { title: string }) => a.title)).toEqual(["Shop returns"]);
  expect(JSON.parse(replyd(["ls", "--json", "--account", "blog"]).out).items.map((a: { title: string }) => a.title)).toEqual(["Blog post"]);
  const blogBackups = JSON.parse(replyd(["backups", "--json", "--account", "blog"]).out) as { items?: unknown[] } | unknown[];
  expect(Array.isArray(blogBackups) ? blogBackups : (blogBackups.items ?? [])).toHaveLength(0);
});

test("a key made with keys add --account shop --db reaches shop alone: forbidden on blog", async () => {
  const made = replyd(["keys", "add", "--account", "shop", "--scope", "read", "--db", db.url, "--json"]);
  expect(made.code).toBe(0);
  const key = JSON.parse(made.out) as { appkey: string; secret: string; account: string };
  expect(key.account).toBe("shop");
  expect(replyd(["keys", "ls", "--db", db.url]).out).toContain(key.appkey);
  const as = { REPLYD_APPKEY: key.appkey, REPLYD_SECRET: key.secret };
  // The database's keys are read again within a second.
  await waitFor(() => replyd(["health"], { ...as, REPLYD_ACCOUNT: "shop" }).code === 0, "the new key to be taken", 5000);
  const r = replyd(["ls", "--account", "blog"], as);
  expect({ code: r.code, err: r.err }).toMatchObject({ code: 1, err: expect.stringContaining("[forbidden]") });
  expect(server.out() + server.err()).not.toContain(key.secret);
});

test("SIGTERM stops every account cleanly", async () => {
  server.proc.kill("SIGTERM");
  expect(await server.exited).toBe(0);
  expect(server.out()).toContain('"event":"stopped","account":"shop"');
  expect(server.out()).toContain('"event":"stopped","account":"blog"');
});
