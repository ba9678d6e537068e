import { readdirSync } from "node:fs";
import { join } from "node:path";
import { LogWriter } from "../../src/store/sqlite/logwriter.ts";
import { Database } from "bun:sqlite";
import { expect, test } from "bun:test";
import { openStore, T0, tempDir } from "../helpers.ts";

const entry = (key: string, at: number, unmatched = false) => ({
  received_ms: at,
  msg_key: key,
  from_user: "o_1",
  type: "text",
  event: null,
  content: key,
  answer: unmatched ? "fallback" : "code",
  unmatched,
});

test("queued log entries survive a clean close (what SIGTERM does)", async () => {
  const tmp = tempDir();
  try {
    let store = openStore(tmp.dir);
    store.messages.add(entry("m:1", T0));
    store.messages.add(entry("m:2", T0, true));
    store.close();
    store = openStore(tmp.dir);
    expect((await store.messages.list({ only: null, limit: 10, offset: 0 })).items.map((m) => m.msg_key)).toEqual(["m:2", "m:1"]);
    expect((await store.messages.list({ only: "unmatched", limit: 10, offset: 0 })).total).toBe(1);
    // The callback hands over epoch ms; the writer thread stores the ISO time.
    expect((await store.messages.list({ only: null, limit: 1, offset: 1 })).items[0]?.received_at).toBe(new Date(T0).toISOString());
    store.close();
  } finally {
    tmp.cleanup();
  }
});

test("a message key is logged once; entries older than --log-days are pruned", async () => {
  const tmp = tempDir();
  try {
    const store = openStore(tmp.dir);
    const day = 86_400_000;
    store.messages.add(entry("m:old", T0 - 31 * day));
    store.messages.add(entry("m:new", T0));
    store.messages.add(entry("m:new", T0));
    expect((await store.messages.prune(30, T0)).removed).toBe(1);
    expect((await store.messages.list({ only: null, limit: 10, offset: 0 })).items.map((m) => m.msg_key)).toEqual(["m:new"]);
    store.close();
  } finally {
    tmp.cleanup();
  }
});

test("the writer thread waits out another connection's write lock; reading the log waits for the writer", async () => {
  const tmp = tempDir();
  try {
    const store = openStore(tmp.dir);
    const other = new Database(`${tmp.dir}/replyd.db`);
    other.exec("BEGIN IMMEDIATE");
    for (let i = 0; i < 600; i++) store.messages.add(entry(`m:${i}`, T0));
    await Bun.sleep(300); // the writer is stuck behind the lock meanwhile
    other.exec("COMMIT");
    other.close();
    expect((await store.messages.list({ only: null, limit: 1, offset: 0 })).total).toBe(600);
    store.close();
  } finally {
    tmp.cleanup();
  }
});

test("a batch that fails is reported once, kept, and committed when the cause is gone", async () => {
  const tmp = tempDir();
  const errors: string[] = [];
  try {
    const store = openStore(tmp.dir, { logError: (m) => errors.push(m) });
    store.messages.add(entry("m:before", T0));
    store.messages.sync();
    const other = new Database(`${tmp.dir}/replyd.db`);
    other.exec("ALTER TABLE messages RENAME TO messages_away");
    store.messages.add(entry("m:during", T0));
    store.messages.flush();
    await Bun.sleep(700); // several retries, 200 ms apart
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain("no such table");
    other.exec("ALTER TABLE messages_away RENAME TO messages");
    other.close();
    expect((await store.messages.list({ only: null, limit: 10, offset: 0 })).items.map((m) => m.msg_key)).toEqual(["m:during", "m:before"]);
    store.close();
  } finally {
    tmp.cleanup();
  }
});

