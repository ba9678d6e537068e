/**
 * The admin API of a server with several accounts (issue 36 B): every request names its account
 * with the signed field account=NAME, and acts on that account alone.
 */
import { afterEach, beforeEach, expect, test } from "bun:test";
import { CODE } from "../../src/base/errors.ts";
import { KeyRing } from "../../src/store/keys.ts";
import { ADMIN, article, READER, signedRequest, body, testApp } from "../helpers.ts";
import { SHOP_ADMIN, SHOP_READER, twoAccounts } from "./harness.ts";

let t: Awaited<ReturnType<typeof twoAccounts>>;
beforeEach(async () => {
  t = await twoAccounts();
  expect((await t.load("shop", [article(1, { title: "Shop returns" })])).status).toBe(200);
  expect((await t.load("blog", [article(2, { title: "Blog post" })])).status).toBe(200);
});
afterEach(() => t.close());

test("a request naming no account is refused account_required, health and listings included, whatever the key", async () => {
  for (const [method, path, fields] of [
    ["GET", "/api/cli", []],
    ["GET", "/api/cli", [["q", ""]]],
    ["GET", "/api/cli/menu", []],
    ["GET", "/api/cli/revert/all", []],
    ["POST", "/api/cli/revert/all", []],
  ] as const)
    for (const key of [ADMIN, READER]) {
      if (key === READER && method !== "GET") continue;
      const r = await t.call(method, path, undefined, { fields: [...fields], key });
      expect({ path, status: r.status, code: r.error?.code }).toEqual({ path, status: 400, code: CODE.account_required });
    }
});

test("an account no one declared is unknown_account (404), nothing done", async () => {
  const r = await t.call("POST", "/api/cli/revert/all", "nope");
  expect([r.status, r.error.code]).toEqual([404, CODE.unknown_account]);
  expect((await t.call("GET", "/api/cli/revert/all", "shop")).data.backups).toHaveLength(0);
  expect((await t.call("GET", "/api/cli/revert/all", "blog")).data.backups).toHaveLength(0);
});

test("a report and the inbox name the account they are of", async () => {
  expect((await t.call("GET", "/api/cli/report", "blog")).data.account).toBe("blog");
  expect((await t.call("GET", "/api/cli", "shop", { fields: [["inbox", "all"]] })).data.account).toBe("shop");
  expect((await t.call("GET", "/api/cli", "blog", { fields: [["inbox", "ai"]] })).data.account).toBe("blog");
});

test("listings and health are the named account's alone", async () => {
  const shopList = await t.call("GET", "/api/cli", "shop", { fields: [["q", ""]] });
  expect(shopList.data.items.map((a: { id: string }) => a.id)).toEqual(["a1"]);
  const blogList = await t.call("GET", "/api/cli", "blog", { fields: [["q", ""]] });
  expect(blogList.data.items.map((a: { id: string }) => a.id)).toEqual(["a2"]);
  const health = await t.call("GET", "/api/cli", "blog");
  expect([health.data.account, health.data.callback, health.data.counts.articles_live]).toEqual(["blog", "/wechat/blog", 1]);
});

test("health's db_bytes is the named account's data: a large import into shop grows shop's, not blog's", async () => {
  const blogBefore = (await t.call("GET", "/api/cli", "blog")).data.db_bytes as number;
  // Words that do not compress away: about 1.5 MB of bodies.
  const words = (n: number) => Array.from({ length: 300 }, (_, i) => ((n * 7919 + i * 104729) % 1_000_003).toString(36)).join(" ");
  expect((await t.load("shop", Array.from({ length: 600 }, (_, i) => article(i + 10, { body: words(i) })))).status).toBe(200);
  // The database's sizes are looked up once a second at most.
  await Bun.sleep(1100);
  const shop = (await t.call("GET", "/api/cli", "shop")).data.db_bytes as number;
  const blog = (await t.call("GET", "/api/cli", "blog")).data.db_bytes as number;
  expect(shop - blog).toBeGreaterThan(1_000_000);
  expect(blog - blogBefore).toBeLessThan(200_000);
});

