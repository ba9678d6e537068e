/** Revoking a key by replacing keys.json (issue 17 D): a file that cannot be loaded fails closed. */
import { expect, test } from "bun:test";
import { chmodSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fixedClock } from "../../src/base/clock.ts";
import { sqliteWriter } from "../../src/store/sqlite/writer.ts";
import { createApp } from "../../src/server/app.ts";
import { KeyRing, writeKeys, type AdminKey } from "../../src/store/keys.ts";
import { ADMIN, body, openStore, signedRequest, T0, tempDir } from "../helpers.ts";
import { CODE, ReplydError } from "../../src/base/errors.ts";

const OTHER: AdminKey = { appkey: "other1", secret: "other-secret-0123456789", scope: "admin" };

test("keys.json replaced by a 0644 file (revoking ADMIN): every admin request 503 until fixed, health too; then only the new keys work", async () => {
  const tmp = tempDir();
  const errors: string[] = [];
  const origError = console.error;
  console.error = (m: string) => void errors.push(String(m));
  try {
    const path = join(tmp.dir, "keys.json");
    writeKeys(path, [ADMIN]);
    const clock = fixedClock(T0);
    const store = openStore(tmp.dir, { clock });
    const app = await createApp({ read: store, write: sqliteWriter(store), keys: new KeyRing(path), clock });
    const send = async (key: AdminKey) => {
      clock.advance(1500); // past the once-a-second look at the file
      const res = await app.handle(signedRequest("GET", "/api/cli", { nowMs: clock.now(), key }));
      return { status: res.status, code: (await body(res)).error?.code };
    };
    expect((await send(ADMIN)).status).toBe(200);
    // The revocation: a new file without ADMIN, written world-readable by mistake.
    writeFileSync(path, JSON.stringify({ keys: [{ ...OTHER, created_at: "2026-11-21T10:00:00.000Z" }] }), { mode: 0o644 });
    chmodSync(path, 0o644);
    // GET /api/cli is health: refused too (a keys file that cannot be loaded may be a revocation gone wrong; no Keys.lastRead).
    expect(await send(ADMIN)).toEqual({ status: 503, code: CODE.keys_unavailable });
    expect(await send(OTHER)).toEqual({ status: 503, code: CODE.keys_unavailable });
    expect(errors.some((e) => e.includes("cannot be loaded"))).toBe(true);
    // Fixed: the revoked key is refused, the new one works.
    chmodSync(path, 0o600);
    expect(await send(ADMIN)).toEqual({ status: 401, code: CODE.unknown_appkey });
    expect((await send(OTHER)).status).toBe(200);
    // A chmod alone (no new content) is noticed too.
    chmodSync(path, 0o640);
    expect((await send(OTHER)).code).toBe(CODE.keys_unavailable);
    store.close();
  } finally {
    console.error = origError;
    tmp.cleanup();
  }
});

test("the database away (keys not readable, Keys.lastRead given): health answers on the keys last read; anything else 503 before its body is read", async () => {
  const tmp = tempDir();
  try {
    const clock = fixedClock(T0);
    const store = openStore(tmp.dir, { clock });
    let away = false;
    const keys = {
      check() {
        if (away) throw new ReplydError("database_unavailable", "the database cannot be reached");
      },
      lookup(appkey: string) {
        this.check();
        return appkey === ADMIN.appkey ? ADMIN : undefined;
      },
      lastRead: (appkey: string) => (appkey === ADMIN.appkey ? ADMIN : undefined),
      size: 1,
    };
    const app = await createApp({ read: store, write: sqliteWriter(store), keys, clock });
    const send = async (req: Request) => {
      const res = await app.handle(req);
      return { status: res.status, code: (await body(res)).error?.code };
    };
    const signed = (method: string, fields: [string, string][] = [], key: AdminKey = ADMIN) => (clock.advance(10), signedRequest(method, "/api/cli", { nowMs: clock.now(), fields, key }));
    expect((await send(signed("GET"))).status).toBe(200);
    away = true;
    expect(await send(signed("GET"))).toEqual({ status: 200, code: undefined });
    // A key the last read did not hold (added since, perhaps): the database's refusal, not "unknown".
    expect(await send(signed("GET", [], OTHER))).toEqual({ status: 503, code: CODE.database_unavailable });
    expect(await send(signed("GET", [["id", "a1"]]))).toEqual({ status: 503, code: CODE.database_unavailable });
    // A write is refused before a byte of its body is read.
    let pulled = false;
    const write = signed("POST", [["id", "a1"], ["title", "t"], ["url", "https://e.com/"]]);
    const stream = new ReadableStream({ pull: (c) => void ((pulled = true), c.close()) }, { highWaterMark: 0 });
    const unread = new Request(write.url, { method: "POST", headers: write.headers, body: stream, duplex: "half" } as RequestInit);
    expect(await send(unread)).toEqual({ status: 503, code: CODE.database_unavailable });
    expect(pulled).toBe(false);
    store.close();
  } finally {
    tmp.cleanup();
  }
});
