/** Random bytes and fields at every admin route and at the callback: never a 5xx, never a hang. */
import { afterAll, beforeAll, expect, test } from "bun:test";
import fc from "fast-check";
import { wxSignature } from "../../src/wechat/door/crypto.ts";
import { article, doc, signedRequest, testApp } from "../helpers.ts";
import { AESKEY, APPID, eventMsg, peer, textMsg, TOKEN } from "../wechat/helpers.ts";

let t: Awaited<ReturnType<typeof testApp>>;
beforeAll(async () => {
  // Lock-out off: thousands of unsigned requests from one address would otherwise end in 429s and
  // keep the signed requests from reaching the routes at all.
  t = await testApp({ wechat: { token: TOKEN, aesKey: AESKEY, appid: APPID }, limiter: { maxFailures: Number.MAX_SAFE_INTEGER } });
  t.clock.advance(60_000);
  await t.handle(signedRequest("POST", "/api/cli", { files: [{ name: "json", content: doc([article(1), article(2)]) }], nowMs: t.clock.now() }));
});
afterAll(() => t.close());

/** The server is still whole after a run: liveness and a signed read both answer. */
async function stillServing(): Promise<void> {
  expect((await t.handle(new Request("http://localhost/healthz"))).status).toBe(200);
  t.clock.advance(1);
  expect((await t.handle(signedRequest("GET", "/api/cli", { nowMs: t.clock.now() }))).status).toBe(200);
}

/** Answers the status, failing the property on a 5xx or when no answer comes within 5 s. */
async function statusOf(req: Request): Promise<number> {
  const res = await Promise.race([t.handle(req), Bun.sleep(5000).then(() => null)]);
  if (!res) throw new Error(`no answer within 5 s: ${req.method} ${req.url.slice(0, 200)}`);
  await res.arrayBuffer();
  if (res.status >= 500) throw new Error(`${res.status} for ${req.method} ${req.url.slice(0, 200)}`);
  return res.status;
}

const methods = fc.constantFrom("GET", "POST", "PUT", "DELETE");
// Not a dot segment ("/api/cli/revert/.."): a URL parser resolves it before the request is sent, so
// the path signed is not the path asked (a fresh run drew ".." and got the 401 of a signature that does not match).
const paths = fc.oneof(
  fc.constantFrom("/api/cli", "/api/cli/revert/all", "/api/cli/revert/articles", "/api/cli/revert/rules", "/api/cli/revert/texts"),
  fc
    .string({ maxLength: 30 })
    .filter((s) => s !== "." && s !== "..")
    .map((s) => "/api/cli/revert/" + encodeURIComponent(s)),
);
// Field names a client can send in both encodings (multipart cannot carry an empty name, " or CR/LF).
/** The signature's own fields: a random field of one of these names makes the request not "correctly signed" (a fresh run drew "ts"). */
const SIGNING_FIELDS = new Set(["appkey", "ts", "nonce", "sign"]);
const key = fc.oneof(
  fc.constantFrom("id", "code", "tag", "q", "title", "url", "picurl", "keywords", "deleted", "rev", "mode", "purge", "limit", "offset", "inbox", "matter"),
  fc.stringMatching(/^[A-Za-z0-9_.~-]{1,12}$/).filter((k) => !SIGNING_FIELDS.has(k)),
);
const value = fc.oneof(fc.string({ maxLength: 80 }), fc.string({ unit: "binary", maxLength: 40 }), fc.constantFrom("", "0", "-1", "1e9", "all", "init", "merge", "unmatched", "a1", "https://e.com/", "99999999999999999999"));

