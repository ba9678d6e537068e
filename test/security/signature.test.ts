/**
 * The signature attack suite (issue 4): every attack is a named test that must be refused, next to
 * a valid control built the same way that must pass, so a refusal can never come from a broken
 * test request. Times come from an injected clock.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { createApp } from "../../src/server/app.ts";
import type { Param } from "../../src/sign.ts";
import { KeyRing } from "../../src/store/keys.ts";
import { ADMIN, article, body, doc, READER, signedRequest, testApp, type SignOpts } from "../helpers.ts";
import { CODE } from "../../src/base/errors.ts";

let t: Awaited<ReturnType<typeof testApp>>;
beforeEach(async () => {
  t = await testApp();
  t.clock.advance(60_000); // well past start-up, so only the window judges timestamps
});
afterEach(() => t.close());

const now = () => t.clock.now();
const sendAndRead = async (req: Request) => {
  const res = await t.handle(req);
  return { status: res.status, ...(await body(res)) };
};
const accepted = async (req: Request) => {
  const r = await sendAndRead(req);
  expect(r.error).toBeUndefined();
  expect(r.status).toBe(200);
};
const refused = async (req: Request, status: number, code: string) => {
  const r = await sendAndRead(req);
  expect({ status: r.status, code: r.error?.code }).toEqual({ status, code });
};

const flipHex = (s: string, i: number) => s.slice(0, i) + (s[i] === "0" ? "1" : "0") + s.slice(i + 1);
const withSign = (fn: (sign: string) => string) => (p: Param[]) => p.map(([k, v]) => [k, k === "sign" ? fn(v) : v] as const);
const json = doc([article(1)]);

interface Case {
  name: string;
  method: string;
  path: string;
  opts: SignOpts;
  attack: SignOpts;
  status: number;
  code: string;
}

const cases: Case[] = [
  { name: "one hex digit of sign changed (first)", method: "GET", path: "/api/cli", opts: {}, attack: { tamper: withSign((s) => flipHex(s, 0)) }, status: 401, code: CODE.bad_signature },
  { name: "one hex digit of sign changed (last)", method: "GET", path: "/api/cli", opts: {}, attack: { tamper: withSign((s) => flipHex(s, 31)) }, status: 401, code: CODE.bad_signature },
  { name: "upper-case hex sign", method: "GET", path: "/api/cli", opts: {}, attack: { tamper: withSign((s) => s.toUpperCase()) }, status: 401, code: CODE.unsigned },
  { name: "wrong secret", method: "GET", path: "/api/cli", opts: {}, attack: { key: { ...ADMIN, secret: "not-the-right-secret-0000" } }, status: 401, code: CODE.bad_signature },
  { name: "unknown appkey", method: "GET", path: "/api/cli", opts: {}, attack: { key: { ...ADMIN, appkey: "stranger" } }, status: 401, code: CODE.unknown_appkey },
  {
    name: "parameter boundary shift (q=bc sent as qb=c)",
    method: "GET",
    path: "/api/cli",
    opts: { fields: [["q", "bc"]] },
    attack: { fields: [["q", "bc"]], tamper: (p) => p.map(([k, v]) => (k === "q" ? (["qb", "c"] as const) : ([k, v] as const))) },
    status: 401,
    code: CODE.bad_signature,
  },
  {
    name: "a value holding &k=v split into two parameters",
    method: "GET",
    path: "/api/cli",
    opts: { fields: [["q", "x&deleted=all"]] },
    attack: { fields: [["q", "x&deleted=all"]], tamper: (p) => p.flatMap(([k, v]) => (k === "q" ? [["q", "x"] as const, ["deleted", "all"] as const] : [[k, v] as const])) },
    status: 401,
    code: CODE.bad_signature,
  },
  {
    name: "duplicate keys reordered (their order is not signed, so repeats are refused)",
    method: "GET",
    path: "/api/cli",
    opts: { fields: [["tag", "news"]] },
    attack: { fields: [["tag", "news"], ["tag", "tips"]], tamper: (p) => [...p.filter(([k]) => k !== "tag"), ["tag", "tips"], ["tag", "news"]] },
    status: 400,
    code: CODE.repeated_field,
  },
  { name: "method swap GET → DELETE", method: "DELETE", path: "/api/cli", opts: { fields: [["id", "a1"]] }, attack: { fields: [["id", "a1"]], signMethod: "GET" }, status: 401, code: CODE.bad_signature },
  { name: "method swap DELETE → GET", method: "GET", path: "/api/cli", opts: { fields: [["id", "a1"]] }, attack: { fields: [["id", "a1"]], signMethod: "DELETE" }, status: 401, code: CODE.bad_signature },
  {
    name: "method swap POST → PUT",
    method: "PUT",
    path: "/api/cli",
    opts: { fields: [["id", "a1"], ["title", "T"]] },
    attack: { fields: [["id", "a1"], ["title", "T"]], signMethod: "POST" },
    status: 401,
    code: CODE.bad_signature,
  },
  {
    name: "method swap PUT → POST",
    method: "POST",
    path: "/api/cli",
    opts: { fields: [["title", "T"], ["url", "https://e.com/"]] },
    attack: { fields: [["title", "T"], ["url", "https://e.com/"]], signMethod: "PUT" },
    status: 401,
    code: CODE.bad_signature,
  },
  { name: "path swap /api/cli → /api/cli/revert/all", method: "POST", path: "/api/cli/revert/all", opts: {}, attack: { signPath: "/api/cli" }, status: 401, code: CODE.bad_signature },
  { name: "path swap /api/cli/revert/all → /api/cli", method: "GET", path: "/api/cli", opts: {}, attack: { signPath: "/api/cli/revert/all" }, status: 401, code: CODE.bad_signature },
  {
    name: "one byte of the uploaded file flipped",
    method: "POST",
    path: "/api/cli",
    opts: { files: [{ name: "json", content: json }] },
    attack: { files: [{ name: "json", content: json }], swapFiles: { json: json.replace('"a1"', '"b1"') } },
    status: 401,
    code: CODE.bad_signature,
  },
  {
    name: "file part renamed",
    method: "POST",
    path: "/api/cli",
    opts: { files: [{ name: "json", content: json }] },
    attack: { files: [{ name: "json", content: json }], renameFiles: { json: "document" } },
    status: 401,
    code: CODE.bad_signature,
  },
  { name: "field added after signing", method: "GET", path: "/api/cli", opts: { fields: [["q", ""]] }, attack: { fields: [["q", ""]], tamper: (p) => [...p, ["deleted", "all"]] }, status: 401, code: CODE.bad_signature },
  { name: "field removed after signing", method: "DELETE", path: "/api/cli", opts: { fields: [["id", "a1"]] }, attack: { fields: [["id", "a1"], ["purge", "1"]], tamper: (p) => p.filter(([k]) => k !== "purge") }, status: 401, code: CODE.bad_signature },
  { name: "non-numeric ts", method: "GET", path: "/api/cli", opts: {}, attack: { ts: "yesterday" }, status: 401, code: CODE.unsigned },
  { name: "exponent-form ts", method: "GET", path: "/api/cli", opts: {}, attack: { ts: "1.7637192e9" }, status: 401, code: CODE.unsigned },
  { name: "negative ts", method: "GET", path: "/api/cli", opts: {}, attack: { ts: "-1763719200" }, status: 401, code: CODE.unsigned },
  { name: "ts with four decimals", method: "GET", path: "/api/cli", opts: {}, attack: { ts: "1763719200.1234" }, status: 401, code: CODE.unsigned },
];

describe("signature attacks (each refused) and their controls (each accepted)", () => {
  beforeEach(async () => {
    await accepted(signedRequest("POST", "/api/cli", { files: [{ name: "json", content: doc([article(1, { tag: "news" })]) }], nowMs: now() }));
  });

  for (const c of cases) {
    test(c.name, async () => {
      await refused(signedRequest(c.method, c.path, { nowMs: now(), ...c.attack }), c.status, c.code);
      await accepted(signedRequest(c.method, c.path, { nowMs: now(), ...c.opts }));
    });
  }

  test("unknown appkey and wrong secret: both 401 and unsigned, each naming the setting to check", async () => {
    const read = async (req: Request) => {
      const res = await t.handle(req);
      return { status: res.status, signed: res.headers.has("x-replyd-signature"), ...(await body(res)) };
    };
    const a = await read(signedRequest("GET", "/api/cli", { nowMs: now(), key: { ...ADMIN, appkey: "stranger" } }));
    const b = await read(signedRequest("GET", "/api/cli", { nowMs: now(), key: { ...ADMIN, secret: "not-the-right-secret-0000" } }));
    expect([a.status, b.status]).toEqual([401, 401]);
    expect([a.signed, b.signed]).toEqual([false, false]);
    expect([a.error.code, b.error.code]).toEqual([CODE.unknown_appkey, CODE.bad_signature]);
    expect(a.error.message).toContain("REPLYD_APPKEY");
    expect(b.error.message).toContain("REPLYD_SECRET");
    expect(JSON.stringify(b)).not.toContain("not-the-right-secret");
  });
});

describe("the time window (5 s, injected clock)", () => {
  for (const delta of [-5000, 5000]) {
    test(`ts at now ${delta > 0 ? "+" : "−"} window is accepted; one ms further is refused`, async () => {
      await accepted(signedRequest("GET", "/api/cli", { nowMs: now() + delta }));
      await refused(signedRequest("GET", "/api/cli", { nowMs: now() + delta + Math.sign(delta) }), 401, CODE.stale_timestamp);
    });
  }
  test("a future ts (one hour ahead) is refused; now is accepted", async () => {
    await refused(signedRequest("GET", "/api/cli", { nowMs: now() + 3600_000 }), 401, CODE.stale_timestamp);
    await accepted(signedRequest("GET", "/api/cli", { nowMs: now() }));
  });
});

describe("replay", () => {
  test("a nonce reused is refused; a fresh one is accepted", async () => {
    const nonce = "replay-nonce-000000001";
    await accepted(signedRequest("GET", "/api/cli", { nowMs: now(), nonce }));
    await refused(signedRequest("GET", "/api/cli", { nowMs: now(), nonce }), 401, CODE.replayed);
    await accepted(signedRequest("GET", "/api/cli", { nowMs: now() }));
  });
  test("a nonce reused under another key is refused (nonces are global)", async () => {
    const nonce = "replay-nonce-000000002";
    await accepted(signedRequest("GET", "/api/cli", { nowMs: now(), nonce, key: ADMIN }));
    await refused(signedRequest("GET", "/api/cli", { nowMs: now(), nonce, key: READER }), 401, CODE.replayed);
  });
  test("a request replayed after a server restart within the window is refused", async () => {
    const captured = signedRequest("GET", "/api/cli", { nowMs: now(), nonce: "replay-nonce-000000003" });
    const again = captured.clone() as Request;
    await accepted(captured);
    // Restart: a new app on the same data folder, 1 s later, with an empty nonce cache.
    t.clock.advance(1000);
    const restarted = await createApp({ read: t.backend.read, write: t.backend.write, keys: new KeyRing(null, [ADMIN, READER]), clock: t.clock });
    const res = await restarted.handle(again);
    expect(res.status).toBe(401);
    expect((await body(res)).error.code).toBe(CODE.stale_timestamp);
    const fresh = await restarted.handle(signedRequest("GET", "/api/cli", { nowMs: t.clock.now() }));
    expect(fresh.status).toBe(200);
  });
});

describe("scope and lock-out", () => {
  for (const method of ["POST", "PUT", "DELETE"]) {
    test(`a read key trying ${method} is refused, saying an admin key is needed; the same key may GET`, async () => {
      await refused(signedRequest(method, "/api/cli", { nowMs: now(), key: READER, fields: [["id", "a1"]] }), 403, CODE.forbidden);
      expect((await sendAndRead(signedRequest(method, "/api/cli", { nowMs: now(), key: READER, fields: [["id", "a1"]] }))).error.message).toContain("this needs an admin key");
      await accepted(signedRequest("GET", "/api/cli", { nowMs: now(), key: READER }));
    });
  }

  test("repeated failures from one address: 429 for further failures, then recovery after the cool-down", async () => {
    const bad = () => signedRequest("GET", "/api/cli", { nowMs: now(), key: { ...ADMIN, secret: "wrong-wrong-wrong-wrong" } });
    for (let i = 0; i < 10; i++) await refused(bad(), 401, CODE.bad_signature);
    const locked = await t.handle(bad());
    expect(locked.status).toBe(429);
    expect(locked.headers.get("retry-after")).toBe("60");
    // It says what was wrong and for how long.
    expect(((await locked.json()) as { error: { message: string } }).error.message).toBe(
      `the signature does not match: check --secret (REPLYD_SECRET) for the appkey "${ADMIN.appkey}"; too many failed attempts from this address: it is locked out for 60 s more (a right signature is still accepted)`,
    );
    t.clock.advance(59_000);
    await refused(bad(), 429, CODE.too_many_failures);
    t.clock.advance(2_000);
    await refused(bad(), 401, CODE.bad_signature);
  });

  test("a valid signature is never refused for the lock-out", async () => {
    const bad = () => signedRequest("GET", "/api/cli", { nowMs: now(), key: { ...ADMIN, secret: "wrong-wrong-wrong-wrong" } });
    for (let i = 0; i < 11; i++) await t.handle(bad());
    await refused(bad(), 429, CODE.too_many_failures);
    await accepted(signedRequest("GET", "/api/cli", { nowMs: now() }));
    await accepted(signedRequest("POST", "/api/cli", { nowMs: now(), fields: [["code", "x1"], ["title", "T"], ["url", "https://example.com/x"]] }));
    // A success behind the same address does not lift the lock for the failures that come from it.
    await refused(bad(), 429, CODE.too_many_failures);
  });

  test("the lock-out is per address", async () => {
    const app = await testApp({ clientAddress: (r) => r.headers.get("x-test-addr") ?? "?" });
    try {
      app.clock.advance(60_000);
      const from = (addr: string, o: SignOpts = {}) => {
        const r = signedRequest("GET", "/api/cli", { nowMs: app.clock.now(), ...o });
        return new Request(r.url, { headers: { "x-test-addr": addr } });
      };
      const wrong = { key: { ...ADMIN, secret: "wrong-wrong-wrong-wrong" } };
      for (let i = 0; i < 10; i++) await app.handle(from("10.0.0.1", wrong));
      expect((await app.handle(from("10.0.0.1", wrong))).status).toBe(429);
      expect((await app.handle(from("10.0.0.2", wrong))).status).toBe(401);
    } finally {
      app.close();
    }
  });
});
