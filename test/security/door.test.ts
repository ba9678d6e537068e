/**
 * The admin door (issue 12 B and C): what arrives before authentication costs little and bounded
 * memory and time, every refusal before authentication counts, the lock-out never refuses a valid
 * signature, and the client address behind a proxy is the one the proxy appended.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import fc from "fast-check";
import { FORM_BODY_SLACK, FORM_LIMITS } from "../../src/server/form-bounds.ts";
import { FailureLimiter, limiterKey } from "../../src/server/limiter.ts";
import { startServer } from "../../src/server/serve.ts";
import { clientAddress } from "../../src/server/listener.ts";
import { canonicalQuery, fileParamValue, formatTs, newNonce, signRequest, type Param } from "../../src/sign.ts";
import { ADMIN, ADMIN_ENV, body, doc, article, serveOpts, signedRequest, tempDir, testApp } from "../helpers.ts";
import { CODE } from "../../src/base/errors.ts";

let t: Awaited<ReturnType<typeof testApp>>;
const ADDR = "x-test-addr";
beforeEach(async () => {
  t = await testApp({ clientAddress: (r) => r.headers.get(ADDR) ?? "203.0.113.1", maxUpload: 1 << 20 });
  t.clock.advance(60_000);
});
afterEach(() => t.close());

const status = async (req: Request) => {
  const res = await t.handle(req);
  return { status: res.status, code: (await body(res)).error?.code as string | undefined };
};
const post = (bodyText: string | Uint8Array, type: string, headers: Record<string, string> = {}) =>
  new Request("http://localhost/api/cli", { method: "POST", body: bodyText, headers: { "content-type": type, ...headers } });
const form = "application/x-www-form-urlencoded";

/** A multipart body built by hand (as the client does), with its signature when `sign` is set. */
function multipart(parts: { name: string; filename?: string; data: string | Uint8Array }[], o: { sign?: boolean; boundary?: string } = {}) {
  const boundary = o.boundary ?? "b-" + newNonce();
  const enc = new TextEncoder();
  const all = [...parts];
  if (o.sign) {
    const params: Param[] = [["appkey", ADMIN.appkey], ["ts", formatTs(t.clock.now())], ["nonce", newNonce()]];
    const signed: Param[] = [...params, ...parts.map((p) => [p.name, p.filename !== undefined ? fileParamValue(typeof p.data === "string" ? enc.encode(p.data) : p.data) : String(p.data)] as Param)];
    const { sign } = signRequest({ method: "POST", path: "/api/cli", params: signed, secret: ADMIN.secret });
    all.unshift(...[...params, ["sign", sign] as Param].map(([name, data]) => ({ name, data })));
  }
  const chunks: Uint8Array[] = [];
  for (const p of all) {
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"${p.filename !== undefined ? `; filename="${p.filename}"` : ""}\r\n\r\n`;
    chunks.push(enc.encode(head), typeof p.data === "string" ? enc.encode(p.data) : p.data, enc.encode("\r\n"));
  }
  chunks.push(enc.encode(`--${boundary}--\r\n`));
  return { bytes: Buffer.concat(chunks), type: `multipart/form-data; boundary=${boundary}` };
}

/** A body sent in pieces of `size` bytes (no declared length). */
const streamed = (bytes: Uint8Array, type: string, size: number, headers: Record<string, string> = {}) =>
  new Request("http://localhost/api/cli", {
    method: "POST",
    headers: { "content-type": type, ...headers },
    body: new ReadableStream({
      start(c) {
        for (let at = 0; at < bytes.length; at += size) c.enqueue(bytes.slice(at, at + size));
        c.close();
      },
    }),
  });

