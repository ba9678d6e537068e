import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Param } from "../../src/sign.ts";
import { SCHEMA_VERSION } from "../../src/store/model/db.ts";
import { PG_SCHEMA_VERSION } from "../../src/store/postgres/schema.ts";
import { article, body, doc, signedRequest, testApp, TEST_STORE } from "../helpers.ts";
import { CODE } from "../../src/base/errors.ts";

let t: Awaited<ReturnType<typeof testApp>>;
beforeEach(async () => (t = await testApp()));
afterEach(() => t.close());

const call = (method: string, path: string, fields: Param[] = [], files?: { name: string; content: string }[]) => t.call(method, path, fields, files ? { files } : {});
const importDoc = (text: string, mode = "merge") => call("POST", "/api/cli", [["mode", mode]], [{ name: "json", content: text }]);

describe("GET /api/cli", () => {
  test("health reports status, version, the store and its schema, counts, database size and newest backup", async () => {
    await importDoc(doc([article(1), article(2, { deleted: true })], { tags: { news: "News" } }));
    await call("POST", "/api/cli/revert/all");
    const r = await call("GET", "/api/cli");
    expect(r.status).toBe(200);
    expect(r.data).toMatchObject({
      status: "ok",
      counts: { articles_live: 1, articles_deleted: 1, tags: 1, rules: 0, texts: 0 },
      key: { appkey: "admin1", scope: "admin" },
    });
    expect(r.data.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(r.data).toMatchObject({ store: TEST_STORE, schema: TEST_STORE === "sqlite" ? SCHEMA_VERSION : PG_SCHEMA_VERSION });
    expect(r.data.db_bytes).toBeGreaterThan(0);
    expect(r.data.newest_backup.id).toMatch(/^all-/);
  });

  test("health says whether the callback has a wx-token (without one it answers 503 to everything), and which messages it takes: plaintext, safe or compatible", async () => {
    expect((await call("GET", "/api/cli")).data.callback_configured).toBe(false);
    expect((await t.handle(new Request("http://localhost/wechat", { method: "POST", body: "<xml/>" }))).status).toBe(503);
    // A grocery's walkthrough could not tell from its laptop whether the server had taken safe mode.
    const aesKey = "abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG";
    for (const [wechat, encryption] of [
      [{ token: "tok3n" }, "plaintext"],
      [{ token: "tok3n", aesKey, appid: "wx1234567890abcdef" }, "safe"],
      [{ token: "tok3n", aesKey, appid: "wx1234567890abcdef", mode: "compatible" as const }, "compatible"],
    ] as const) {
      const app = await testApp({ wechat });
      try {
        expect((await app.call("GET", "/api/cli")).data).toMatchObject({ callback_configured: true, callback_encryption: encryption });
      } finally {
        app.close();
      }
    }
  });

  test("id, code, tag and q queries, paginated", async () => {
    await importDoc(doc([article(1, { keywords: ["alpha"] }), article(2, { tag: "tips" }), article(3), article(4, { deleted: true })]));
    expect((await call("GET", "/api/cli", [["id", "a2"]])).data.tag).toBe("tips");
    expect((await call("GET", "/api/cli", [["code", "C3"]])).data.id).toBe("a3");
    expect((await call("GET", "/api/cli", [["id", "nope"]])).status).toBe(404);
    const tag = await call("GET", "/api/cli", [["tag", "news"]]);
    expect(tag.data.items.map((a: { id: string }) => a.id)).toEqual(["a1", "a3"]);
    expect((await call("GET", "/api/cli", [["q", "ALPHA"]])).data.items.map((a: { id: string }) => a.id)).toEqual(["a1"]);
    const page = await call("GET", "/api/cli", [["q", ""], ["limit", "2"], ["offset", "1"]]);
    expect(page.data).toMatchObject({ total: 3, limit: 2, offset: 1 });
    expect(page.data.items).toHaveLength(2);
    expect((await call("GET", "/api/cli", [["q", ""], ["deleted", "only"]])).data.items.map((a: { id: string }) => a.id)).toEqual(["a4"]);
    expect((await call("GET", "/api/cli", [["q", ""], ["limit", "0"]])).status).toBe(400);
    expect((await call("GET", "/api/cli", [["bogus", "1"]])).error.code).toBe(CODE.unknown_field);
  });

  test("the list is by tag, then in code order as a tag's list shows it: codes of digits by number, then the others, those without a code last", async () => {
    const codes = ["11", null, "3", "b", "4", "A"];
    await importDoc(doc([...codes.map((code, i) => article(i + 1, { code, tag: "kids" })), article(9, { code: "2", tag: null }), article(8, { code: "1", tag: "fees" })]));
    const ids = (await call("GET", "/api/cli", [["q", ""]])).data.items.map((a: { id: string }) => a.id);
    expect(ids).toEqual(["a8", "a3", "a5", "a1", "a6", "a4", "a2", "a9"]);
  });
});

describe("POST /api/cli", () => {
  test("a lone UTF-16 surrogate is refused in every text field of a document, as control characters are; nothing is stored", async () => {
    // Written as JSON escapes, as a program that cut a string between the halves of an emoji writes them.
    const lone = "x\\ud83dy";
    const text = `{"format":"replyd/1","matter":"all","articles":[
      {"id":"s1","title":"${lone}","url":"https://example.com/1"},
      {"id":"s2","title":"t","description":"${lone}","url":"https://example.com/2"},
      {"id":"s3","title":"t","url":"https://example.com/${lone}"},
      {"id":"s4","title":"t","url":"https://example.com/4","picurl":"https://example.com/${lone}.jpg"},
      {"id":"s5","title":"t","url":"https://example.com/5","keywords":["ok","${lone}"]},
      {"id":"s6","code":"c${lone}","title":"t","url":"https://example.com/6"}],
      "tags":{"news":"${lone}"},
      "texts":{"help":"${lone}"},
      "rules":[{"id":"r1","match":"exact","pattern":"${lone}","reply":{"type":"text","text":"hi"}},{"id":"r2","match":"exact","pattern":"p","reply":{"type":"text","text":"${lone}"}}],
      "menu":{"button":[{"type":"click","name":"${lone}","key":"k"}]}}`;
    const r = await importDoc(text);
    expect({ status: r.status, code: r.error?.code }).toEqual({ status: 400, code: CODE.invalid_document });
    const fields = (r.error.problems as { section?: string; index?: number; field: string }[]).map((p) => `${p.section ?? ""}${p.index ?? ""}.${p.field}`);
    expect(fields).toEqual(["articles0.title", "articles1.description", "articles2.url", "articles3.picurl", "articles4.keywords", "articles5.code", "tags.news", "rules0.pattern", "rules1.reply.text", "texts.help", "menu.button[0].name"]);
    expect((await call("GET", "/api/cli")).data.counts).toMatchObject({ articles_live: 0, tags: 0, rules: 0, texts: 0 });
    // A pair is a character like any other.
    expect((await importDoc(doc([article(1, { title: "smile \ud83d\ude00" })]))).status).toBe(200);
  });
  test("bulk merge upserts by id, or by code when a record has none", async () => {
    const first = await importDoc(doc([article(1), article(2)]));
    expect(first.data).toMatchObject({ mode: "merge", added: 2, updated: 0, unchanged: 0, total: 2 });
    const again = await importDoc(JSON.stringify([article(1), { code: "C2", title: "Two!", url: "https://example.com/2" }, article(3)]));
    expect(again.data).toMatchObject({ added: 1, updated: 1, unchanged: 1, total: 3 });
    const a2 = t.store.articles.get("a2");
    expect(a2).toMatchObject({ title: "Two!", rev: 2 });
  });

  test("two articles may swap codes in one import", async () => {
    await importDoc(doc([article(1), article(2)]));
    const r = await importDoc(doc([article(1, { code: "c2" }), article(2, { code: "c1" })]));
    expect(r.data.updated).toBe(2);
    expect(t.store.articles.getLiveByCode("c1")?.id).toBe("a2");
  });

  test("a code already used by another live article refuses the whole document", async () => {
    await importDoc(doc([article(1)]));
    const r = await importDoc(doc([article(5), article(2, { code: "C1" })]));
    expect(r.status).toBe(400);
    expect(r.error.problems).toEqual([expect.objectContaining({ index: 1, field: "code" })]);
    expect(t.store.articles.get("a5")).toBeNull();
  });

  test("an invalid document is refused whole, every problem listed, nothing written", async () => {
    const r = await importDoc(doc([article(1), { title: "", url: "ftp://x" }, article(3, { tag: "!" })]));
    expect(r.status).toBe(400);
    expect(r.error.code).toBe(CODE.invalid_document);
    expect(r.error.total_problems).toBe(3);
    expect(t.store.articles.counts().live).toBe(0);
  });

  test("malformed JSON is 400 bad_json", async () => {
    expect((await importDoc("{oops")).error.code).toBe(CODE.bad_json);
  });

  test("mode=init replaces all articles after an automatic backup; restoring that backup brings back the exact data, revs moving on", async () => {
    await importDoc(doc([article(1), article(2), article(3, { deleted: true })], { tags: { news: "News" } }));
    await call("PUT", "/api/cli", [["id", "a1"], ["title", "Revised"]]);
    const before = [...t.store.articles.iterateAll()];
    const init = await importDoc(JSON.stringify([article(9)]), "init");
    expect(init.data).toMatchObject({ mode: "init", added: 1, removed: 3, total: 1 });
    expect([...t.store.articles.iterateAll()].map((a) => a.id)).toEqual(["a9"]);
    const backupId = init.data.backup.id as string;
    const download = await call("GET", "/api/cli/revert/articles", [["id", backupId]]);
    const restored = await call("PUT", "/api/cli/revert/articles", [], [{ name: "json", content: await download.res.text() }]);
    expect(restored.status).toBe(200);
    // Everything as it was, but a revision never repeats for an id in a store: each id continues
    // one above the rev it had when --init removed it, so a stale rev= can never match (ABA).
    expect([...t.store.articles.iterateAll()]).toEqual(before.map((a) => ({ ...a, rev: a.rev + 1 })));
    expect(t.store.content.tags()).toEqual({ news: "News" });
    expect((await call("PUT", "/api/cli", [["id", "a1"], ["title", "Stale"], ["rev", "2"]])).error.code).toBe(CODE.rev_mismatch);
  });

  test("a purged id made again continues above its old revs: a stale rev=1 does not overwrite the new article", async () => {
    await call("POST", "/api/cli", [["id", "x1"], ["title", "First"], ["url", "https://e.com/1"]]);
    await call("PUT", "/api/cli", [["id", "x1"], ["title", "First, revised"]]);
    await call("DELETE", "/api/cli", [["id", "x1"], ["purge", "1"]]);
    const again = await call("POST", "/api/cli", [["id", "x1"], ["title", "Someone else's"], ["url", "https://e.com/2"]]);
    expect(again.data.article.rev).toBe(3);
    expect((await call("PUT", "/api/cli", [["id", "x1"], ["title", "Stale"], ["rev", "1"]])).error.code).toBe(CODE.rev_mismatch);
    // Control: the current rev is accepted.
    expect((await call("PUT", "/api/cli", [["id", "x1"], ["title", "Fresh"], ["rev", "3"]])).status).toBe(200);
  });

  test("add one article; 409 when its id or code exists", async () => {
    const r = await call("POST", "/api/cli", [["code", "fv3"], ["title", "Hello, 世界"], ["url", "https://e.com/x"], ["keywords", "a, b"]]);
    expect(r.status).toBe(200);
    expect(r.data.article).toMatchObject({ id: "fv3", code: "fv3", keywords: ["a", "b"], rev: 1 });
    expect((await call("POST", "/api/cli", [["id", "fv3"], ["title", "x"], ["url", "https://e.com/"]])).error.code).toBe(CODE.id_exists);
    expect((await call("POST", "/api/cli", [["code", "FV3"], ["title", "x"], ["url", "https://e.com/"]])).error.code).toBe(CODE.code_taken);
    expect((await call("POST", "/api/cli", [["title", "x"]])).error).toMatchObject({ code: CODE.invalid_article, problems: [expect.objectContaining({ field: "url" })] });
  });

  test("uploads are spooled to the data folder's disk and leave nothing there, accepted or refused", async () => {
    const spooled = () => readdirSync(t.dir).filter((n) => n.startsWith(".replyd-upload-"));
    expect((await importDoc(doc([article(1)]))).status).toBe(200);
    expect((await importDoc("{oops")).status).toBe(400);
    // Refused by the door after the body was read: signed an hour ago.
    const stale = signedRequest("POST", "/api/cli", { files: [{ name: "json", content: doc([article(2)]) }], nowMs: t.clock.now() - 3_600_000 });
    expect((await body(await t.handle(stale))).error.code).toBe(CODE.stale_timestamp);
    expect(spooled()).toEqual([]);
    expect(t.store.articles.get("a1")).not.toBeNull();
  });

  test("an oversized body is 413 before it is read", async () => {
    const small = await testApp({ maxUpload: 1024 });
    try {
      const req = signedRequest("POST", "/api/cli", { files: [{ name: "json", content: doc([article(1, { description: "x".repeat(200) })]).repeat(1) + " ".repeat(80_000) }] });
      const res = await small.handle(req);
      expect(res.status).toBe(413);
      expect((await body(res)).error.code).toBe(CODE.too_large);
    } finally {
      small.close();
    }
  });
});

describe("PUT and DELETE /api/cli", () => {
  beforeEach(async () => void (await importDoc(doc([article(1), article(2)]))));

  test("create=0 revises only: an unknown id is 404 and nothing is made; without it an unknown id is created, as the protocol says", async () => {
    const refused = await call("PUT", "/api/cli", [["id", "a9"], ["create", "0"], ["title", "T"], ["url", "https://example.com/9"]]);
    expect([refused.status, refused.error?.code]).toEqual([404, CODE.not_found]);
    expect((await call("GET", "/api/cli", [["id", "a9"]])).status).toBe(404);
    expect((await call("PUT", "/api/cli", [["id", "a1"], ["create", "0"], ["title", "Kept"]])).data).toMatchObject({ changed: true, article: { title: "Kept" } });
    expect((await call("PUT", "/api/cli", [["id", "a9"], ["title", "T"], ["url", "https://example.com/9"]])).data).toMatchObject({ created: true });
  });

  test("revise changes only the fields sent, and bumps rev", async () => {
    const r = await call("PUT", "/api/cli", [["id", "a1"], ["title", "New"]]);
    expect(r.data).toMatchObject({ changed: true, article: { title: "New", url: "https://example.com/1", rev: 2 } });
    const same = await call("PUT", "/api/cli", [["id", "a1"], ["title", "New"]]);
    expect(same.data).toMatchObject({ changed: false, article: { rev: 2 } });
  });

  test("rev= makes it conditional: 409 when stale", async () => {
    expect((await call("PUT", "/api/cli", [["id", "a1"], ["title", "X"], ["rev", "1"]])).status).toBe(200);
    const stale = await call("PUT", "/api/cli", [["id", "a1"], ["title", "Y"], ["rev", "1"]]);
    expect(stale).toMatchObject({ status: 409, error: { code: CODE.rev_mismatch, current_rev: 2 } });
    expect(t.store.articles.get("a1")?.title).toBe("X");
  });

  test("an unknown id creates the article; a taken code is 409", async () => {
    const r = await call("PUT", "/api/cli", [["id", "new-1"], ["title", "N"], ["url", "https://e.com/n"]]);
    expect(r.data).toMatchObject({ created: true, article: { id: "new-1", rev: 1 } });
    expect((await call("PUT", "/api/cli", [["id", "a2"], ["code", "c1"]])).status).toBe(409);
    expect((await call("PUT", "/api/cli", [["title", "no id"]])).status).toBe(400);
  });

  test("DELETE soft-deletes (restorable), purge=1 removes for good, unknown id is 404, a code given for an id named as whose", async () => {
    const del = await call("DELETE", "/api/cli", [["id", "a1"]]);
    expect(del.data.article).toMatchObject({ deleted: true, rev: 2 });
    expect(t.store.articles.getLiveByCode("c1")).toBeNull();
    const back = await call("PUT", "/api/cli", [["id", "a1"], ["deleted", "0"]]);
    expect(back.data.article).toMatchObject({ deleted: false, rev: 3 });
    expect((await call("DELETE", "/api/cli", [["id", "a1"], ["purge", "1"]])).data.purged).toBe(true);
    expect(t.store.articles.get("a1")).toBeNull();
    expect((await call("DELETE", "/api/cli", [["id", "a1"]])).status).toBe(404);
    // A code given for an id is said, never taken for it: nothing deleted.
    const byCode = await call("DELETE", "/api/cli", [["id", "c2"]]);
    expect(byCode).toMatchObject({ status: 404, error: { message: 'no article with id "c2" ("c2" is the code of article "a2": replyd rm a2)' } });
    expect(t.store.articles.getLiveByCode("c2")?.id).toBe("a2");
  });
});

describe("/api/cli/revert/<matter>", () => {
  beforeEach(async () => {
    await importDoc(doc([article(1), article(2)], { tags: { news: "News" }, rules: [{ id: "r1", match: "exact", pattern: "hi", reply: { type: "text", text: "hello" } }], texts: { welcome: "Welcome!" } }));
  });

  test("POST backs up, GET lists newest first and downloads, DELETE removes", async () => {
    const b1 = await call("POST", "/api/cli/revert/articles");
    expect(b1.data).toMatchObject({ matter: "articles", kind: "manual", counts: { articles: 2, tags: 1 } });
    expect(b1.data.sha256).toMatch(/^[0-9a-f]{64}$/);
    const b2 = await call("POST", "/api/cli/revert/articles");
    const list = await call("GET", "/api/cli/revert/articles");
    expect(list.data.backups.map((b: { id: string }) => b.id)).toEqual([b2.data.id, b1.data.id]);
    const dl = await call("GET", "/api/cli/revert/articles", [["id", b1.data.id]]);
    expect(dl.res.headers.get("x-replyd-sha256")).toBe(b1.data.sha256);
    const text = await dl.res.text();
    expect(JSON.parse(text).sha256).toBe(b1.data.sha256);
    expect((await call("GET", "/api/cli/revert/rules", [["id", b1.data.id]])).status).toBe(404);
    expect((await call("DELETE", "/api/cli/revert/articles", [["id", b1.data.id]])).data.deleted).toBe(b1.data.id);
    expect((await call("DELETE", "/api/cli/revert/articles", [["id", b1.data.id]])).status).toBe(404);
  });

  test("health's newest backup follows this server's backups and removals at once (SQLite: and a file copied in within a second)", async () => {
    const health = async () => (await call("GET", "/api/cli")).data.newest_backup?.id ?? null;
    const first = await health();
    const b1 = await call("POST", "/api/cli/revert/articles");
    expect(await health()).toBe(b1.data.id);
    const b2 = await call("POST", "/api/cli/revert/rules");
    expect(await health()).toBe(b2.data.id);
    await call("DELETE", "/api/cli/revert/rules", [["id", b2.data.id]]);
    expect(await health()).toBe(b1.data.id);
    // PostgreSQL keeps backups in the database: there is no folder to copy one into.
    if (TEST_STORE !== "sqlite") return;
    // By hand: a newer backup file appears in the folder.
    const copied = b1.data.id.replace(/-\d{8}T\d{9}Z-/, "-29991231T235959999Z-");
    writeFileSync(join(t.dir, "backups", `${copied}.json`), readFileSync(join(t.dir, "backups", `${b1.data.id}.json`)));
    await Bun.sleep(1100);
    expect(await health()).toBe(copied);
    expect(first).not.toBe(copied);
  });

  test("backups are pruned to keep per matter (SQLite: written atomically, no temp file left)", async () => {
    for (let i = 0; i < 7; i++) await call("POST", "/api/cli/revert/texts");
    expect((await call("GET", "/api/cli/revert/texts")).data.backups).toHaveLength(5);
    // PostgreSQL writes a backup inside a transaction: there are no files to look at.
    if (TEST_STORE !== "sqlite") return;
    const files = readdirSync(join(t.dir, "backups"));
    expect(files.filter((f) => f.startsWith("texts-"))).toHaveLength(5);
    expect(files.filter((f) => f.endsWith(".tmp"))).toHaveLength(0);
  });

  test("PUT restores one matter from a document, after an automatic backup", async () => {
    const backup = await call("POST", "/api/cli/revert/all");
    const text = await (await call("GET", "/api/cli/revert/all", [["id", backup.data.id]])).res.text();
    await call("PUT", "/api/cli", [["id", "a1"], ["title", "Changed"]]);
    await importDoc(doc([], { rules: [{ id: "r2", match: "prefix", pattern: "x", reply: { type: "tag", tag: "news" } }], texts: { help: "Help!" } }));
    const r = await call("PUT", "/api/cli/revert/rules", [], [{ name: "json", content: text }]);
    expect(r.data).toMatchObject({ matter: "rules", rules: 1, backup: { matter: "rules", kind: "auto" } });
    expect(t.store.content.rules().map((x) => x.id)).toEqual(["r1"]);
    expect(t.store.articles.get("a1")?.title).toBe("Changed"); // only the rules were restored
    const all = await call("PUT", "/api/cli/revert/all", [], [{ name: "json", content: text }]);
    expect(all.status).toBe(200);
    expect(t.store.articles.get("a1")?.title).toBe("Article 1");
    expect(t.store.content.texts()).toEqual({ welcome: "Welcome!" });
  });

  test("PUT with id= restores a server backup", async () => {
    const backup = await call("POST", "/api/cli/revert/articles");
    await importDoc(JSON.stringify([article(7)]), "init");
    const r = await call("PUT", "/api/cli/revert/articles", [["id", backup.data.id]]);
    expect(r.data.articles).toBe(2);
    expect(t.store.articles.get("a7")).toBeNull();
  });

  test("a restore that fails validation or its checksum changes nothing", async () => {
    const backup = await call("POST", "/api/cli/revert/all");
    const text = await (await call("GET", "/api/cli/revert/all", [["id", backup.data.id]])).res.text();
    const edited = text.replace("Article 1", "Article X");
    const r = await call("PUT", "/api/cli/revert/all", [], [{ name: "json", content: edited }]);
    expect(r).toMatchObject({ status: 400, error: { code: CODE.checksum_mismatch } });
    const articlesOnly = await call("PUT", "/api/cli/revert/all", [], [{ name: "json", content: JSON.stringify([article(1)]) }]);
    expect(articlesOnly.error.code).toBe(CODE.matter_mismatch);
    expect((await call("GET", "/api/cli/revert/all")).data.backups).toHaveLength(1); // no auto backup was taken either
  });

  test("any other matter is 400 and never touches the disk", async () => {
    for (const matter of ["keys", "..%2F..%2Fetc%2Fpasswd", "ALL", "all.json"]) {
      const r = await call("GET", `/api/cli/revert/${matter}`);
      expect(r).toMatchObject({ status: 400, error: { code: CODE.bad_matter } });
      expect((await call("POST", `/api/cli/revert/${matter}`)).status).toBe(400);
    }
    expect((await call("GET", "/api/cli/revert/all")).data.backups).toEqual([]);
    // In a data folder: not a file made, nor a path outside it touched.
    if (TEST_STORE === "sqlite") expect(readdirSync(join(t.dir, "backups"))).toHaveLength(0);
  });
});
