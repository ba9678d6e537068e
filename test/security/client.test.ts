/**
 * The client's door (issue 17 A): a server that answers the client — compromised, or a man in the
 * middle on plain HTTP — cannot write where it likes, forge an answer, redirect a signed request,
 * exhaust the laptop or drive its clock. Each attack next to a valid control.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { scrub } from "../../src/cli/verified-response.ts";
import { Client } from "../../src/cli/client.ts";
import { run } from "../../src/cli/index.ts";
import { documentDigest } from "../../src/doc/digest.ts";
import { responseSignature, formatTs } from "../../src/sign.ts";
import { BIN, buildIfMissing } from "../binary-server.ts";
import { ADMIN, captureIO, tempDir } from "../helpers.ts";
import vectors from "../vectors/answers.json";
import { CODE } from "../../src/base/errors.ts";

type Reply = { status?: number; body?: string | Uint8Array | ReadableStream; headers?: Record<string, string>; sign?: boolean };
let handler: (req: Request, nonce: string, path: string) => Reply | Promise<Reply> = () => ({ body: "{}" });
let hits = 0;
const sha256 = (b: Uint8Array) => new Bun.CryptoHasher("sha256").update(b).digest("hex");

/** A fake replyd: answers what `handler` says, signed with the shared secret unless told not to. */
let fake: ReturnType<typeof Bun.serve>;
let tmp: ReturnType<typeof tempDir>;
beforeAll(() => {
  tmp = tempDir();
  fake = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      hits++;
      const url = new URL(req.url);
      const multipart = (req.headers.get("content-type") ?? "").startsWith("multipart/form-data");
      const form = req.method === "POST" || req.method === "PUT" ? (multipart ? await req.formData() : new URLSearchParams(await req.text())) : url.searchParams;
      const nonce = String(form.get("nonce") ?? url.searchParams.get("nonce") ?? "");
      const r = await handler(req, nonce, url.pathname);
      const status = r.status ?? 200;
      const headers: Record<string, string> = { "content-type": "application/json", ...r.headers };
      if (r.sign !== false && !(r.body instanceof ReadableStream)) {
        const bytes = typeof r.body === "string" ? new TextEncoder().encode(r.body) : (r.body ?? new Uint8Array());
        headers["x-replyd-signature"] = responseSignature(req.method, url.pathname, nonce, status, sha256(bytes), ADMIN.secret);
      }
      return new Response(r.body ?? "", { status, headers });
    },
  });
});
afterAll(() => {
  fake.stop(true);
  tmp.cleanup();
});
afterEach(() => {
  handler = () => ({ body: "{}" });
});

async function cli(...argv: string[]) {
  const io = captureIO({ REPLYD_URL: `http://127.0.0.1:${fake.port}`, REPLYD_APPKEY: ADMIN.appkey, REPLYD_SECRET: ADMIN.secret }, tmp.dir);
  const code = await run(argv, io);
  return { code, out: io.stdout.join("\n"), err: io.stderr.join("\n") };
}
const ok = (data: unknown) => JSON.stringify({ ok: true, data });
const health = { status: "ok", version: "0.1.0", uptime_s: 1, server_time: "x", counts: { articles_live: 0, articles_deleted: 0, tags: 0, rules: 0, texts: 0 }, db_bytes: 0, search_index: "ready", newest_backup: null, key: { appkey: "a", scope: "admin" } };
/** Downloads' temp files, and the folder check's probe, which must not be left either. */
const leftovers = () => readdirSync(tmp.dir).filter((f) => f.endsWith(".part"));
const probes = () => readdirSync(tmp.dir).filter((f) => f.endsWith(".probe"));