test("a writer thread that dies is replaced and given the batches it had not confirmed", async () => {
  const tmp = tempDir();
  const errors: string[] = [];
  try {
    const store = openStore(tmp.dir, { logError: (m) => errors.push(m) });
    for (let i = 0; i < 300; i++) store.messages.add(entry(`m:${i}`, T0));
    store.messages.flush();
    // Reach in and make the worker throw outside its error handling (an uncaught RangeError).
    const writer = (store.messages as unknown as { writer: { channel: { worker: Worker } } }).writer;
    writer.channel.worker.postMessage({ ch: 0, open: "x", committed: -1 });
    for (let i = 300; i < 400; i++) store.messages.add(entry(`m:${i}`, T0));
    await Bun.sleep(200);
    expect(errors.some((e) => e.includes("restarting"))).toBe(true);
    expect((await store.messages.list({ only: null, limit: 1, offset: 0 })).total).toBe(400);
    store.close();
  } finally {
    tmp.cleanup();
  }
});

test("a message whose time cannot be formatted is logged with the write time, and does not hold up the rest", async () => {
  const tmp = tempDir();
  try {
    const store = openStore(tmp.dir);
    // NaN crosses to the writer as null; 1e20 ms is past the last date JavaScript can represent.
    store.messages.add(entry("m:nan", Number.NaN));
    store.messages.add(entry("m:far", 1e20));
    store.messages.add(entry("m:next", T0));
    const items = (await store.messages.list({ only: null, limit: 10, offset: 0 })).items;
    expect(items.map((m) => m.msg_key)).toEqual(["m:next", "m:far", "m:nan"]);
    for (const m of items.slice(1)) expect(Date.parse(m.received_at)).toBeGreaterThan(Date.parse("2020-01-01T00:00:00Z"));
    store.close();
  } finally {
    tmp.cleanup();
  }
});

test("a row the database refuses is dropped and reported once; the rest of its batch is logged", async () => {
  const tmp = tempDir();
  const errors: string[] = [];
  try {
    const store = openStore(tmp.dir, { logError: (m: string) => errors.push(m) });
    store.messages.add(entry("m:1", T0));
    // Not something the callback sends (content is text), but a row like it must not wedge the log.
    store.messages.add({ ...entry("m:2", T0), content: { text: "x" } as unknown as string });
    store.messages.add(entry("m:3", T0));
    expect((await store.messages.list({ only: null, limit: 10, offset: 0 })).items.map((m) => m.msg_key)).toEqual(["m:3", "m:1"]);
    // The report comes back from the writer thread as an event.
    for (let i = 0; i < 200 && !errors.length; i++) await Bun.sleep(10);
    store.close();
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain("1 message(s) could not be logged");
  } finally {
    tmp.cleanup();
  }
});

test("closing while the log cannot be written keeps the messages in a spill file, logged at the next start", async () => {
  const tmp = tempDir();
  try {
    let store = openStore(tmp.dir, { logError: () => {} });
    store.messages.add(entry("m:before", T0));
    store.messages.sync();
    const other = new Database(`${tmp.dir}/replyd.db`);
    other.exec("PRAGMA busy_timeout = 5000"); // the writer, stopped at close, may still be letting go of its lock
    other.exec("ALTER TABLE messages RENAME TO messages_away"); // the writer fails from here on, as on a full disk
    for (let i = 0; i < 5; i++) store.messages.add(entry(`m:kept${i}`, T0 + i));
    const closed = store.close(300);
    expect(closed).toMatchObject({ spilled: 5, lost: 0 });
    expect(readdirSync(tmp.dir).filter((n) => n.startsWith("messages-unwritten-"))).toHaveLength(1);
    other.exec("ALTER TABLE messages_away RENAME TO messages");
    other.close();
    const errors: string[] = [];
    store = openStore(tmp.dir, { logError: (m) => errors.push(m) });
    expect(errors.some((e) => e.includes("logged 5 follower messages"))).toBe(true);
    expect((await store.messages.list({ only: null, limit: 10, offset: 0 })).total).toBe(6);
    expect(readdirSync(tmp.dir).filter((n) => n.startsWith("messages-unwritten-"))).toEqual([]);
    store.close();
  } finally {
    tmp.cleanup();
  }
});

