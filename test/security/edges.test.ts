/**
 * Smaller holes (issue 12 F), each next to a valid control: one path read once, a bad Host, the
 * data folder's modes, media URLs from the configuration, bounded q= and problem lists, the signed
 * path, control characters at the callback's door and in the client's output.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { chmodSync, mkdirSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { join } from "node:path";
import { printable } from "../../src/cli/io.ts";
import { validateDocument } from "../../src/doc/validation.ts";
import { InvalidDocumentError, MAX_PROBLEMS_LISTED } from "../../src/base/errors.ts";
import { MAX_QUERY_WORDS } from "../../src/server/admin.ts";
import { startServer, type RunningServer } from "../../src/server/serve.ts";
import { canonicalQuery, formatTs, newNonce, signRequest, type Param } from "../../src/sign.ts";
import { ADMIN, ADMIN_ENV, body, openStore, serveOpts, signedRequest, T0, tempDir, testApp } from "../helpers.ts";
import { textMsg, TOKEN, wxPost } from "../wechat/helpers.ts";
import { CODE } from "../../src/base/errors.ts";

const PNG = Uint8Array.from(atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="), (c) => c.charCodeAt(0));

/** Sends raw bytes and answers the status line and body (a client that writes any Host it likes). */
function raw(port: number, text: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve) => {
    const s = connect(port, "127.0.0.1");
    let out = "";
    const done = () => {
      s.destroy();
      resolve({ status: Number(/^HTTP\/1\.[01] (\d{3})/.exec(out)?.[1] ?? 0), body: out.split("\r\n\r\n").slice(1).join("\r\n\r\n") });
    };
    s.on("data", (d) => {
      out += d.toString();
      if (/\r\n\r\n/.test(out) && /content-length: (\d+)/i.test(out)) {
        const len = Number(/content-length: (\d+)/i.exec(out)?.[1]);
        if (Buffer.byteLength(out.split("\r\n\r\n").slice(1).join("\r\n\r\n")) >= len) done();
      }
    });
    s.on("end", done);
    s.on("error", done);
    s.write(text);
    setTimeout(done, 3000);
  });
}

let tmp: ReturnType<typeof tempDir>;
let server: RunningServer;
const lines: string[] = [];
beforeAll(async () => {
  tmp = tempDir();
  mkdirSync(join(tmp.dir, "media", "sub"), { recursive: true });
  writeFileSync(join(tmp.dir, "media", ".env"), "SECRET");
  writeFileSync(join(tmp.dir, "media", "sub", "a.txt"), "SUB");
  writeFileSync(join(tmp.dir, "media", "ok.txt"), "OK");
  server = await startServer(serveOpts(tmp.dir, { maxAuthFailures: 100, wechat: { token: TOKEN }, env: ADMIN_ENV, log: (l) => lines.push(l) }));
});
afterAll(async () => {
  await server.stop();
  tmp.cleanup();
});

describe("one path, read once", () => {
  test("a short Host cannot make the router and the media guard read different paths", async () => {
    expect((await raw(server.port, "GET /zz/media/.env HTTP/1.1\r\nHost: x\r\n\r\n")).body).not.toContain("SECRET");
    expect((await raw(server.port, "GET /zz/media/.env HTTP/1.1\r\nHost: x\r\n\r\n")).status).toBe(404);
    expect((await raw(server.port, "GET /x/media/sub/a.txt HTTP/1.1\r\nHost: a.b\r\n\r\n")).status).toBe(404);
    // Control: the same plain file under /media/ is served with a short Host and a long one.
    expect(await raw(server.port, "GET /media/ok.txt HTTP/1.1\r\nHost: x\r\n\r\n")).toEqual({ status: 200, body: "OK" });
    expect(await raw(server.port, "GET /media/ok.txt HTTP/1.1\r\nHost: replyd.example.com\r\n\r\n")).toEqual({ status: 200, body: "OK" });
  });
});

