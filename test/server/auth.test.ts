import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { formatTs } from "../../src/sign.ts";
import { ADMIN, article, body, doc, READER, signedRequest, T0, testApp } from "../helpers.ts";

let t: Awaited<ReturnType<typeof testApp>>;
beforeEach(async () => (t = await testApp()));
afterEach(() => t.close());

const status = async (req: Request) => {
  const res = await t.handle(req);
  return { status: res.status, ...(await body(res)) };
};

describe("signature checks (DESIGN §4)", () => {
  test("a correctly signed GET passes", async () => {
    const r = await status(signedRequest("GET", "/api/cli"));
    expect(r.status).toBe(200);
    expect(r.data.status).toBe("ok");
  });

  test("unsigned and malformed requests are 401 unsigned", async () => {
    expect((await status(new Request("http://localhost/api/cli"))).error.code).toBe("unsigned");
    const upper = signedRequest("GET", "/api/cli", { tamper: (p) => p.map(([k, v]) => [k, k === "sign" ? v.toUpperCase() : v] as const) });
    expect(await status(upper)).toMatchObject({ status: 401, error: { code: "unsigned" } });
    for (const ts of ["1.5e9", "abc", "1763719200.1234", "-1"])
      expect((await status(signedRequest("GET", "/api/cli", { ts }))).error.code).toBe("unsigned");
  });

  test("wrong secret, unknown appkey: the same 401 bad_signature, no hint which", async () => {
    const wrong = await status(signedRequest("GET", "/api/cli", { key: { ...ADMIN, secret: "not-the-secret-at-all" } }));
    const unknown = await status(signedRequest("GET", "/api/cli", { key: { ...ADMIN, appkey: "nobody" } }));
    expect(wrong).toMatchObject({ status: 401, error: { code: "bad_signature" } });
    expect(unknown.error).toEqual(wrong.error);
  });

  test("a GET signature replayed as DELETE is refused", async () => {
    const r = await status(signedRequest("DELETE", "/api/cli", { signMethod: "GET", fields: [["id", "a1"]] }));
    expect(r).toMatchObject({ status: 401, error: { code: "bad_signature" } });
  });

  test("a path swap is refused", async () => {
    const r = await status(signedRequest("POST", "/api/cli/revert/all", { signPath: "/api/cli" }));
    expect(r.error.code).toBe("bad_signature");
  });

  test("a parameter changed or added after signing is refused", async () => {
    const changed = signedRequest("PUT", "/api/cli", {
      fields: [["id", "a1"], ["title", "T"], ["url", "https://e.com/"]],
      tamper: (p) => p.map(([k, v]) => [k, k === "title" ? "Evil" : v] as const),
    });
    expect((await status(changed)).error.code).toBe("bad_signature");
    const added = signedRequest("GET", "/api/cli", { tamper: (p) => [...p, ["purge", "1"]] });
    expect((await status(added)).error.code).toBe("bad_signature");
  });

  test("an uploaded file swapped after signing is refused", async () => {
    const r = await status(
      signedRequest("POST", "/api/cli", { files: [{ name: "json", content: doc([article(1)]) }], swapFiles: { json: doc([article(2)]) } }),
    );
    expect(r.error.code).toBe("bad_signature");
    expect(t.store.articles.counts().live).toBe(0);
  });

  test("a bad signature is answered 401 before any body validation", async () => {
    const r = await status(
      signedRequest("POST", "/api/cli", { files: [{ name: "json", content: "{not json" }], key: { ...ADMIN, secret: "wrong-secret-wrong-secret" } }),
    );
    expect(r).toMatchObject({ status: 401, error: { code: "bad_signature" } });
    const garbage = new Request("http://localhost/api/cli", { method: "POST", body: "--x\r\n", headers: { "content-type": "multipart/form-data; boundary=zz" } });
    expect((await status(garbage)).status).toBe(401);
  });

  test("the timestamp window: edges accepted, one ms past refused, future too", async () => {
    t.clock.advance(60_000); // past the start-up instant, so old timestamps are judged by the window alone
    const now = t.clock.now();
    for (const delta of [-5000, 0, 5000]) expect((await status(signedRequest("GET", "/api/cli", { nowMs: now + delta }))).status).toBe(200);
    for (const delta of [-5001, 5001, 3600_000]) {
      const r = await status(signedRequest("GET", "/api/cli", { nowMs: now + delta }));
      expect(r).toMatchObject({ status: 401, error: { code: "stale_timestamp", server_time: formatTs(now) } });
    }
  });

  test("a request signed before the server started is stale (no replay across a restart)", async () => {
    const r = await status(signedRequest("GET", "/api/cli", { nowMs: T0 - 1000 }));
    expect(r.error.code).toBe("stale_timestamp");
  });

  test("a nonce is accepted once; a replay is 401 replayed, also under another key", async () => {
    const nonce = "fixed-nonce-0123456789";
    expect((await status(signedRequest("GET", "/api/cli", { nonce }))).status).toBe(200);
    expect((await status(signedRequest("GET", "/api/cli", { nonce }))).error.code).toBe("replayed");
    expect((await status(signedRequest("GET", "/api/cli", { nonce, key: READER }))).error.code).toBe("replayed");
  });

  test("the timestamp is taken when the request arrives, not after its body is read", async () => {
    // Sign at the current time, then let 10 s pass while the body is "uploading".
    const req = signedRequest("POST", "/api/cli", { files: [{ name: "json", content: doc([article(1)]) }] });
    const slow = new Request(req.url, {
      method: "POST",
      headers: req.headers,
      body: new ReadableStream({
        async start(c) {
          const bytes = new Uint8Array(await req.arrayBuffer());
          t.clock.advance(10_000);
          c.enqueue(bytes);
          c.close();
        },
      }),
      duplex: "half",
    } as RequestInit);
    const r = await status(slow);
    expect(r.status).toBe(200);
    expect(r.data.added).toBe(1);
  });

  test("a read key may GET but not change anything", async () => {
    expect((await status(signedRequest("GET", "/api/cli", { key: READER }))).status).toBe(200);
    for (const method of ["POST", "PUT", "DELETE"]) {
      const r = await status(signedRequest(method, "/api/cli", { key: READER, fields: [["id", "a1"]] }));
      expect(r).toMatchObject({ status: 403, error: { code: "forbidden" } });
    }
  });

  test("repeated failures from one address get 429, then recover after the cool-down", async () => {
    const bad = () => signedRequest("GET", "/api/cli", { key: { ...ADMIN, secret: "wrong-wrong-wrong-wrong" } });
    for (let i = 0; i < 10; i++) expect((await status(bad())).status).toBe(401);
    const locked = await t.handle(signedRequest("GET", "/api/cli"));
    expect(locked.status).toBe(429);
    expect(locked.headers.get("retry-after")).toBe("60");
    t.clock.advance(61_000);
    expect((await status(signedRequest("GET", "/api/cli", { nowMs: t.clock.now() }))).status).toBe(200);
  });

  test("stale timestamps do not count toward the lock-out (a clock problem, not an attack)", async () => {
    t.clock.advance(60_000);
    for (let i = 0; i < 15; i++) expect((await status(signedRequest("GET", "/api/cli", { nowMs: t.clock.now() - 30_000 }))).status).toBe(401);
    expect((await status(signedRequest("GET", "/api/cli", { nowMs: t.clock.now() }))).status).toBe(200);
  });

  test("/healthz needs no signature and tells nothing", async () => {
    const r = await status(new Request("http://localhost/healthz"));
    expect(r).toEqual({ status: 200, ok: true, data: { status: "ok" } });
  });
});