describe("signed answers", () => {
  test("the known-answer vectors (from an independent implementation) agree", () => {
    for (const v of vectors) expect(responseSignature(v.method, v.path, v.nonce, v.status, sha256(new TextEncoder().encode(v.body)), v.secret)).toBe(v.signature);
  });
  test("an unsigned 'ok' is not reported as success; the signed one is", async () => {
    handler = () => ({ body: ok(health), sign: false });
    const forged = await cli("health");
    expect(forged.code).toBe(1);
    expect(forged.err).toContain("not signed");
    handler = () => ({ body: ok(health) });
    expect((await cli("health")).code).toBe(0);
  });
  test("an answer signed for another nonce (an old answer replayed) is refused", async () => {
    handler = (req, _nonce, path) => ({ body: ok(health), sign: false, headers: { "x-replyd-signature": responseSignature(req.method, path, "an-old-nonce-0000", 200, sha256(new TextEncoder().encode(ok(health))), ADMIN.secret) } });
    expect((await cli("health")).err).toContain("not signed");
  });
  test("a body altered after signing is refused", async () => {
    handler = (req, nonce, path) => ({ body: ok({ ...health, status: "ok!" }), sign: false, headers: { "x-replyd-signature": responseSignature(req.method, path, nonce, 200, sha256(new TextEncoder().encode(ok(health))), ADMIN.secret) } });
    expect((await cli("health")).code).toBe(1);
  });
  test("a refusal that comes unsigned is reported as a failure and said to be unsigned", async () => {
    handler = () => ({ status: 401, body: JSON.stringify({ ok: false, error: { code: CODE.bad_signature, message: "the signature does not match" } }), sign: false });
    const r = await cli("health");
    expect(r.code).toBe(1);
    expect(r.err).toContain("unsigned answer");
  });
});

describe("the clock offset", () => {
  const stale = (serverTime: string, sign: boolean) => () => ({ status: 401, sign, body: JSON.stringify({ ok: false, error: { code: CODE.stale_timestamp, message: "x", server_time: serverTime, window_s: 5 } }) });
  test("an unsigned stale_timestamp is not adopted: nothing is signed for the future", async () => {
    const seen: number[] = [];
    handler = (req, nonce) => {
      seen.push(Number(new URL(req.url).searchParams.get("ts")));
      return stale(formatTs(Date.now() + 25_000), false)();
    };
    expect((await cli("health")).code).toBe(1);
    expect(seen).toHaveLength(1);
  });
  test("a signed one within an hour is adopted once; beyond an hour it is refused", async () => {
    const seen: number[] = [];
    handler = (req) => {
      const ts = Number(new URL(req.url).searchParams.get("ts"));
      seen.push(ts);
      return seen.length === 1 ? stale(formatTs(Date.now() + 25_000), true)() : { body: ok(health) };
    };
    expect((await cli("health")).code).toBe(0);
    expect((seen[1] as number) - (seen[0] as number)).toBeGreaterThan(24);
    handler = stale(formatTs(Date.now() + 3600_000 + 10_000), true);
    const far = await cli("health");
    expect(far.code).toBe(1);
    expect(far.err).toContain("clock");
  });
});

describe("redirects", () => {
  test("a 3xx is an error naming its target, and the signed request is not sent there", async () => {
    const other = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("caught") });
    let otherHits = 0;
    other.reload({ fetch: () => (otherHits++, new Response("caught")) });
    try {
      handler = () => ({ status: 307, headers: { location: `http://127.0.0.1:${other.port}/api/cli` }, body: "" });
      const r = await cli("rm", "a1");
      expect(r.code).toBe(1);
      expect(r.err).toContain("redirect");
      expect(r.err).toContain(`127.0.0.1:${other.port}`);
      expect(otherHits).toBe(0);
    } finally {
      other.stop(true);
    }
  });
});

describe("bounds", () => {
  test("an answer past --max-answer is cut off and refused; at the cap it is read", async () => {
    const body = ok({ ...health, pad: "x".repeat(2000) });
    handler = () => ({ body });
    expect((await cli("health", "--max-answer", String(body.length))).code).toBe(0);
    expect((await cli("health", "--max-answer", String(body.length - 1))).err).toContain("limit");
  });
  test("an endless body stops at the cap", async () => {
    handler = () => ({ body: new ReadableStream({ pull: (c) => c.enqueue(new Uint8Array(65536)) }) });
    const r = await cli("health", "--max-answer", "1M");
    expect(r.code).toBe(1);
    expect(r.err).toContain("limit");
  });
  test("a compressed answer (a gzip bomb) is refused unread: the client asked for none", async () => {
    const bomb = gzipSync(Buffer.alloc(50 * 1024 * 1024));
    let asked = "";
    handler = (req) => {
      asked = req.headers.get("accept-encoding") ?? "";
      return { body: bomb, headers: { "content-encoding": "gzip" } };
    };
    const r = await cli("health");
    expect(asked).toBe("identity");
    expect(r.code).toBe(1);
    expect(r.err).toContain("compressed");
  });
  test("a server that never answers: --timeout; one that stalls mid-answer: --idle-timeout", async () => {
    handler = () => new Promise(() => {});
    const t0 = Date.now();
    const never = await cli("health", "--timeout", "0.5");
    expect(never.err).toContain("--timeout");
    expect(Date.now() - t0).toBeLessThan(10_000);
    handler = () => ({ body: new ReadableStream({ start: (c) => c.enqueue(new TextEncoder().encode("{")) }) });
    const stalled = await cli("health", "--idle-timeout", "0.3");
    expect(stalled.err).toContain("--idle-timeout");
  });
  test("a 1 MiB id is cut in ls's columns, not padded into every row", async () => {
    const long = "a".repeat(1 << 20);
    handler = () => ({ body: ok({ items: [{ id: long, code: "c", tag: "t", rev: 1, title: "T", deleted: false }, { id: "b", code: "c2", tag: "t", rev: 1, title: "U", deleted: false }], total: 2, limit: 100, offset: 0 }) });
    const r = await cli("ls");
    expect(r.code).toBe(0);
    expect(r.out.length).toBeLessThan(2000);
  });
});