test("a key bound to shop is forbidden on blog for every route, read or write, and does not learn whether an account exists", async () => {
  const routes: [string, string, [string, string][]][] = [
    ["GET", "/api/cli", []],
    ["GET", "/api/cli", [["q", ""]]],
    ["GET", "/api/cli", [["id", "a2"]]],
    ["GET", "/api/cli/ask", [["q", "post"]]],
    ["GET", "/api/cli/menu", []],
    ["GET", "/api/cli/synonyms", []],
    ["GET", "/api/cli/revert/all", []],
    ["GET", "/api/cli/token", []],
    ["POST", "/api/cli", [["id", "b9"], ["code", "b9"], ["title", "x"], ["url", "https://example.com/9"]]],
    ["PUT", "/api/cli", [["id", "a2"], ["title", "changed"]]],
    ["DELETE", "/api/cli", [["id", "a2"]]],
    ["POST", "/api/cli/revert/all", []],
    ["DELETE", "/api/cli/menu", []],
  ];
  for (const [method, path, fields] of routes)
    for (const account of ["blog", "nope"]) {
      const r = await t.call(method, path, account, { fields, key: SHOP_ADMIN });
      expect({ method, path, account, status: r.status, code: r.error?.code }).toEqual({ method, path, account, status: 403, code: CODE.forbidden });
    }
  // Nothing of blog's changed; shop's key works on shop.
  const blog = await t.call("GET", "/api/cli", "blog", { fields: [["q", ""]] });
  expect(blog.data.items.map((a: { id: string; title: string }) => [a.id, a.title])).toEqual([["a2", "Blog post"]]);
  expect((await t.call("GET", "/api/cli/revert/all", "blog")).data.backups).toHaveLength(0);
  expect((await t.call("PUT", "/api/cli", "shop", { fields: [["id", "a1"], ["title", "changed"]], key: SHOP_ADMIN })).status).toBe(200);
  // Its scope still holds within its account.
  expect((await t.call("PUT", "/api/cli", "shop", { fields: [["id", "a1"], ["title", "again"]], key: SHOP_READER })).status).toBe(403);
});

test("the account field is signed: changed on the way, the signature fails and nothing is done", async () => {
  const req = signedRequest("DELETE", "/api/cli", {
    nowMs: t.clock.now(),
    fields: [["id", "a2"], ["account", "shop"]],
    tamper: (params) => params.map(([k, v]) => (k === "account" ? [k, "blog"] : [k, v])),
  });
  const res = await t.app.handle(req);
  expect([res.status, (await body(res)).error.code]).toEqual([401, CODE.bad_signature]);
  const blog = await t.call("GET", "/api/cli", "blog", { fields: [["id", "a2"]] });
  expect(blog.data.deleted).toBeFalsy();
  // An account field added after signing fails too.
  const added = signedRequest("GET", "/api/cli", { nowMs: t.clock.now(), tamper: (params) => [["account", "blog"], ...params] });
  expect((await t.app.handle(added)).status).toBe(401);
});

test("replyd accounts lists every account with its health, for a key of every account only", async () => {
  const r = await t.call("GET", "/api/cli/accounts", undefined, { key: READER });
  expect(r.data.accounts.map((a: { name: string; callback: string; counts: { articles_live: number } }) => [a.name, a.callback, a.counts.articles_live])).toEqual([
    ["shop", "/wechat/shop", 1],
    ["blog", "/wechat/blog", 1],
  ]);
  expect(r.data.accounts.map((a: { search_index: string; passage_index: string; callback_configured: boolean }) => [a.search_index, a.passage_index, a.callback_configured])).toEqual([
    ["ready", "ready", true],
    ["ready", "ready", true],
  ]);
  const bound = await t.call("GET", "/api/cli/accounts", undefined, { key: SHOP_ADMIN });
  expect([bound.status, bound.error.code]).toEqual([403, CODE.forbidden]);
});

test("an import --init, a backup and a restore of shop leave blog as it was", async () => {
  expect((await t.load("shop", [article(5)], {}, "init")).status).toBe(200);
  const taken = await t.call("POST", "/api/cli/revert/all", "shop");
  expect(taken.status).toBe(200);
  const restored = await t.call("PUT", "/api/cli/revert/all", "shop", { fields: [["id", taken.data.id]] });
  expect(restored.status).toBe(200);
  const blog = await t.call("GET", "/api/cli", "blog", { fields: [["q", ""]] });
  expect(blog.data.items.map((a: { id: string }) => a.id)).toEqual(["a2"]);
  // shop's backups (the --init's automatic one, the one taken, the restore's) are shop's: blog has none.
  expect((await t.call("GET", "/api/cli/revert/all", "shop")).data.backups.length).toBeGreaterThanOrEqual(2);
  expect((await t.call("GET", "/api/cli/revert/all", "blog")).data.backups).toHaveLength(0);
});

