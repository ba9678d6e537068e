import { expect, test } from "bun:test";
import { fixedClock } from "../../src/clock.ts";
import { Store } from "../../src/store/store.ts";
import { T0, tempDir } from "../helpers.ts";

const entry = (key: string, at: number, unmatched = false) => ({
  received_at: new Date(at).toISOString(),
  msg_key: key,
  from_user: "o_1",
  type: "text",
  event: null,
  content: key,
  answer: unmatched ? "fallback" : "code",
  unmatched,
});

test("queued log entries survive a clean close (what SIGTERM does)", () => {
  const tmp = tempDir();
  try {
    let store = Store.open(tmp.dir, { clock: fixedClock(T0), keep: 5 });
    store.messages.add(entry("m:1", T0));
    store.messages.add(entry("m:2", T0, true));
    store.close();
    store = Store.open(tmp.dir, { clock: fixedClock(T0), keep: 5 });
    expect(store.messages.list({ unmatchedOnly: false, limit: 10, offset: 0 }).items.map((m) => m.msg_key)).toEqual(["m:2", "m:1"]);
    expect(store.messages.list({ unmatchedOnly: true, limit: 10, offset: 0 }).total).toBe(1);
    store.close();
  } finally {
    tmp.cleanup();
  }
});

test("a message key is logged once; entries older than --log-days are pruned", () => {
  const tmp = tempDir();
  try {
    const store = Store.open(tmp.dir, { clock: fixedClock(T0), keep: 5 });
    const day = 86_400_000;
    store.messages.add(entry("m:old", T0 - 31 * day));
    store.messages.add(entry("m:new", T0 - 29 * day));
    store.messages.add(entry("m:new", T0 - 29 * day));
    expect(store.messages.prune(30, T0)).toBe(1);
    expect(store.messages.list({ unmatchedOnly: false, limit: 10, offset: 0 }).items.map((m) => m.msg_key)).toEqual(["m:new"]);
    store.close();
  } finally {
    tmp.cleanup();
  }
});