describe("backup writes only what was asked, where it was asked", () => {
  const good = { format: "replyd/1", matter: "all", created_at: "2026-11-21T10:00:00.000Z", articles: [], tags: {}, rules: [], texts: {} };
  const docText = JSON.stringify({ ...good, sha256: documentDigest(good as never) });
  const info = (id: string, sha = documentDigest(good as never)) => ({ id, matter: "all", kind: "manual", created_at: "x", size: docText.length, sha256: sha, counts: { articles: 0 } });
  const backupServer = (id: string, download: () => Reply = () => ({ body: docText })) =>
    (handler = (req) => (req.method === "POST" ? { body: ok(info(id)) } : download()));
  test.each(["/../../../../tmp/evil", "all-x/../../package", "all-20261121T100000123Z-manual-ab\u001b]0;x", "../package"])("an id not of the documented shape (%j) writes nothing", async (id) => {
    backupServer(id);
    const before = readdirSync(tmp.dir);
    const r = await cli("backup");
    expect(r.code).toBe(1);
    expect(r.err).toContain("not a backup id");
    expect(readdirSync(tmp.dir)).toEqual(before);
  });
  test("a good backup is saved under its id; the same again does not replace it without --force", async () => {
    const id = "all-20261121T100000123Z-manual-ab12";
    backupServer(id);
    expect((await cli("backup")).code).toBe(0);
    expect(readFileSync(join(tmp.dir, `replyd-${id}.json`), "utf8")).toBe(docText);
    const again = await cli("backup");
    expect(again.code).toBe(1);
    expect(again.err).toContain("--force");
    expect((await cli("backup", "--force")).code).toBe(0);
    expect(leftovers()).toEqual([]);
  });
  test("with -o over a good copy, a bad download (wrong hash, unsigned, cut off) leaves the copy as it was and no temp file", async () => {
    writeFileSync(join(tmp.dir, "keep.json"), "GOOD COPY");
    const id = "all-20261121T100000123Z-manual-cd34";
    for (const download of [
      // Signed, but not the document the server said it hashed (its own sha256 field no longer matches).
      () => ({ body: docText.replace('"texts":{}', '"texts":{"welcome":"other"}') }),
      () => ({ body: docText, sign: false }),
      () => ({ body: docText.slice(0, 20) }),
    ]) {
      backupServer(id, download);
      const r = await cli("backup", "-o", "keep.json", "--force");
      expect(r.code).toBe(1);
      expect(readFileSync(join(tmp.dir, "keep.json"), "utf8")).toBe("GOOD COPY");
      expect(leftovers()).toEqual([]);
    }
  });
  test("a forged document whose sha256 matches its own content is refused when the answer is unsigned", async () => {
    const forged = { ...good, texts: { welcome: "pwned" } };
    const forgedText = JSON.stringify({ ...forged, sha256: documentDigest(forged as never) });
    handler = (req) => (req.method === "POST" ? { body: ok(info("all-20261121T100000123Z-manual-ef56", documentDigest(forged as never))), sign: false } : { body: forgedText, sign: false });
    const r = await cli("backup", "-o", "forged.json");
    expect(r.code).toBe(1);
    expect(existsSync(join(tmp.dir, "forged.json"))).toBe(false);
  });
});