describe("a form body is bounded before it is signed", () => {
  test("a url-encoded body one byte past the bound is refused 413; at the bound it reaches the signature check", async () => {
    const at = "a=" + "b".repeat(FORM_LIMITS.fieldBytes - 2);
    expect(await status(post(at, form))).toEqual({ status: 401, code: CODE.unsigned });
    expect(await status(post(at + "c", form))).toEqual({ status: 413, code: CODE.too_large });
  });
  test("the bound holds for a streamed body with no declared length", async () => {
    const big = new TextEncoder().encode("a&".repeat(FORM_LIMITS.fieldBytes));
    expect(await status(streamed(big, form, 4096))).toEqual({ status: 413, code: CODE.too_large });
  });
  test("the issue's body (`a&` × 33,554,432, 64 MiB) is refused on its declared length, unread", async () => {
    const res = await t.handle(new Request("http://localhost/api/cli", { method: "POST", headers: { "content-type": form, "content-length": String(64 * 1024 * 1024) }, body: "a&" }));
    expect(res.status).toBe(413);
  });
  test(`${FORM_LIMITS.fields + 1} fields are refused; ${FORM_LIMITS.fields} reach the signature check`, async () => {
    const fields = (n: number) => Array.from({ length: n }, (_, i) => `f${i}=1`).join("&");
    expect(await status(post(fields(FORM_LIMITS.fields), form))).toEqual({ status: 401, code: CODE.unsigned });
    expect(await status(post(fields(FORM_LIMITS.fields + 1), form))).toEqual({ status: 400, code: CODE.too_many_fields });
  });
  test("query and body fields count together", async () => {
    const q = Array.from({ length: 200 }, (_, i) => `q${i}=1`).join("&");
    const b = Array.from({ length: 57 }, (_, i) => `f${i}=1`).join("&");
    const req = new Request(`http://localhost/api/cli?${q}`, { method: "POST", body: b, headers: { "content-type": form } });
    expect(await status(req)).toEqual({ status: 400, code: CODE.too_many_fields });
  });
});

describe("a multipart body is read as a stream, within bounds", () => {
  test("a signed import split into 1-byte to 7-byte pieces is read exactly (boundaries across pieces)", async () => {
    const json = doc([article(1), article(2, { title: "a\r\n--b-not-the-boundary\r\n" })]);
    for (const size of [1, 2, 7, 4096]) {
      t.clock.advance(1);
      const m = multipart([{ name: "json", filename: "a.json", data: json }], { sign: true });
      const res = await t.handle(streamed(m.bytes, m.type, size));
      expect(res.status).toBe(200);
    }
    expect(t.store.articles.get("a2")?.title).toBe("a\r\n--b-not-the-boundary\r\n");
  });
  test("any file content survives the reader byte for byte (its md5 is what was signed)", async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 3000 }), fc.integer({ min: 1, max: 600 }), async (bytes, size) => {
        t.clock.advance(1);
        // Bytes that look like the boundary's start, CRLFs and dashes, mixed into the content.
        const data = Buffer.concat([Buffer.from("\r\n--b-"), Buffer.from(bytes), Buffer.from("\r\n-")]);
        const m = multipart([{ name: "media", filename: "x.png", data }], { sign: true });
        const res = await t.handle(streamed(m.bytes, m.type, size));
        // Not an image: refused by the route (400 bad_media), which only runs once the signature matched.
        expect((await body(res)).error?.code).toBe(CODE.bad_media);
      }),
      { numRuns: 40 },
    );
  });
  test("a file part one byte past --max-upload is refused; at the limit it is read", async () => {
    const limit = 1 << 20;
    const at = multipart([{ name: "media", filename: "x", data: new Uint8Array(limit) }], { sign: true });
    expect((await status(post(at.bytes, at.type))).code).toBe(CODE.bad_media);
    const past = multipart([{ name: "media", filename: "x", data: new Uint8Array(limit + 1) }], { sign: true });
    expect(await status(streamed(past.bytes, past.type, 65536))).toEqual({ status: 413, code: CODE.too_large });
  });
  test("fields past their byte bound, an oversized part header, too many file parts, two files of one name: each refused", async () => {
    const big = multipart([{ name: "f", data: "x".repeat(FORM_LIMITS.fieldBytes + 1) }]);
    expect(await status(post(big.bytes, big.type))).toEqual({ status: 413, code: CODE.too_large });
    const header = multipart([{ name: "f".repeat(FORM_LIMITS.partHeader), data: "1" }]);
    expect(await status(post(header.bytes, header.type))).toEqual({ status: 413, code: CODE.too_large });
    const many = multipart(Array.from({ length: FORM_LIMITS.files + 1 }, (_, i) => ({ name: `f${i}`, filename: "x", data: "1" })));
    expect(await status(post(many.bytes, many.type))).toEqual({ status: 400, code: CODE.too_many_fields });
    const twice = multipart([{ name: "json", filename: "a", data: "1" }, { name: "json", filename: "b", data: "2" }]);
    expect(await status(post(twice.bytes, twice.type))).toEqual({ status: 400, code: CODE.bad_request });
    // Control: the same shapes within bounds reach the signature check.
    const fine = multipart([{ name: "f", data: "x".repeat(100) }, { name: "json", filename: "a", data: "1" }]);
    expect(await status(post(fine.bytes, fine.type))).toEqual({ status: 401, code: CODE.unsigned });
  });
  test("a body that is not multipart as declared is refused, not guessed at", async () => {
    for (const bad of ["no boundary at all", "--b-x\r\nno header end", "--b-x\r\nContent-Disposition: attachment\r\n\r\n1\r\n--b-x--"])
      expect((await status(post(bad, "multipart/form-data; boundary=b-x"))).status).toBe(401);
    expect((await status(post("x", "multipart/form-data"))).status).toBe(401);
  });
});

