/** Article bodies through the admin interface, on each store: one article, listings, documents. */
import { afterEach, beforeEach, expect, test } from "bun:test";
import fc from "fast-check";
import { bodyText } from "../../src/article/body-text.ts";
import type { Param } from "../../src/sign.ts";
import { CODE } from "../../src/base/errors.ts";
import { article, doc, signedRequest, testApp } from "../helpers.ts";
import { htmlArb } from "../property/arbitraries.ts";

let t: Awaited<ReturnType<typeof testApp>>;
beforeEach(async () => (t = await testApp()));
afterEach(() => t.close());

type Part = { name: string; content: string | Uint8Array; filename?: string };
const call = (method: string, path: string, fields: Param[] = [], files?: Part[]) =>
  t.call(method, path, fields, files ? { files } : {});
const importDoc = (text: string, mode = "merge") => call("POST", "/api/cli", [["mode", mode]], [{ name: "json", content: text }]);
const bodyPart = (content: string | Uint8Array): Part => ({ name: "body", content, filename: "body.html" });

const HTML = "<h2>退款</h2><p>七天内可以申请退款&amp;退货。</p><p>运费由买家承担。</p>";
const TEXT = "退款\n\n七天内可以申请退款&退货。\n\n运费由买家承担。";

test("add takes a body as a part, reduced to text; show sends it, listings do not", async () => {
  const r = await call("POST", "/api/cli", [["id", "refund"], ["title", "Refunds"], ["url", "https://e.com/r"], ["tag", "help"]], [bodyPart(HTML)]);
  expect(r.status).toBe(200);
  expect(r.data.article.body).toBe(TEXT);
  expect((await call("GET", "/api/cli", [["id", "refund"]])).data.body).toBe(TEXT);
  for (const listing of [[["tag", "help"]], [["q", "Refunds"]], [["q", ""]]] as Param[][]) {
    const items = (await call("GET", "/api/cli", listing)).data.items;
    expect(items.map((a: { id: string }) => a.id)).toEqual(["refund"]);
    expect(items[0]).not.toHaveProperty("body");
    expect(items[0]).toMatchObject({ title: "Refunds", rev: 1 });
  }
});

test("set changes the body alone (a new rev); the same body again changes nothing; a short body may be a form field", async () => {
  await call("POST", "/api/cli", [["id", "x"], ["title", "X"], ["url", "https://e.com/x"]]);
  expect((await call("GET", "/api/cli", [["id", "x"]])).data.body).toBe("");
  let r = await call("PUT", "/api/cli", [["id", "x"]], [bodyPart("first text")]);
  expect(r.data).toMatchObject({ changed: true, article: { rev: 2, body: "first text", title: "X" } });
  r = await call("PUT", "/api/cli", [["id", "x"]], [bodyPart("<p>first text</p>")]);
  expect(r.data).toMatchObject({ changed: false, article: { rev: 2 } });
  r = await call("PUT", "/api/cli", [["id", "x"], ["body", "second"]]);
  expect(r.data).toMatchObject({ changed: true, article: { rev: 3, body: "second" } });
});

test("a body as a field and as a part at once, a part that is not UTF-8, a part of another name: each refused, nothing written", async () => {
  const fields: Param[] = [["id", "y"], ["title", "Y"], ["url", "https://e.com/y"]];
  let r = await call("POST", "/api/cli", [...fields, ["body", "a"]], [bodyPart("b")]);
  expect(r).toMatchObject({ status: 400, error: { code: CODE.repeated_field } });
  r = await call("POST", "/api/cli", fields, [bodyPart(new Uint8Array([0x66, 0xff, 0xfe]))]);
  expect(r).toMatchObject({ status: 400, error: { code: CODE.bad_request } });
  expect(r.error.message).toContain("not UTF-8");
  r = await call("PUT", "/api/cli", fields, [{ name: "picurl", content: "https://e.com/p.png" }]);
  expect(r).toMatchObject({ status: 400, error: { code: CODE.bad_request } });
  expect(r.error.message).toContain("unexpected file part: picurl");
  expect((await call("GET", "/api/cli", [["id", "y"]])).status).toBe(404);
});