test("unsigned random queries and bodies get 4xx, never 5xx", async () => {
  await fc.assert(
    fc.asyncProperty(methods, paths, fc.uint8Array({ maxLength: 300 }), fc.constantFrom("multipart/form-data; boundary=x", "application/x-www-form-urlencoded", "application/json", "text/plain", ""), fc.string({ maxLength: 100 }), async (method, path, bytes, type, query) => {
      const init: RequestInit = { method, headers: type ? { "content-type": type } : {} };
      if (method === "POST" || method === "PUT") init.body = bytes;
      const status = await statusOf(new Request(`http://localhost${path}?${query}`, init));
      expect(status).toBeGreaterThanOrEqual(400);
    }),
    { numRuns: 300 },
  );
  await stillServing();
});

test("correctly signed random fields and files reach the routes and never get a 5xx", async () => {
  await fc.assert(
    fc.asyncProperty(
      methods,
      paths,
      fc.array(fc.tuple(key, value), { maxLength: 6 }),
      fc.option(fc.tuple(fc.constantFrom("json", "media", "x"), fc.oneof(fc.string({ maxLength: 200 }), fc.constantFrom("[]", "{}", "null", '{"format":"replyd/1","matter":"all"}', doc([article(9)]), '[{"title":"t","url":"https://e.com"}]'))), { nil: undefined }),
      async (method, path, fields, file) => {
        t.clock.advance(1);
        const files = file && (method === "POST" || method === "PUT") ? [{ name: file[0], content: file[1] }] : [];
        // FormData rewrites \n as \r\n inside multipart values (docs/protocol.md): send what is signed.
        if (files.length) fields = fields.map(([k, v]) => [k, v.replace(/[\r\n]/g, " ")]);
        const req = signedRequest(method, path, { fields, files, nowMs: t.clock.now() });
        const status = await statusOf(req);
        expect(status).not.toBe(401); // signed correctly: every answer comes from a route
      },
    ),
    { numRuns: 300 },
  );
  await stillServing();
});

const NOW = () => Math.floor(t.clock.now() / 1000);
const hostile = fc.oneof(
  fc.string({ maxLength: 400 }),
  fc.string({ unit: "binary", maxLength: 200 }),
  fc.constantFrom(
    '<!DOCTYPE xml [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;">]><xml><Content>&b;</Content></xml>',
    '<?xml version="1.0"?><!DOCTYPE x SYSTEM "file:///etc/passwd"><xml/>',
    "<xml>" + "<a>".repeat(5000) + "</a>".repeat(5000) + "</xml>",
    "<xml><Content><![CDATA[" + "x".repeat(60_000) + "]]></Content></xml>",
    "<xml><Content><![CDATA[unterminated</Content></xml>",
  ),
);

/** Inserts or removes a random slice of a valid message. */
const mutatedMessage = fc.tuple(fc.constantFrom("text", "event"), fc.nat(), fc.nat({ max: 20 }), fc.string({ maxLength: 20 })).map(([kind, at, cut, insert]) => {
  const base = kind === "text" ? textMsg("fv3", NOW()) : eventMsg("CLICK", NOW(), "K");
  const i = at % base.length;
  return base.slice(0, i) + insert + base.slice(i + cut);
});

test("random and mutated XML to the callback: plain and encrypted, never a 5xx or a hang", async () => {
  await fc.assert(
    fc.asyncProperty(fc.oneof(hostile, mutatedMessage), fc.boolean(), fc.boolean(), async (xml, encrypted, invalidUtf8) => {
      const ts = String(NOW());
      const q = new URLSearchParams({ timestamp: ts, nonce: "7", signature: wxSignature(TOKEN, ts, "7") });
      let body: string | Uint8Array = xml;
      if (encrypted) {
        const enc = peer.encrypt(xml) as string;
        q.set("encrypt_type", "aes");
        q.set("msg_signature", peer.getSignature(ts, "7", enc));
        body = `<xml><Encrypt><![CDATA[${enc}]]></Encrypt></xml>`;
      }
      if (invalidUtf8) body = Buffer.concat([Buffer.from(body), Buffer.from([0xc3, 0x28, 0xff])]);
      await statusOf(new Request(`http://localhost/wechat?${q}`, { method: "POST", body }));
    }),
    { numRuns: 300 },
  );
  await stillServing();
});
