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

/** A client on the test server's database, its schema in place. */
async function database(): Promise<SQL> {
  const sql = new SQL(pg.url);
  await prepareDatabase(sql, { now: new Date(), firstKey: false });
  return sql;
}

const entry = (key: string) => ({ received_ms: T0, msg_key: key, from_user: "o_1", type: "text", event: null, content: key, answer: "code", unmatched: false });

test("database stopped: messages wait, health can count them, and all are written once it is back", async () => {
  const sql = await database();
  const errors: string[] = [];
  const log = new PgMessageLog(sql, { onError: (m) => errors.push(m), maxUnwritten: 3 });
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
    const { items } = await log.list({ only: null, limit: 10, offset: 0 });
    expect(items.map((m) => m.msg_key)).toEqual(["m:2", "m:1", "m:0", "m:before"]);
  } finally {
    await log.close(1000);
    await sql.close();
  }
}, 30_000);

test("database stopped while messages keep coming: tried again on the backoff, not once per message nor per wait; said once back, as information", async () => {
  const sql = await database();
  const errors: string[] = [];
  const infos: string[] = [];
  const log = new PgMessageLog(sql, { onError: (m) => errors.push(m), onInfo: (m) => infos.push(m) });
  try {
    log.add(entry("o:before"));
    await log.settled();
    pg.halt();
    // 20 messages over about 700 ms, and an operator's inbox asking for the log meanwhile.
    for (let i = 0; i < 20; i++) {
      log.add(entry(`o:${i}`));
      if (i % 5 === 4) await log.settled(10).catch(() => {});
      await Bun.sleep(35);
    }
    // The tries of a 200, 400, 800 ms backoff, not one per message (there were 20) or per wait.
    const tries = errors.filter((e) => e.includes("could not be written yet"));
    expect(tries.length).toBeGreaterThanOrEqual(1);
    expect(tries.length).toBeLessThanOrEqual(4);
    expect(infos).toEqual([]);
    pg.resume();
    await log.settled(15_000);
    expect(infos).toEqual(["message log: the database takes messages again; writing the 20 that waited"]);
    const { total } = await log.list({ only: null, limit: 1, offset: 0 });
    expect(total).toBeGreaterThanOrEqual(21);
  } finally {
    await log.close(1000);
    await sql.close();
  }
}, 30_000);

test("two instances: a text compared with the follower's last question is not counted as asking it again when another instance logged a message of theirs in between", async () => {
  const sql = await database();
  const other = new PgMessageLog(sql);
  /** Runs once, right after this instance has read the followers' last texts and before it writes. */
  let between: (() => Promise<void>) | null = null;
  const racing = new Proxy(sql, {
    get(target, p) {
      if (p !== "unsafe") return Reflect.get(target, p);
      return async (query: string, args?: unknown[]) => {
        const rows = await target.unsafe(query, args);
        const run = between;
        if (run && query.includes("f.last_seq")) (between = null), await run();
        return rows;
      };
    },
  }) as SQL;
  const log = new PgMessageLog(racing);
  const said = (key: string, at: number, content: string, answer: string) => ({ ...entry(key), from_user: "o_race", received_ms: T0 + at, content, answer, unmatched: answer === "fallback" });
  const againOf = async (key: string) => (await log.list({ only: null, limit: 20, offset: 0 })).items.find((m) => m.msg_key === key)?.again_of;
  const seqOf = async (key: string) => (await log.list({ only: null, limit: 20, offset: 0 })).items.find((m) => m.msg_key === key)?.seq;
  try {
    // Alone, the text asks the question again (a word of it again).
    other.add(said("r:q1", 0, "社保卡怎么补办", "answer:a1"));
    await other.settled();
    log.add(said("r:again1", 1000, "社保卡补办要多久", "fallback"));
    await log.settled();
    expect(await againOf("r:again1")).toBe((await seqOf("r:q1")) as number);
    // Another question logged by the other instance between the read and the write: the text was
    // compared with 社保卡怎么补办, not with it, so it is counted after neither.
    other.add(said("r:q2", 60_000, "社保卡怎么补办", "answer:a1"));
    await other.settled();
    between = async () => {
      other.add(said("r:x", 61_000, "营业时间几点", "answer:a2"));
      await other.settled();
    };
    log.add(said("r:again2", 62_000, "社保卡补办要多久", "fallback"));
    await log.settled();
    expect(between).toBeNull();
    expect(await againOf("r:again2")).toBeNull();
  } finally {
    await log.close(1000);
    await other.close(1000);
    await sql.close();
  }
}, 30_000);