describe("every refusal before authentication counts", () => {
  test("ten oversized, malformed or duplicate-part bodies lock the address; further failures get 429", async () => {
    const twice = multipart([{ name: "json", filename: "a", data: "1" }, { name: "json", filename: "b", data: "2" }]);
    for (let i = 0; i < 5; i++) expect((await status(post(twice.bytes, twice.type))).status).toBe(400);
    for (let i = 0; i < 5; i++) expect((await status(post("a=" + "b".repeat(FORM_LIMITS.fieldBytes), form))).status).toBe(413);
    expect(await status(post(twice.bytes, twice.type))).toEqual({ status: 429, code: CODE.too_many_failures });
  });
  test("24 bad bodies in parallel: the first ten are answered for what they are, the rest 429", async () => {
    const bad = () => post("a=1&".repeat(100), form);
    const codes = (await Promise.all(Array.from({ length: 24 }, () => status(bad())))).map((r) => r.status);
    expect(codes.filter((c) => c === 401)).toHaveLength(10);
    expect(codes.filter((c) => c === 429)).toHaveLength(14);
  });
  test("a locked address's valid signature still passes, for every method", async () => {
    for (let i = 0; i < 12; i++) await t.handle(post("x=1", form));
    expect((await status(post("x=1", form))).status).toBe(429);
    expect((await t.handle(signedRequest("GET", "/api/cli", { nowMs: t.clock.now() }))).status).toBe(200);
    expect((await t.handle(signedRequest("PUT", "/api/cli", { nowMs: t.clock.now(), fields: [["id", "z1"], ["title", "Z"], ["url", "https://example.com/z"]] }))).status).toBe(200);
    expect((await t.handle(signedRequest("POST", "/api/cli", { nowMs: t.clock.now(), files: [{ name: "json", content: doc([article(9)]) }] }))).status).toBe(200);
  });
});

describe("the door's memory budget", () => {
  test("past the bytes all unauthenticated requests may hold together, a new upload is refused 503 busy; the budget is returned", async () => {
    const small = await testApp({ preAuthBytes: 100_000 });
    try {
      const m = multipart([{ name: "json", filename: "a", data: new Uint8Array(150_000) }]);
      const res = await small.handle(post(m.bytes, m.type));
      expect(res.status).toBe(503);
      expect((await body(res)).error?.code).toBe(CODE.busy);
      const ok = multipart([{ name: "json", filename: "a", data: new Uint8Array(60_000) }]);
      for (let i = 0; i < 3; i++) expect((await small.handle(post(ok.bytes, ok.type))).status).toBe(401);
    } finally {
      small.close();
    }
  });
});

describe("the lock-out's bookkeeping", () => {
  test("50,000 distinct failing addresses: memory stays within maxEntries, sweeps are not per request", () => {
    const limiter = new FailureLimiter({ maxFailures: 10, periodMs: 60_000, lockMs: 60_000, maxEntries: 10_000 });
    for (let i = 0; i < 50_000; i++) limiter.fail(`10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`, 1000 + i / 100);
    expect(limiter.size).toBe(10_000);
    expect(limiter.sweeps).toBeLessThanOrEqual(2);
    // The newest addresses are still counted; a lock still takes effect.
    for (let i = 0; i < 10; i++) limiter.fail("10.0.195.80", 2000);
    expect(limiter.lockedFor("10.0.195.80", 2001)).toBeGreaterThan(0);
  });
  test("IPv6 addresses count by their /64; IPv4-mapped addresses as IPv4", () => {
    expect(limiterKey("2001:db8:1:2:aaaa::1")).toBe(limiterKey("2001:db8:1:2:bbbb:cccc:dddd:eeee"));
    expect(limiterKey("2001:db8:1:2::1")).not.toBe(limiterKey("2001:db8:1:3::1"));
    expect(limiterKey("2001:0db8:0001:0002::1")).toBe("2001:db8:1:2::/64");
    expect(limiterKey("::1")).toBe("0:0:0:0::/64");
    expect(limiterKey("::ffff:192.0.2.7")).toBe("192.0.2.7");
    expect(limiterKey("192.0.2.7")).toBe("192.0.2.7");
  });
});

