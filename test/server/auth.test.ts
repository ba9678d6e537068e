import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { ADMIN, article, body, doc, signedRequest, T0, testApp } from "../helpers.ts";
import { CODE } from "../../src/base/errors.ts";

let t: Awaited<ReturnType<typeof testApp>>;
beforeEach(async () => (t = await testApp()));
afterEach(() => t.close());

const status = async (req: Request) => {
  const res = await t.handle(req);
  return { status: res.status, ...(await body(res)) };
};

// The attacks themselves (tampering, swaps, window edges, replay, scope, lock-out) are in test/security/.
describe("signature checks (DESIGN §4)", () => {
  test("a request without signature fields is 401 unsigned, naming what is missing", async () => {
    const r = await status(new Request("http://localhost/api/cli"));
    expect(r).toMatchObject({ status: 401, error: { code: CODE.unsigned } });
    expect(r.error.message).toContain("appkey");
  });

  test("a bad signature is answered 401 before any body validation", async () => {
    const r = await status(
      signedRequest("POST", "/api/cli", { files: [{ name: "json", content: "{not json" }], key: { ...ADMIN, secret: "wrong-secret-wrong-secret" } }),
    );
    expect(r).toMatchObject({ status: 401, error: { code: CODE.bad_signature } });
    const garbage = new Request("http://localhost/api/cli", { method: "POST", body: "--x\r\n", headers: { "content-type": "multipart/form-data; boundary=zz" } });
    expect((await status(garbage)).status).toBe(401);
  });

  test("a request signed before the server started is stale (no replay across a restart)", async () => {
    const r = await status(signedRequest("GET", "/api/cli", { nowMs: T0 - 1000 }));
    expect(r.error.code).toBe(CODE.stale_timestamp);
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