describe("a missing or malformed Host", () => {
  test.each([
    ["HTTP/1.0 without Host", "GET /healthz HTTP/1.0\r\n\r\n"],
    ["Host: a@b", "GET /healthz HTTP/1.1\r\nHost: a@b\r\n\r\n"],
    ["a port past 65535", "GET /healthz HTTP/1.1\r\nHost: h:99999\r\n\r\n"],
    ["an empty Host", "GET /healthz HTTP/1.1\r\nHost: \r\n\r\n"],
  ])("%s: 400 bad_host, with an access-log line", async (_name, request) => {
    const before = lines.length;
    const res = await raw(server.port, request);
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body).error.code).toBe(CODE.bad_host);
    await Bun.sleep(30);
    expect(lines.slice(before).some((l) => JSON.parse(l).status === 400 && JSON.parse(l).path === "/healthz")).toBe(true);
  });
  test("control: a valid host:port and a bracketed IPv6 host are answered", async () => {
    expect((await raw(server.port, "GET /healthz HTTP/1.1\r\nHost: h:8080\r\n\r\n")).status).toBe(200);
    expect((await raw(server.port, "GET /healthz HTTP/1.1\r\nHost: [::1]:80\r\n\r\n")).status).toBe(200);
  });
});

describe("media URLs never come from an unsigned header", () => {
  const upload = (base: string, host: string) => {
    const params: Param[] = [["appkey", ADMIN.appkey], ["ts", formatTs(Date.now())], ["nonce", newNonce()], ["media", "md5:" + new Bun.CryptoHasher("md5").update(PNG).digest("hex")]];
    const { sign } = signRequest({ method: "POST", path: "/api/cli", params, secret: ADMIN.secret });
    const form = new FormData();
    for (const [k, v] of [...params.filter(([k]) => k !== "media"), ["sign", sign] as Param]) form.append(k, v);
    form.append("media", new File([PNG], "p.png"));
    return fetch(`${base}/api/cli`, { method: "POST", body: form, headers: { host } }).then((r) => r.json() as Promise<{ data: { url: string } }>);
  };
  test("without --public-url, an upload sent with Host: evil.example answers a URL on the listening address", async () => {
    const r = await upload(server.url, "evil.example");
    expect(r.data.url).toStartWith(`${server.url}/media/`);
  });
  test("with --public-url, that address", async () => {
    const t = tempDir();
    const s = await startServer(serveOpts(t.dir, { publicUrl: "https://replyd.example.com", env: ADMIN_ENV }));
    try {
      expect((await upload(s.url, "evil.example")).data.url).toStartWith("https://replyd.example.com/media/");
    } finally {
      await s.stop();
      t.cleanup();
    }
  });
});

describe("the data folder is private", () => {
  test("database, WAL, backups and folders are created 0600 / 0700", async () => {
    const mode = (p: string) => statSync(p).mode & 0o777;
    const params: Param[] = [["appkey", ADMIN.appkey], ["ts", formatTs(Date.now())], ["nonce", newNonce()]];
    const { sign } = signRequest({ method: "POST", path: "/api/cli/revert/all", params, secret: ADMIN.secret });
    expect((await fetch(`${server.url}/api/cli/revert/all`, { method: "POST", body: canonicalQuery([...params, ["sign", sign]]), headers: { "content-type": "application/x-www-form-urlencoded" } })).status).toBe(200);
    expect(mode(tmp.dir)).toBe(0o700);
    expect(mode(join(tmp.dir, "replyd.db"))).toBe(0o600);
    expect(mode(join(tmp.dir, "replyd.db-wal"))).toBe(0o600);
    expect(mode(join(tmp.dir, "backups"))).toBe(0o700);
    const backups = readdirSync(join(tmp.dir, "backups"));
    expect(backups.length).toBeGreaterThan(0);
    for (const f of backups) expect(mode(join(tmp.dir, "backups", f))).toBe(0o600);
  });
  test("a folder an older version left 0755 / 0644 is narrowed when opened", () => {
    const t = tempDir();
    try {
      openStore(t.dir).close();
      chmodSync(t.dir, 0o755);
      chmodSync(join(t.dir, "replyd.db"), 0o644);
      writeFileSync(join(t.dir, "backups", "all-old.json"), "{}", { mode: 0o644 });
      openStore(t.dir).close();
      expect(statSync(t.dir).mode & 0o777).toBe(0o700);
      expect(statSync(join(t.dir, "replyd.db")).mode & 0o777).toBe(0o600);
      expect(statSync(join(t.dir, "backups", "all-old.json")).mode & 0o777).toBe(0o600);
    } finally {
      t.cleanup();
    }
  });
});

