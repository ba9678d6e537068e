/**
 * The answer to a bulk write on PostgreSQL tells the truth when the database goes away as it
 * commits (issue 27 E): a proxy between replyd and the database cuts the line just after the COMMIT
 * left (committed, its answer lost) or before the write's last statement (never committed), then
 * refuses connections for a while, as a restarting database does.
 */
import { afterAll, afterEach, beforeAll, expect, test } from "bun:test";
import { SQL } from "bun";
import { startServer, type RunningServer } from "../../src/server/serve.ts";
import { OUTCOME_CHECK_MS } from "../../src/store/postgres/outcome.ts";
import { ADMIN_ENV, article, body, doc, serveOpts, signedRequest, tempDir } from "../helpers.ts";
import { testDatabase } from "../pg.ts";
import { startPgProxy, type PgProxy } from "../pgproxy.ts";
import { CODE } from "../../src/base/errors.ts";

let tmp: ReturnType<typeof tempDir>;
let db: { url: string; drop(): Promise<void> };
let proxy: PgProxy;
let server: RunningServer;

beforeAll(() => void (tmp = tempDir("replyd-outcome-")));
afterAll(() => tmp.cleanup());
afterEach(async () => {
  await server?.stop();
  proxy?.stop();
  await db?.drop();
});

async function start(): Promise<void> {
  db = await testDatabase();
  proxy = startPgProxy(db.url);
  server = await startServer(serveOpts(tmp.dir, { db: proxy.url, env: ADMIN_ENV, maxUpload: 16 << 20 }));
  const first = await send("PUT", "/api/cli/revert/articles", doc(Array.from({ length: 50 }, (_, i) => article(i)), { matter: "articles" }));
  expect(first.status).toBe(200);
}

const send = async (method: string, path: string, content: string, fields: [string, string][] = []) => {
  const req = signedRequest(method, path, { nowMs: Date.now(), fields, files: [{ name: "json", content }] });
  const res = await fetch(server.url + new URL(req.url).pathname, { method, headers: req.headers, body: await req.arrayBuffer() });
  return { status: res.status, ...(await body(res)) };
};
/** What the database itself holds, asked directly (not through the proxy). */
const stored = async () => {
  const sql = new SQL(db.url);
  try {
    return ((await sql`SELECT count(*)::int AS n, min(title) AS first FROM articles`) as [{ n: number; first: string }])[0];
  } finally {
    await sql.close();
  }
};
const replacement = doc(Array.from({ length: 3000 }, (_, i) => article(1000 + i, { title: `Restored ${1000 + i}` })), { matter: "articles" });

test("cut after the COMMIT left, the database back within seconds: the restore's own answer, and it is applied", async () => {
  await start();
  proxy.arm("after-commit", 2000);
  const r = await send("PUT", "/api/cli/revert/articles", replacement);
  expect({ status: r.status, articles: r.data?.articles, error: r.error }).toEqual({ status: 200, articles: 3000, error: undefined });
  expect(await stored()).toEqual({ n: 3000, first: "Restored 1000" });
}, 60_000);

test("cut before the write's last statement: 503 'not applied', and nothing changed", async () => {
  await start();
  proxy.arm("before-marker", 2000);
  const r = await send("PUT", "/api/cli/revert/articles", replacement);
  expect({ status: r.status, code: r.error?.code }).toEqual({ status: 503, code: CODE.database_unavailable });
  expect(r.error.message).toContain("was not applied");
  await proxy.cut;
  expect(await stored()).toEqual({ n: 50, first: "Article 0" });
}, 60_000);

test("cut after the COMMIT left, the database away longer than the check: 503 outcome_unknown saying how to find out", async () => {
  await start();
  proxy.arm("after-commit", OUTCOME_CHECK_MS + 3000);
  const r = await send("PUT", "/api/cli/revert/articles", replacement);
  expect({ status: r.status, code: r.error?.code }).toEqual({ status: 503, code: CODE.outcome_unknown });
  expect(r.error.message).toContain("applied whole or not at all");
  expect(r.error.message).toContain("replyd health");
  // It was in fact applied: PostgreSQL committed what it was sent.
  expect(await stored()).toEqual({ n: 3000, first: "Restored 1000" });
}, 60_000);

test("an import cut after its COMMIT left: its own answer once the database is back", async () => {
  await start();
  proxy.arm("after-commit", 1500);
  const r = await send("POST", "/api/cli", doc([article(7000, { title: "Imported" })], { matter: "articles" }), [["mode", "merge"]]);
  expect({ status: r.status, added: r.data?.added }).toEqual({ status: 200, added: 1 });
  expect((await stored()).n).toBe(51);
}, 60_000);
