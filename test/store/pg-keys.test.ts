/** Admin keys in PostgreSQL: read again every second; refused as a whole while the database is away. */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { SQL } from "bun";
import { prepareDatabase } from "../../src/store/postgres/connect.ts";
import { PgKeyRing } from "../../src/store/postgres/keys.ts";
import { startPostgres, type Postgres } from "../pg.ts";
import { CODE } from "../../src/base/errors.ts";

let pg: Postgres;
beforeAll(() => void (pg = startPostgres()));
afterAll(() => pg?.stop());

const ENV_KEY = { appkey: "from_env", secret: "env-secret-0123456789", scope: "admin" as const };

test("a key added or revoked in the database counts within the refresh; the environment's key besides", async () => {
  const sql = new SQL(pg.url);
  const { firstKey } = await prepareDatabase(sql, { now: new Date(), firstKey: true });
  const ring = await PgKeyRing.open(sql, [ENV_KEY], { everyMs: 50 });
  try {
    expect(ring.lookup(firstKey!.appkey)?.secret).toBe(firstKey!.secret);
    expect(ring.lookup("from_env")?.scope).toBe("admin");
    await sql`INSERT INTO admin_keys (appkey, secret, scope) VALUES ('rk_new', 'new-secret-0123456789', 'read')`;
    await sql`DELETE FROM admin_keys WHERE appkey = ${firstKey!.appkey}`;
    await Bun.sleep(300);
    expect(ring.lookup("rk_new")?.scope).toBe("read");
    expect(ring.lookup(firstKey!.appkey)).toBeUndefined();
    expect(ring.size).toBe(2);
  } finally {
    ring.close();
    await sql.close();
  }
});

test("the database away longer than the bound: 503 database_unavailable; back: accepted again, nothing restarted", async () => {
  const sql = new SQL(pg.url);
  await prepareDatabase(sql, { now: new Date(), firstKey: false });
  const ring = await PgKeyRing.open(sql, [ENV_KEY], { everyMs: 50, staleMs: 400 });
  try {
    expect(() => ring.check()).not.toThrow();
    pg.halt();
    await Bun.sleep(700);
    expect(() => ring.lookup("from_env")).toThrow(expect.objectContaining({ code: CODE.database_unavailable, status: 503 }));
    expect(ring.lastError).not.toBeNull();
    pg.resume();
    const until = performance.now() + 15_000;
    while (performance.now() < until) {
      try {
        ring.check();
        break;
      } catch {
        await Bun.sleep(100);
      }
    }
    expect(ring.lookup("from_env")?.appkey).toBe("from_env");
  } finally {
    ring.close();
    await sql.close();
  }
}, 30_000);
