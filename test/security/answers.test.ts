/** The server signs every answer to a request whose signature passed (issue 17 A), and only those. */
import { afterEach, beforeEach, expect, test } from "bun:test";
import { answerSignature } from "../../src/sign.ts";
import { ADMIN, article, body, doc, signedRequest, testApp } from "../helpers.ts";
import { CODE } from "../../src/base/errors.ts";

let t: Awaited<ReturnType<typeof testApp>>;
beforeEach(async () => {
  t = await testApp();
  t.clock.advance(60_000);
});
afterEach(() => t.close());

const sha256 = (b: ArrayBuffer) => new Bun.CryptoHasher("sha256").update(new Uint8Array(b)).digest("hex");
/** Whether `res` carries a valid signature for the request with this nonce. */
async function signedFor(res: { arrayBuffer(): Promise<ArrayBuffer>; status: number; headers: { get(name: string): string | null } }, method: string, path: string, nonce: string) {
  const bytes = await res.arrayBuffer();
  return res.headers.get("x-replyd-signature") === answerSignature(method, path, nonce, res.status, sha256(bytes), ADMIN.secret);
}
const nonce = () => "n" + crypto.randomUUID().replaceAll("-", "");

test("successes, refusals after the signature, stale timestamps and downloads are signed, bound to the request's nonce", async () => {
  const send = async (method: string, path: string, o: Parameters<typeof signedRequest>[2] = {}) => {
    const n = nonce();
    const res = await t.handle(signedRequest(method, path, { nowMs: t.clock.now(), nonce: n, ...o }));
    return { status: res.status, signed: await signedFor(res.clone(), method, path, n), other: await signedFor(res, method, path, nonce()) };
  };
  expect(await send("GET", "/api/cli")).toEqual({ status: 200, signed: true, other: false });
  expect(await send("GET", "/api/cli", { fields: [["id", "nope"]] })).toEqual({ status: 404, signed: true, other: false });
  expect(await send("GET", "/api/cli", { nowMs: t.clock.now() - 60_000 })).toEqual({ status: 401, signed: true, other: false });
  expect(await send("POST", "/api/cli", { files: [{ name: "json", content: doc([article(1)]) }] })).toMatchObject({ status: 200, signed: true });
  const b = await body(await t.handle(signedRequest("POST", "/api/cli/revert/all", { nowMs: t.clock.now() })));
  expect(await send("GET", "/api/cli/revert/all", { fields: [["id", b.data.id]] })).toEqual({ status: 200, signed: true, other: false });
});

test("refusals before the signature passed are not signed (the key is not known to be the sender's)", async () => {
  for (const req of [
    signedRequest("GET", "/api/cli", { nowMs: t.clock.now(), key: { ...ADMIN, secret: "not-the-secret-at-all-00" } }),
    new Request("http://localhost/api/cli"),
  ]) {
    const res = await t.handle(req);
    expect(res.status).toBe(401);
    expect(res.headers.get("x-replyd-signature")).toBeNull();
  }
});

test("article and rule text with control characters is refused at validation; the same text without them is taken", async () => {
  const post = (a: object, rules: object[] = []) => t.handle(signedRequest("POST", "/api/cli", { nowMs: t.clock.now(), files: [{ name: "json", content: doc([a], { rules }) }] }));
  for (const bad of [{ title: "a\u001b]52;c;x\u0007" }, { description: "x\u009b2J" }, { keywords: ["k\u0000"] }]) {
    const r = await body(await post(article(5, bad)));
    expect(r.error?.code).toBe(CODE.invalid_document);
  }
  const rule = (text: string) => ({ id: "r1", match: "exact", pattern: "p", reply: { type: "text", text } });
  expect((await body(await post(article(6), [rule("hi\u001b[2J")]))).error?.code).toBe(CODE.invalid_document);
  expect((await post(article(7, { description: "line one\nline two\twith a tab" }), [rule("hi\nthere")])).status).toBe(200);
});
