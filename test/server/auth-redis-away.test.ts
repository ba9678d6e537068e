/**
 * The admin door's nonces when Redis refuses the very call that checks one (server/auth.ts over
 * cluster/fallback.ts): the link still counted as up when the request arrived, so the door's
 * check before the call did not catch it. Health alone is answered, its nonce remembered by this
 * instance; every other request is refused 503 — a replay at another instance would pass.
 */
import { expect, test } from "bun:test";
import { fixedClock } from "../../src/base/clock.ts";
import { CODE } from "../../src/base/errors.ts";
import { authenticate, type AuthOptions } from "../../src/server/auth.ts";
import { DoorBudget } from "../../src/server/form-bounds.ts";
import { FailureLimiter } from "../../src/server/limiter.ts";
import { NonceCache } from "../../src/server/nonces.ts";
import { KeyRing } from "../../src/store/keys.ts";
import { RedisDown } from "../../src/cluster/redis-down.ts";
import { ADMIN, signedRequest, T0 } from "../helpers.ts";

function door(): { opts: AuthOptions; local: NonceCache; asked: () => number } {
  const local = new NonceCache();
  let asked = 0;
  const opts: AuthOptions = {
    keys: new KeyRing(null, [ADMIN]),
    clock: fixedClock(T0),
    windowMs: 300_000,
    // The cluster's nonces, on a Redis that has just begun answering OOM.
    nonces: {
      remember: async () => {
        asked++;
        throw new RedisDown("OOM command not allowed when used memory > 'maxmemory'", true);
      },
    },
    limiter: new FailureLimiter({ maxFailures: 100, periodMs: 60_000, lockMs: 60_000, maxEntries: 100 }),
    shared: { up: () => true, down: () => new RedisDown("not connected"), fallback: local },
    budget: new DoorBudget(1 << 20),
    maxUpload: 1 << 20,
    notBefore: () => 0,
  };
  return { opts, local, asked: () => asked };
}

test("health: answered on this instance's nonces when the cluster's refuse; the same nonce again is a replay", async () => {
  const { opts, local, asked } = door();
  const health = () => signedRequest("GET", "/api/cli", { nowMs: T0, nonce: "nonce-health-0123456789" });
  expect((await authenticate(health(), T0, "10.0.0.1", opts)).key.appkey).toBe(ADMIN.appkey);
  expect(asked()).toBe(1);
  expect(local.size).toBe(1);
  await expect(authenticate(health(), T0, "10.0.0.1", opts)).rejects.toMatchObject({ code: CODE.replayed, status: 401 });
});

test("any other request: refused redis_unavailable (503), nothing remembered locally", async () => {
  const { opts, local } = door();
  const inbox = signedRequest("GET", "/api/cli", { nowMs: T0, fields: [["inbox", "ai"]] });
  await expect(authenticate(inbox, T0, "10.0.0.1", opts)).rejects.toMatchObject({ code: CODE.redis_unavailable, status: 503 });
  const token = signedRequest("GET", "/api/cli/token", { nowMs: T0 });
  await expect(authenticate(token, T0, "10.0.0.1", opts)).rejects.toMatchObject({ code: CODE.redis_unavailable, status: 503 });
  expect(local.size).toBe(0);
});
