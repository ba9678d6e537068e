/** Revoking a key by replacing keys.json (issue 17 D): a file that cannot be loaded fails closed. */
import { expect, test } from "bun:test";
import { chmodSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fixedClock } from "../../src/base/clock.ts";
import { sqliteWriter } from "../../src/store/sqlite/writer.ts";
import { createApp } from "../../src/server/app.ts";
import { KeyRing, writeKeys, type AdminKey } from "../../src/store/keys.ts";
import { ADMIN, body, openStore, signedRequest, T0, tempDir } from "../helpers.ts";
import { CODE } from "../../src/base/errors.ts";

const OTHER: AdminKey = { appkey: "other1", secret: "other-secret-0123456789", scope: "admin" };

test("keys.json replaced by a 0644 file (revoking ADMIN): every admin request 503 until fixed; then only the new keys work", async () => {
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
