/** A wrong clock and a failing log writer (issue 17 B and C): what holds. */
import { Database } from "bun:sqlite";
import { expect, test } from "bun:test";
import { fixedClock } from "../../src/base/clock.ts";
import { startServer } from "../../src/server/serve.ts";
import { ADMIN_ENV, body, openStore, serveOpts, signedRequest, T0, tempDir, testApp, dataFolderTest } from "../helpers.ts";
import { textMsg, TOKEN, wxPost } from "../wechat/helpers.ts";
import { CODE } from "../../src/base/errors.ts";

test("a wall clock stepped back after start: fresh requests still pass, one signed before the start is still stale", async () => {
  const t = await testApp();
  try {
    t.clock.set(T0 - 3600_000); // stepped back an hour, no time passed
    const now = t.clock.now();
    expect((await t.handle(signedRequest("GET", "/api/cli", { nowMs: now }))).status).toBe(200);
    const before = await body(await t.handle(signedRequest("GET", "/api/cli", { nowMs: now - 2000 })));
    expect(before.error?.code).toBe(CODE.stale_timestamp);
  } finally {
    t.close();
  }
});

test("health reports a clock behind the newest logged message", async () => {
  const tmp = tempDir();
  try {
    const store = openStore(tmp.dir);
    store.messages.add({ received_ms: T0, msg_key: "m:x:1", from_user: "o", type: "text", event: null, content: "hi", answer: "fallback", unmatched: true });
    store.close();
    const clock = fixedClock(T0 - 2 * 3600_000);
    const lines: string[] = [];
    const server = await startServer(serveOpts(tmp.dir, { clock, env: ADMIN_ENV, log: (l) => lines.push(l) }));
    try {
      for (let i = 0; i < 100 && !lines.some((l) => l.includes('"warn"') && l.includes("newest logged message")); i++) await Bun.sleep(10);
      clock.advance(10_000);
      const res = await fetch(signedRequest("GET", "/api/cli", { nowMs: clock.now(), base: server.url }));
      const h = await body(res);
      expect(h.data.clock_warning).toContain("after this server's clock");
      // Nothing was pruned for it.
      expect(lines.some((l) => l.includes("newest logged message"))).toBe(true);
    } finally {
      await server.stop();
    }
  } finally {
    tmp.cleanup();
  }
});

dataFolderTest("while the log writer cannot write, reading the inbox does not hold the event loop and is refused soon", async () => {
  const t = await testApp({ wechat: { token: TOKEN } });
  try {
    t.clock.advance(10_000);
    const now = Math.floor(t.clock.now() / 1000);
    expect((await t.handle(wxPost(textMsg("first", now), now))).status).toBe(200);
    await t.log.list({ only: null, limit: 1, offset: 0 });
    const other = new Database(`${t.dir}/replyd.db`);
    other.exec("ALTER TABLE messages RENAME TO messages_away");
    expect((await t.handle(wxPost(textMsg("second", now), now))).status).toBe(200);
    let inboxDone = false;
    const inbox = t.handle(signedRequest("GET", "/api/cli", { nowMs: t.clock.now(), fields: [["inbox", "all"]] })).then((r) => ((inboxDone = true), r));
    // Meanwhile the event loop serves others: a follower and /healthz are answered before the inbox.
    expect((await t.handle(wxPost(textMsg("h", now), now))).status).toBe(200);
    expect((await t.handle(new Request("http://localhost/healthz"))).status).toBe(200);
    expect(inboxDone).toBe(false);
    const res = await inbox;
    expect(res.status).toBeGreaterThanOrEqual(500);
    other.exec("ALTER TABLE messages_away RENAME TO messages");
    other.close();
    // Once the cause is gone the queued messages are written and the inbox answers.
    for (let i = 0; i < 50; i++) {
      const r = await t.handle(signedRequest("GET", "/api/cli", { nowMs: t.clock.now(), fields: [["inbox", "all"]] }));
      if (r.status === 200) {
        expect((await body(r)).data.total).toBe(3);
        return;
      }
      await Bun.sleep(50);
    }
    throw new Error("the inbox did not recover");
  } finally {
    t.close();
  }
});