test("a spill file kept by a version that logged no reply time or margin is logged whole at the next start, without them", async () => {
  const tmp = tempDir();
  try {
    let store = openStore(tmp.dir);
    store.close();
    // Rows of eight values, as the writer kept them before reply_ms and margin: one unmatched text, one code.
    const rows = [
      [T0, "m:old1", "o_1", "text", null, "where is my order", "fallback", 1],
      [T0 + 1, "m:old2", "o_1", "text", null, "r1", "code", 0],
    ];
    await Bun.write(join(tmp.dir, "messages-unwritten-1.jsonl"), rows.map((r) => JSON.stringify(r)).join("\n") + "\n");
    const errors: string[] = [];
    store = openStore(tmp.dir, { logError: (m) => errors.push(m) });
    expect(errors.some((e) => e.includes("logged 2 follower messages"))).toBe(true);
    const items = (await store.messages.list({ only: null, limit: 10, offset: 0 })).items;
    expect(items.map((m) => [m.msg_key, m.answer, m.unmatched, m.reply_ms, m.margin])).toEqual([
      ["m:old2", "code", false, null, null],
      ["m:old1", "fallback", true, null, null],
    ]);
    store.close();
  } finally {
    tmp.cleanup();
  }
});

test("when not even the spill file can be written, close says how many were lost (serve then exits non-zero)", () => {
  const tmp = tempDir();
  try {
    const store = openStore(tmp.dir, { logError: () => {} });
    store.messages.add(entry("m:before", T0));
    store.messages.sync();
    const other = new Database(`${tmp.dir}/replyd.db`);
    other.exec("ALTER TABLE messages RENAME TO messages_away");
    for (let i = 0; i < 3; i++) store.messages.add(entry(`m:${i}`, T0));
    const r = store.messages.close(join(tmp.dir, "no-such-folder", "spill.jsonl"), 300);
    expect(r).toMatchObject({ unwritten: 3, spilled: null });
    expect(r.error).toBeTruthy();
    other.close();
    store.db.close();
  } finally {
    tmp.cleanup();
  }
});

test("a writer that cannot open the log keeps its batches and retries, instead of dropping them", async () => {
  const tmp = tempDir();
  try {
    const store = openStore(tmp.dir, { logError: () => {} });
    const other = new Database(`${tmp.dir}/replyd.db`);
    other.exec("ALTER TABLE messages RENAME TO messages_away"); // before the writer thread first opens it
    store.messages.add(entry("m:early", T0));
    store.messages.flush();
    await Bun.sleep(300);
    other.exec("ALTER TABLE messages_away RENAME TO messages");
    other.close();
    expect((await store.messages.list({ only: null, limit: 10, offset: 0 })).items.map((m) => m.msg_key)).toEqual(["m:early"]);
    store.close();
  } finally {
    tmp.cleanup();
  }
});

test("the writer's queue is bounded: past it messages are counted as dropped, not kept", async () => {
  const tmp = tempDir();
  try {
    const store = openStore(tmp.dir, { logError: () => {} });
    const errors: string[] = [];
    const writer = new LogWriter(`${tmp.dir}/replyd.db`, (m) => errors.push(m), 10);
    const other = new Database(`${tmp.dir}/replyd.db`);
    other.exec("ALTER TABLE messages RENAME TO messages_away");
    const row = (k: string) => [T0, k, "o", "text", null, "x", "fallback", 1, null, null];
    writer.write(Array.from({ length: 6 }, (_, i) => row(`a${i}`)).flat());
    writer.write(Array.from({ length: 4 }, (_, i) => row(`b${i}`)).flat()); // 10: at the bound, kept
    writer.write(row("c0")); // one past it
    expect(writer.dropped).toBe(1);
    expect(writer.unwritten).toBe(10);
    expect(errors.some((e) => e.includes("not logged"))).toBe(true);
    writer.close();
    other.close();
    store.close(0);
  } finally {
    tmp.cleanup();
  }
});
