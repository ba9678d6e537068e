/**
 * A server with [accounts] on PostgreSQL (issue 36 B), started as serve starts it: the default
 * schema keeps the server's tables, and articles a server without accounts left there are said to
 * belong to no account rather than served by one.
 */
import { afterEach, expect, test } from "bun:test";
import { startServer, type RunningServer } from "../../src/server/serve.ts";
import type { DeclaredAccount } from "../../src/account/settings.ts";
import { ADMIN_ENV, article, body, doc, serveOpts, signedRequest, tempDir } from "../helpers.ts";
import { testDatabase } from "../pg.ts";
import { TOKEN } from "../wechat/helpers.ts";

const ACCOUNTS: DeclaredAccount[] = ["shop", "blog"].map((name) => ({ name, wechat: { token: TOKEN, path: `/wechat/${name}` } }));
let cleanups: (() => Promise<unknown> | unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.reverse()) await c();
  cleanups = [];
});

async function serve(db: string, accounts?: DeclaredAccount[]) {
  const tmp = tempDir("replyd-accounts-pg-");
  const lines: string[] = [];
  const s: RunningServer = await startServer(serveOpts(tmp.dir, { db, env: ADMIN_ENV, log: (l) => lines.push(l), ...(accounts ? { accounts } : { wechat: { token: TOKEN } }) }));
  cleanups.push(() => tmp.cleanup());
  return { s, lines };
}
const send = (s: RunningServer, req: Request) => fetch(s.url + new URL(req.url).pathname + new URL(req.url).search, { method: req.method, headers: req.headers, body: req.body });

test("a database a server without accounts filled: with [accounts] its articles are said to belong to no account, and no account serves them", async () => {
  const db = await testDatabase();
  cleanups.push(() => db.drop());
  const before = await serve(db.url);
  const res = await send(before.s, signedRequest("POST", "/api/cli", { nowMs: Date.now(), fields: [["mode", "merge"]], files: [{ name: "json", content: doc([article(1, { title: "Old article" })]) }] }));
  expect(res.status).toBe(200);
  await before.s.stop();

  const after = await serve(db.url, ACCOUNTS);
  cleanups.push(() => after.s.stop());
  expect(after.lines.join("\n")).toContain("the database's default schema holds articles that belong to no account");
  for (const account of ["shop", "blog"]) {
    const list = await body(await send(after.s, signedRequest("GET", "/api/cli", { nowMs: Date.now(), fields: [["q", ""], ["account", account]] })));
    expect(list.data.items).toEqual([]);
  }
});

test("a database with [accounts] from the start: no such warning", async () => {
  const db = await testDatabase();
  cleanups.push(() => db.drop());
  const { s, lines } = await serve(db.url, ACCOUNTS);
  cleanups.push(() => s.stop());
  expect(lines.join("\n")).not.toContain("belong to no account");
});