test("a backup names the account it was taken of; restored into another account it is restored, and said", async () => {
  const taken = await t.call("POST", "/api/cli/revert/all", "shop");
  const res = await t.app.handle(signedRequest("GET", "/api/cli/revert/all", { nowMs: t.clock.now(), fields: [["account", "shop"], ["id", taken.data.id]] }));
  const text = await res.text();
  // Named before the sections, under the document's checksum.
  expect(text).toStartWith(`{"format":"replyd/1","matter":"all","created_at":${JSON.stringify(taken.data.created_at)},"account":"shop","articles":`);
  const own = await t.call("PUT", "/api/cli/revert/all", "shop", { files: [{ name: "json", content: text }] });
  expect(own.status).toBe(200);
  expect(own.data.warnings.join("\n")).not.toContain("backup of account");
  const elsewhere = await t.call("PUT", "/api/cli/revert/all", "blog", { files: [{ name: "json", content: text }] });
  expect(elsewhere.status).toBe(200);
  expect(elsewhere.data.warnings).toContain("the document is a backup of account shop; it was restored into account blog");
  // Imported (a merge, what the wrong profile does most), it is said too.
  const merged = await t.call("POST", "/api/cli", "blog", { fields: [["mode", "merge"]], files: [{ name: "json", content: text }] });
  expect(merged.status).toBe(200);
  expect(merged.data.warnings).toContain("the document is a backup of account shop; it was imported into account blog");
  expect((await t.call("POST", "/api/cli", "shop", { fields: [["mode", "merge"]], files: [{ name: "json", content: text }] })).data.warnings.join("\n")).not.toContain("backup of account");
  const blog = await t.call("GET", "/api/cli", "blog", { fields: [["q", ""]] });
  expect(blog.data.items.map((a: { id: string }) => a.id)).toEqual(["a1"]);
  // blog's own backups name blog.
  const blogs = await t.call("POST", "/api/cli/revert/all", "blog");
  const blogText = await (await t.app.handle(signedRequest("GET", "/api/cli/revert/all", { nowMs: t.clock.now(), fields: [["account", "blog"], ["id", blogs.data.id]] }))).text();
  expect(blogText).toContain(',"account":"blog",');
});

test("a picture uploaded to shop is served at /media/shop/ from shop's folder alone, and at the bare /media/ from the account that holds it", async () => {
  const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4]);
  const res = await t.app.handle(signedRequest("POST", "/api/cli", { nowMs: t.clock.now(), fields: [["account", "shop"]], files: [{ name: "media", content: PNG, filename: "p.png" }] }));
  const url = (await body(res)).data.url as string;
  expect(url).toMatch(/^http:\/\/localhost\/media\/shop\/[0-9a-f]{32}\.png$/);
  const name = url.slice(url.lastIndexOf("/") + 1);
  const shop = await t.app.handle(new Request(url));
  expect(shop.status).toBe(200);
  expect(new Uint8Array(await shop.arrayBuffer())).toEqual(PNG);
  expect(shop.headers.get("x-content-type-options")).toBe("nosniff");
  expect((await t.app.handle(new Request(`http://localhost/media/blog/${name}`))).status).toBe(404);
  // What a folder moved under an account (docs/operations.md) has its articles name: the account holding it serves it.
  const bare = await t.app.handle(new Request(`http://localhost/media/${name}`));
  expect(bare.status).toBe(200);
  expect(new Uint8Array(await bare.arrayBuffer())).toEqual(PNG);
  expect(bare.headers.get("x-content-type-options")).toBe("nosniff");
  expect((await t.app.handle(new Request(`http://localhost/media/${name.replace(/^./, (c) => (c === "0" ? "1" : "0"))}`))).status).toBe(404);
  for (const path of ["/media/shop/..%2f..%2fkeys.json", "/media/shop/%2e%2e/replyd.db", "/media/shop", "/media/shop/"])
    expect({ path, status: (await t.app.handle(new Request(`http://localhost${path}`))).status }).toEqual({ path, status: 404 });
});

test("a server without [accounts]: account=default or none is its one account, any other name unknown_account, a key bound elsewhere forbidden", async () => {
  const one = await testApp({ keys: new KeyRing(null, [ADMIN, SHOP_ADMIN]) });
  try {
    const ask = async (fields: [string, string][], key = ADMIN) => {
      const res = await one.handle(signedRequest("GET", "/api/cli", { nowMs: one.clock.now(), fields, key }));
      return { status: res.status, ...(await body(res)) };
    };
    expect((await ask([])).data.account).toBe("default");
    expect((await ask([["account", "default"]])).data.callback).toBe("/wechat");
    expect((await ask([["account", "shop"]])).error.code).toBe(CODE.unknown_account);
    expect((await ask([], SHOP_ADMIN)).error.code).toBe(CODE.forbidden);
    const list = await one.handle(signedRequest("GET", "/api/cli/accounts", { nowMs: one.clock.now() }));
    // Started without a wx-token: its callback answers 503, and the list says so.
    expect((await body(list)).data.accounts.map((a: { name: string; callback_configured: boolean }) => [a.name, a.callback_configured])).toEqual([["default", false]]);
    // Its backups name no account: a document as every earlier version wrote it.
    const taken = await body(await one.handle(signedRequest("POST", "/api/cli/revert/all", { nowMs: one.clock.now() })));
    const text = await (await one.handle(signedRequest("GET", "/api/cli/revert/all", { nowMs: one.clock.now(), fields: [["id", taken.data.id]] }))).text();
    expect(text).toStartWith(`{"format":"replyd/1","matter":"all","created_at":${JSON.stringify(taken.data.created_at)},"articles":`);
  } finally {
    one.close();
  }
});
