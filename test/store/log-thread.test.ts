/**
 * The stores of a process share one message-log writer thread (issue 36 B: accounts share the
 * worker threads, src/store/sqlite/log-thread.ts): each store's messages go to its own log, and a
 * store whose database is locked (an import holding it) holds up no other store's log.
 */
import { Database } from "bun:sqlite";
import { expect, test } from "bun:test";
import { openStore, T0, tempDir } from "../helpers.ts";

const entry = (key: string) => ({ received_ms: T0, msg_key: key, from_user: "o_1", type: "text", event: null, content: key, answer: "code", unmatched: false });
const threads = () => Number(/Threads:\s+(\d+)/.exec(require("node:fs").readFileSync("/proc/self/status", "utf8"))?.[1]);

test("two stores' logs are written by one thread, each message to its own store's log", async () => {
  const [ta, tb] = [tempDir(), tempDir()];
  const [a, b] = [openStore(ta.dir), openStore(tb.dir)];
  try {
    a.messages.add(entry("shop:1"));
    expect((await a.messages.list({ unmatchedOnly: false, limit: 10, offset: 0 })).items.map((m) => m.msg_key)).toEqual(["shop:1"]);
    const withOne = threads();
    b.messages.add(entry("blog:1"));
    expect((await b.messages.list({ unmatchedOnly: false, limit: 10, offset: 0 })).items.map((m) => m.msg_key)).toEqual(["blog:1"]);
    // The second store's writer started no thread of its own.
    expect(threads()).toBe(withOne);
    expect((await a.messages.list({ unmatchedOnly: false, limit: 10, offset: 0 })).total).toBe(1);
  } finally {
    a.close();
    b.close();
    ta.cleanup();
    tb.cleanup();
  }
});

test("one store's database locked holds up no other store's log; its own batch is written once the lock goes, nothing reported", async () => {
  const [ta, tb] = [tempDir(), tempDir()];
  const errors: string[] = [];
  const [a, b] = [openStore(ta.dir, { logError: (m) => errors.push(m) }), openStore(tb.dir, { logError: (m) => errors.push(m) })];
  // Both writers' connections open before the lock is taken.
  a.messages.add(entry("shop:0"));
  b.messages.add(entry("blog:0"));
  await a.messages.list({ unmatchedOnly: false, limit: 1, offset: 0 });
  await b.messages.list({ unmatchedOnly: false, limit: 1, offset: 0 });
  const importing = new Database(`${ta.dir}/replyd.db`);
  try {
    importing.exec("PRAGMA busy_timeout = 5000");
    importing.exec("BEGIN IMMEDIATE");
    let released = false;
    setTimeout(() => {
      importing.exec("COMMIT");
      released = true;
    }, 1500);
    // An event: its batch's first statement is the write, which waits for the lock (busy_timeout).
    a.messages.add({ ...entry("shop:1"), type: "event", event: "subscribe", content: null });
    a.messages.flush();
    await Bun.sleep(50); // shop's batch reaches the thread first, and finds its database locked
    b.messages.add(entry("blog:1"));
    expect((await b.messages.list({ unmatchedOnly: false, limit: 10, offset: 0 })).total).toBe(2);
    expect(released).toBe(false);
    expect((await a.messages.list({ unmatchedOnly: false, limit: 10, offset: 0 })).total).toBe(2);
    expect(released).toBe(true);
    expect(errors).toEqual([]);
  } finally {
    importing.close();
    a.close();
    b.close();
    ta.cleanup();
    tb.cleanup();
  }
});