describe("bounded admin work", () => {
  test(`q= with ${MAX_QUERY_WORDS + 1} words is refused 400; ${MAX_QUERY_WORDS} are answered; 2,000 are refused, never a 500`, async () => {
    const t = await testApp();
    try {
      t.clock.advance(10_000);
      const q = (n: number) => signedRequest("GET", "/api/cli", { nowMs: t.clock.now(), fields: [["q", Array.from({ length: n }, (_, i) => `w${i}`).join(" ")]] });
      expect((await t.handle(q(MAX_QUERY_WORDS))).status).toBe(200);
      for (const n of [MAX_QUERY_WORDS + 1, 2000]) {
        const res = await t.handle(q(n));
        expect(res.status).toBe(400);
        expect((await body(res)).error.code).toBe(CODE.too_many_words);
      }
    } finally {
      t.close();
    }
  });
  test("a document of 200,000 invalid records lists the first problems and counts the rest", () => {
    const records = Array.from({ length: 200_000 }, () => ({ id: "BAD ID", title: "", url: "ftp://x" }));
    let error: InvalidDocumentError | null = null;
    try {
      validateDocument(records);
    } catch (e) {
      error = e as InvalidDocumentError;
    }
    expect(error).toBeInstanceOf(InvalidDocumentError);
    expect(error?.problems).toHaveLength(MAX_PROBLEMS_LISTED);
    expect(error?.details?.total_problems).toBe(600_000);
    expect((error?.problems[0] as { index: number }).index).toBe(0);
  });
});

describe("the signed path", () => {
  test("is the path as the server reads it: dot segments resolved, percent-encoding kept", async () => {
    const t = await testApp();
    try {
      t.clock.advance(10_000);
      const send = (sendPath: string, signPath: string) => {
        const r = signedRequest("GET", "/api/cli/revert/all", { nowMs: t.clock.now(), signPath });
        return t.handle(new Request(`http://localhost${sendPath}${new URL(r.url).search}`));
      };
      expect((await send("/api/cli/x/../revert/all", "/api/cli/revert/all")).status).toBe(200);
      expect((await send("/api/cli/x/../revert/all", "/api/cli/x/../revert/all")).status).toBe(401);
      expect((await send("/api/cli/revert/%61ll", "/api/cli/revert/%61ll")).status).toBe(400); // signed as sent, then not a matter
    } finally {
      t.close();
    }
  });
});

describe("control characters", () => {
  test("a follower message with a control character XML forbids is refused at the callback's door; the same text without it is answered", async () => {
    const t = await testApp({ wechat: { token: TOKEN } });
    try {
      const now = Math.floor(T0 / 1000);
      // As a character reference in text (not CDATA, where "&#x1b;" is just those six characters).
      const referenced = textMsg("x", now).replace("<Content><![CDATA[x]]></Content>", "<Content>hi&#x1b;]0;pwned&#x07;</Content>");
      expect((await t.handle(wxPost(referenced, now))).status).toBe(400);
      expect((await t.handle(wxPost(textMsg("hi\u001b[2J", now), now))).status).toBe(400);
      expect((await t.handle(wxPost(textMsg("hi ]0;fine", now), now))).status).toBe(200);
    } finally {
      t.close();
    }
  });
  test("what the client prints is escaped: C0 but tab and newline, DEL, C1, bidi controls; JSON stays parseable", () => {
    expect(printable("a\u001b]0;x\u0007b")).toBe("a\\u001b]0;x\\u0007b");
    expect(printable("\u009b2J \u007f \u202e")).toBe("\\u009b2J \\u007f \\u202e");
    expect(printable("line\n\ttab 你好 é")).toBe("line\n\ttab 你好 é");
    expect(JSON.parse(printable(JSON.stringify({ s: "x\u009by" })))).toEqual({ s: "x\u009by" });
  });
});
