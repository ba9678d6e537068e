import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { body, signedRequest, testApp } from "../helpers.ts";
import { CODE } from "../../src/base/errors.ts";

let t: Awaited<ReturnType<typeof testApp>>;
beforeEach(async () => (t = await testApp({ maxMedia: 64 * 1024 })));
afterEach(() => t.close());

// A 1×1 PNG.
const PNG = Uint8Array.from(
  atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="),
  (c) => c.charCodeAt(0),
);

const upload = async (content: Uint8Array | string, name = "cover.png") => {
  t.clock.advance(1);
  const res = await t.handle(signedRequest("POST", "/api/cli", { files: [{ name: "media", content, filename: name }], nowMs: t.clock.now() }));
  return { status: res.status, ...(await body(res)) };
};

describe("media upload (signed) and serving (/media/*)", () => {
  test("an image is stored under a content-derived name and served with ETag and Last-Modified", async () => {
    const r = await upload(PNG);
    expect(r.status).toBe(200);
    expect(r.data).toMatchObject({ type: "image/png", size: PNG.length, existed: false });
    expect(r.data.url).toMatch(/^http:\/\/localhost\/media\/[0-9a-f]{32}\.png$/);
    expect((await upload(PNG, "again.png")).data).toMatchObject({ name: r.data.name, existed: true });

    const res = await t.handle(new Request(r.data.url));
    expect(res.status).toBe(200);
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(PNG);
    expect(res.headers.get("content-type")).toContain("image/png");
    const etag = res.headers.get("etag");
    expect(etag).toBeTruthy();
    expect(res.headers.get("last-modified")).toMatch(/GMT$/);
    const cached = await t.handle(new Request(r.data.url, { headers: { "if-none-match": etag as string } }));
    expect(cached.status).toBe(304);
    const since = await t.handle(new Request(r.data.url, { headers: { "if-modified-since": res.headers.get("last-modified") as string } }));
    expect(since.status).toBe(304);
    const changed = await t.handle(new Request(r.data.url, { headers: { "if-none-match": '"other"' } }));
    expect(changed.status).toBe(200);
  });

  test("a public URL flag sets the address in answers, and says so (public); without it, public is false", async () => {
    expect((await upload(PNG)).data.public).toBe(false);
    const pub = await testApp({ publicUrl: "https://cdn.example.com/" });
    try {
      const res = await pub.handle(signedRequest("POST", "/api/cli", { files: [{ name: "media", content: PNG }] }));
      const data = (await body(res)).data;
      expect(data.url).toStartWith("https://cdn.example.com/media/");
      expect(data.public).toBe(true);
    } finally {
      pub.close();
    }
  });

  test("only images, by content: a script renamed .png is refused; over the limit is 413", async () => {
    expect(await upload("<script>alert(1)</script>", "evil.png")).toMatchObject({ status: 400, error: { code: CODE.bad_media } });
    const big = new Uint8Array(70 * 1024);
    big.set(PNG.subarray(0, 8));
    expect((await upload(big)).status).toBe(413);
    expect(readdirSync(join(t.dir, "media"))).toHaveLength(0);
  });

  test("an upload needs a valid signature", async () => {
    const res = await t.handle(signedRequest("POST", "/api/cli", { files: [{ name: "media", content: PNG }], swapFiles: { media: "x" } }));
    expect(res.status).toBe(401);
  });

  test("no path escape, no dotfiles, no directory listing", async () => {
    writeFileSync(join(t.dir, "media", ".secret"), "hidden");
    writeFileSync(join(t.dir, "media", "logo.png"), "operator file");
    expect((await t.handle(new Request("http://localhost/media/logo.png"))).status).toBe(200);
    for (const path of [
      "/media/..%2fkeys.json",
      "/media/%2e%2e/replyd.db",
      "/media/..%2F..%2Fetc%2Fpasswd",
      "/media/.secret",
      "/media/%2esecret",
      "/media/",
      "/media/sub/..%5c..%5creplyd.db",
      "/media/a%00.png",
    ]) {
      const res = await t.handle(new Request("http://localhost" + path));
      expect({ path, status: res.status }).toEqual({ path, status: 404 });
    }
    const post = await t.handle(new Request("http://localhost/media/logo.png", { method: "POST", body: "x" }));
    expect(post.status).toBe(404);
  });
});
