/**
 * The message log while PostgreSQL is away: messages wait in order, bounded, and are written when it
 * is back, through the same client (nothing restarted); past the bound they are counted as dropped.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { SQL } from "bun";
import { prepareDatabase } from "../../src/store/postgres/connect.ts";
import { PgMessageLog } from "../../src/store/postgres/log.ts";
import { T0 } from "../helpers.ts";
import { startPostgres, type Postgres } from "../pg.ts";

let pg: Postgres;
beforeAll(() => void (pg = startPostgres()));
afterAll(() => pg?.stop());

const entry = (key: string) => ({ received_ms: T0, msg_key: key, from_user: "o_1", type: "text", event: null, content: key, answer: "code", unmatched: false });

test("database stopped: messages wait, health can count them, and all are written once it is back", async () => {
  const sql = new SQL(pg.url);
  await prepareDatabase(sql, { now: new Date(), firstKey: false });
  const errors: string[] = [];
  const log = new PgMessageLog(sql, (m) => errors.push(m), 3);
  try {
    log.add(entry("m:before"));
    await log.settled();
    pg.halt();
    for (let i = 0; i < 5; i++) log.add(entry(`m:${i}`));
    await Bun.sleep(300);
    // Three kept (the bound here), two answered but not logged, and said once.
    expect(log.backlog).toEqual({ unwritten: 3, dropped: 2 });
    expect(errors.filter((e) => e.includes("answered but not logged"))).toHaveLength(1);
    expect(log.lastError).not.toBeNull();
    await expect(log.settled(300)).rejects.toThrow("3 messages are not written yet");
    pg.resume();
    await log.settled(15_000);
    expect(log.backlog).toEqual({ unwritten: 0, dropped: 2 });
    expect(log.lastError).toBeNull();
    const { items } = await log.list({ unmatchedOnly: false, limit: 10, offset: 0 });
    expect(items.map((m) => m.msg_key)).toEqual(["m:2", "m:1", "m:0", "m:before"]);
  } finally {
    await log.close(1000);
    await sql.close();
  }
}, 30_000);
