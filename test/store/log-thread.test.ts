/**
 * The stores of a process share one message-log writer thread (issue 36 B: accounts share the
 * worker threads, src/store/sqlite/log-thread.ts): each store's messages go to its own log, a
 * store whose database is locked (an import holding it) holds up no other store's log, and a
 * process that closed its stores is not kept alive by the thread.
 */
import { Database } from "bun:sqlite";
import { expect, test } from "bun:test";
import { join } from "node:path";
import { openStore, T0, tempDir } from "../helpers.ts";

const entry = (key: string) => ({ received_ms: T0, msg_key: key, from_user: "o_1", type: "text", event: null, content: key, answer: "code", unmatched: false });

test("two stores' logs are written by one thread, each message to its own store's log", async () => {
  const [ta, tb] = [tempDir(), tempDir()];
  const [a, b] = [openStore(ta.dir), openStore(tb.dir)];
  try {
    a.messages.add(entry("shop:1"));
    expect((await a.messages.list({ only: null, limit: 10, offset: 0 })).items.map((m) => m.msg_key)).toEqual(["shop:1"]);
    b.messages.add(entry("blog:1"));
    expect((await b.messages.list({ only: null, limit: 10, offset: 0 })).items.map((m) => m.msg_key)).toEqual(["blog:1"]);
    // The second store's writer started no thread of its own: both write through one worker. (The
    // process's thread count was read here once; other tests' threads ending meanwhile made it flaky.)
    const workerOf = (store: typeof a) => (store.messages as unknown as { writer: { channel: { worker: Worker | null } | null } }).writer.channel?.worker;
    expect(workerOf(a)).toBeInstanceOf(Worker);
    expect(workerOf(b)).toBe(workerOf(a));
    expect((await a.messages.list({ only: null, limit: 10, offset: 0 })).total).toBe(1);
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
  await a.messages.list({ only: null, limit: 1, offset: 0 });
  await b.messages.list({ only: null, limit: 1, offset: 0 });
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
    expect((await b.messages.list({ only: null, limit: 10, offset: 0 })).total).toBe(2);
    expect(released).toBe(false);
    expect((await a.messages.list({ only: null, limit: 10, offset: 0 })).total).toBe(2);
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

test("a process that opened a data folder, logged a message and closed it exits by itself: the worker's code never ran on its main thread", async () => {
  const t = tempDir();
  // The store as bench/bulkparts.ts uses it, in a process of its own: it ends when nothing keeps it alive.
  const script = `
    const { DataFolder } = await import(${JSON.stringify(join(import.meta.dir, "../../src/store/sqlite/data-folder.ts"))});
    const store = DataFolder.open(process.env.DIR, { clock: { now: () => Date.now(), monotonic: () => performance.now() }, keep: 5 });
    store.messages.add(${JSON.stringify(entry("shop:1"))});
    const logged = (await store.messages.list({ only: null, limit: 10, offset: 0 })).total;
    store.close();
    console.log(JSON.stringify({ logged, onmessage: globalThis.onmessage === null ? null : typeof globalThis.onmessage }));
  `;
  const p = Bun.spawn([process.execPath, "-e", script], { env: { ...process.env, DIR: join(t.dir, "data") }, stdout: "pipe", stderr: "pipe" });
  try {
    // Seconds on a loaded machine; the process kept alive never ends.
    const ended = await Promise.race([p.exited, Bun.sleep(30_000).then(() => "still running after 30 s")]);
    p.kill();
    const [out, err] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text()]);
    expect({ ended, err }).toEqual({ ended: 0, err: "" });
    // The log was written through the thread, and the main thread has no message handler of the worker's.
    expect(JSON.parse(out)).toEqual({ logged: 1, onmessage: null });
  } finally {
    p.kill();
    t.cleanup();
  }
});