test("a body part over 1 MiB is refused as too large; at 1 MiB it is read, and its text judged by the 64 KiB limit", async () => {
  const fields: Param[] = [["id", "z"], ["title", "Z"], ["url", "https://e.com/z"]];
  const mib = 1024 * 1024;
  // 1 MiB of markup around 60,000 bytes of words: taken.
  const words = "w".repeat(60_000);
  const padded = `<p>${words}</p><!--${"c".repeat(mib - words.length - 14)}-->`;
  expect(padded.length).toBe(mib);
  let r = await call("POST", "/api/cli", fields, [bodyPart(padded)]);
  expect(r.status).toBe(200);
  expect(r.data.article.body).toBe(words);
  r = await call("PUT", "/api/cli", [["id", "z"]], [bodyPart(padded + " ")]);
  expect(r).toMatchObject({ status: 413, error: { code: CODE.too_large } });
  // Under 1 MiB but more than 64 KiB of text: the article is invalid, with the body named.
  r = await call("PUT", "/api/cli", [["id", "z"]], [bodyPart("x".repeat(64 * 1024 + 1))]);
  expect(r).toMatchObject({ status: 400, error: { code: CODE.invalid_article } });
  expect(JSON.stringify(r.error)).toContain("body");
  expect((await call("GET", "/api/cli", [["id", "z"]])).data).toMatchObject({ rev: 1, body: words });
});

test("bodies travel through documents: import, backup, restore (into an emptied store), byte for byte", async () => {
  const bodies = { a1: TEXT, a2: "line one\nline two\ttabbed", a3: "" };
  let r = await importDoc(doc([article(1, { body: HTML }), article(2, { body: bodies.a2 }), article(3)]));
  expect(r.data).toMatchObject({ added: 3 });
  // The same document again: the HTML reduces to the same text, nothing changes.
  r = await importDoc(doc([article(1, { body: HTML }), article(2, { body: bodies.a2 }), article(3)]));
  expect(r.data).toMatchObject({ unchanged: 3 });
  const backup = await call("POST", "/api/cli/revert/all");
  expect(backup.status).toBe(200);
  t.clock.advance(1);
  const res = await t.handle(signedRequest("GET", "/api/cli/revert/all", { fields: [["id", backup.data.id]], nowMs: t.clock.now() }));
  const text = await res.text();
  const saved = JSON.parse(text);
  expect(Object.fromEntries(saved.articles.map((a: { id: string; body: string }) => [a.id, a.body]))).toEqual(bodies);
  // Emptied, then restored from the downloaded document.
  await importDoc(doc([article(9)]), "init");
  expect((await call("GET", "/api/cli", [["id", "a1"]])).status).toBe(404);
  r = await call("PUT", "/api/cli/revert/all", [], [{ name: "json", content: text }]);
  expect(r.status).toBe(200);
  for (const [id, b] of Object.entries(bodies)) expect((await call("GET", "/api/cli", [["id", id]])).data.body).toBe(b);
});

test("generated bodies (HTML with references, hidden elements, nesting) imported, backed up and restored keep every byte; the backup imported again changes nothing", async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(htmlArb, { minLength: 1, maxLength: 6 }), async (bodies) => {
      const kept = bodies.map(bodyText);
      expect((await importDoc(doc(bodies.map((b, i) => article(i, { body: b }))), "init")).status).toBe(200);
      const backup = await call("POST", "/api/cli/revert/all");
      t.clock.advance(1);
      const text = await (await t.handle(signedRequest("GET", "/api/cli/revert/all", { fields: [["id", backup.data.id]], nowMs: t.clock.now() }))).text();
      expect(JSON.parse(text).articles.map((a: { body: string }) => a.body)).toEqual(kept);
      expect((await call("PUT", "/api/cli/revert/all", [], [{ name: "json", content: text }])).status).toBe(200);
      for (let i = 0; i < bodies.length; i++) expect((await call("GET", "/api/cli", [["id", `a${i}`]])).data.body).toBe(kept[i] as string);
      expect((await importDoc(text)).data).toMatchObject({ unchanged: bodies.length, updated: 0 });
    }),
    { numRuns: 60 },
  );
});

test("a document with a body past 64 KiB is refused whole, naming the record and the field", async () => {
  const r = await importDoc(doc([article(1), article(2, { body: "退".repeat(22_000) })]));
  expect(r).toMatchObject({ status: 400, error: { code: CODE.invalid_document } });
  expect(JSON.stringify(r.error)).toMatch(/"index":1,"field":"body"/);
  expect((await call("GET", "/api/cli", [["id", "a1"]])).status).toBe(404);
});

test("health's database size counts bodies", async () => {
  const before = (await call("GET", "/api/cli")).data.db_bytes;
  // Text that does not compress (PostgreSQL compresses long values): 40 bodies of 40,000 random characters.
  const random = () => Buffer.from(crypto.getRandomValues(new Uint8Array(30_000))).toString("base64");
  await importDoc(doc(Array.from({ length: 40 }, (_, i) => article(i + 1, { body: random() }))));
  await Bun.sleep(1100); // health looks the size up once a second at most
  const after = (await call("GET", "/api/cli")).data.db_bytes;
  expect(after - before).toBeGreaterThan(40 * 40_000 * 0.8);
});