describe("what the client says", () => {
  test("media put warns of a URL that is not --public-url's (as the server says; an older server's: a loopback one), and of no other", async () => {
    writeFileSync(join(tmp.dir, "pic.png"), "not really a png");
    const cases = [
      ["http://10.0.0.5:8080/media/ab.png", false, true],
      ["https://cdn.example.com/media/ab.png", true, false],
      ["http://127.0.0.1:8080/media/ab.png", undefined, true],
      ["http://localhost:8080/media/ab.png", undefined, true],
      ["https://cdn.example.com/media/ab.png", undefined, false],
    ] as const;
    for (const [url, isPublic, warned] of cases) {
      handler = () => ({ body: ok({ url, type: "image/png", size: 16, existed: false, ...(isPublic === undefined ? {} : { public: isPublic }) }) });
      const r = await cli("media", "put", "pic.png");
      expect(r.code).toBe(0);
      expect(r.err.includes("followers' phones may not load it")).toBe(warned);
    }
  });

  test("plain HTTP to another host is warned about once; loopback is not", () => {
    const a = captureIO();
    new Client({ url: "http://203.0.113.9:8080", appkey: "k", secret: "s" }, a);
    new Client({ url: "http://203.0.113.9:8080", appkey: "k", secret: "s" }, a);
    expect(a.stderr.filter((l) => l.includes("plain HTTP"))).toHaveLength(1);
    const b = captureIO();
    new Client({ url: "http://127.0.0.1:8080", appkey: "k", secret: "s" }, b);
    expect(b.stderr).toEqual([]);
    // Once a command run (its IO), not once a process: the next run is warned again.
    const c = captureIO();
    new Client({ url: "http://203.0.113.9:8080", appkey: "k", secret: "s" }, c);
    expect(c.stderr.filter((l) => l.includes("plain HTTP"))).toHaveLength(1);
  });
  test("an error text never carries a signed query", async () => {
    expect(scrub("failed GET http://h:1/api/cli?appkey=a&nonce=abc&sign=0123 now")).toBe("failed GET http://h:1/api/cli?… now");
    const r = await run(["health", "--timeout", "2"], captureIO({ REPLYD_URL: "http://127.0.0.1:1", REPLYD_APPKEY: "k", REPLYD_SECRET: "0123456789abcdef" }));
    expect(r).toBe(1);
  });
});

describe("through the compiled binary", () => {
  const env = () => ({ PATH: process.env.PATH ?? "", REPLYD_URL: `http://127.0.0.1:${fake.port}`, REPLYD_APPKEY: ADMIN.appkey, REPLYD_SECRET: ADMIN.secret });
  test("Ctrl-C during a backup download leaves no temp file behind", async () => {
    buildIfMissing();
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    handler = (req) =>
      req.method === "POST"
        ? { body: ok({ id: "all-20261121T100000123Z-manual-zz99", matter: "all", kind: "manual", created_at: "x", size: 1, sha256: "0".repeat(64), counts: {} }) }
        : {
            body: new ReadableStream({
              async start(c) {
                c.enqueue(new TextEncoder().encode("{".padEnd(65536, " ")));
                await gate;
                c.close();
              },
            }),
          };
    // None left by the tests before: one would be taken for the binary's own below, and the Ctrl-C
    // sent before the binary watches for it (a fresh clone's run failed so, once, on a loaded machine).
    expect(leftovers()).toEqual([]);
    const p = Bun.spawn([BIN, "backup"], { cwd: tmp.dir, env: env(), stdout: "pipe", stderr: "pipe" });
    // Waits for the binary to start and open its temp file: seconds on a loaded machine, not a bound on anything.
    for (let i = 0; i < 1000 && leftovers().length === 0; i++) await Bun.sleep(20);
    expect(leftovers()).toHaveLength(1); // the download is under way, in a temp file
    p.kill("SIGINT");
    expect(await p.exited).toBe(130);
    release();
    expect(leftovers()).toEqual([]);
    expect(probes()).toEqual([]);
  });
  test("control characters in a signed server string are printed escaped", async () => {
    handler = () => ({ body: ok({ ...health, version: "0.1.0\u001b]0;owned\u0007\u001b[2J" }) });
    // Not spawnSync: the fake server runs in this process and must keep answering.
    const p = Bun.spawn([BIN, "health"], { cwd: tmp.dir, env: env(), stdout: "pipe" });
    const out = await new Response(p.stdout).text();
    expect(await p.exited).toBe(0);
    expect(out).toContain("0.1.0\\u001b]0;owned\\u0007\\u001b[2J");
    expect(out).not.toContain("\u001b");
  });
});