describe("the client address behind a trusted proxy", () => {
  test("is the rightmost X-Forwarded-For entry (what the proxy appended), never one the client wrote", () => {
    expect(clientAddress("127.0.0.1", "198.51.100.9")).toBe("198.51.100.9");
    expect(clientAddress("127.0.0.1", "203.0.113.66, 198.51.100.9")).toBe("198.51.100.9");
    expect(clientAddress("127.0.0.1", "a, b,198.51.100.9 ")).toBe("198.51.100.9");
    expect(clientAddress("127.0.0.1", null)).toBe("127.0.0.1");
    expect(clientAddress("127.0.0.1", " ")).toBe("127.0.0.1");
  });
  test("over a socket: a client can neither pick a victim's address nor escape by rotating the header", async () => {
    const { dir, cleanup } = tempDir();
    const server = await startServer(serveOpts(dir, { maxAuthFailures: 3, trustProxy: true, env: ADMIN_ENV }));
    try {
      const bad = (xff: string) => fetch(`${server.url}/api/cli?appkey=x&ts=1&nonce=${"n".repeat(16)}&sign=${"0".repeat(32)}`, { headers: { "x-forwarded-for": xff } }).then((r) => r.status);
      // The attacker (appended by the proxy as 198.51.100.9) writes a different "client" each time.
      for (let i = 0; i < 3; i++) expect(await bad(`10.0.0.${i}, 198.51.100.9`)).toBe(401);
      expect(await bad("10.0.0.99, 198.51.100.9")).toBe(429);
      // The victim, whose address the attacker wrote on the left, is not locked out.
      expect(await bad("198.51.100.9, 192.0.2.1")).toBe(401);
      // A valid signature from the locked address passes.
      const params: Param[] = [["appkey", ADMIN.appkey], ["ts", formatTs(Date.now())], ["nonce", newNonce()]];
      const { sign } = signRequest({ method: "GET", path: "/api/cli", params, secret: ADMIN.secret });
      const ok = await fetch(`${server.url}/api/cli?${canonicalQuery([...params, ["sign", sign]])}`, { headers: { "x-forwarded-for": "198.51.100.9" } });
      expect(ok.status).toBe(200);
    } finally {
      await server.stop();
      cleanup();
    }
  });
});

describe("a large upload is received as a stream", () => {
  test("while an 8 MiB upload is half received, /healthz answers every time; the finished upload is then refused as unsigned", async () => {
    const { dir, cleanup } = tempDir();
    const server = await startServer(serveOpts(dir, { maxUpload: 16 << 20, env: ADMIN_ENV }));
    try {
      const m = multipart([{ name: "json", filename: "a", data: new Uint8Array(8 << 20) }]);
      let release!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      const half = m.bytes.length >> 1;
      const upload = fetch(`${server.url}/api/cli`, {
        method: "POST",
        headers: { "content-type": m.type, "content-length": String(m.bytes.length) },
        body: new ReadableStream({
          async start(c) {
            for (let at = 0; at < half; at += 65536) c.enqueue(m.bytes.slice(at, Math.min(at + 65536, half)));
            await gate;
            c.enqueue(m.bytes.slice(half));
            c.close();
          },
        }),
        duplex: "half",
      } as RequestInit);
      let healthz = 0;
      for (let i = 0; i < 50; i++) {
        await Bun.sleep(20);
        if ((await fetch(`${server.url}/healthz`)).status === 200) healthz++;
      }
      expect(healthz).toBe(50);
      release();
      expect((await upload).status).toBe(401);
    } finally {
      await server.stop();
      cleanup();
    }
  });
});

test("FORM_BODY_SLACK bounds the whole multipart body: one byte past maxUpload + slack is refused on its length", async () => {
  const res = await t.handle(new Request("http://localhost/api/cli", { method: "POST", headers: { "content-type": "multipart/form-data; boundary=x", "content-length": String((1 << 20) + FORM_BODY_SLACK + 1) }, body: "x" }));
  expect(res.status).toBe(413);
});
