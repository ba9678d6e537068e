/**
 * An app serving two accounts, shop and blog, as serve composes them: each on a data folder of its
 * own (SQLite), or with REPLYD_TEST_STORE=postgres each in its own schema of one database; keys
 * server-wide, one of them bound to shop.
 */
import { fixedClock } from "../../src/base/clock.ts";
import { accountSettings } from "../../src/account/settings.ts";
import { createApp } from "../../src/server/app.ts";
import type { Backend } from "../../src/store/backend.ts";
import { KeyRing, type AdminKey } from "../../src/store/keys.ts";
import { openAccountsServer } from "../../src/store/open.ts";
import type { Param } from "../../src/sign.ts";
import { ADMIN, body, doc, READER, signedRequest, T0, tempDir, TEST_STORE } from "../helpers.ts";
import { testDatabase } from "../pg.ts";
import { TOKEN } from "../wechat/helpers.ts";

/** An admin key that reaches shop alone. */
export const SHOP_ADMIN: AdminKey = { appkey: "shopadmin", secret: "shop-admin-secret-0123456789", scope: "admin", account: "shop" };
export const SHOP_READER: AdminKey = { appkey: "shopreader", secret: "shop-reader-secret-0123456789", scope: "read", account: "shop" };
/** What the test messages are addressed to (wechat/helpers.ts textMsg): shop's original id. */
export const SHOP_ID = "gh_account";
export const NOW = Math.floor(T0 / 1000);

export async function twoAccounts(o: { shopId?: string; blogId?: string } = {}) {
  const { dir, cleanup } = tempDir("replyd-accounts-");
  const clock = fixedClock(T0);
  const logged: string[] = [];
  const backends: Backend[] = [];
  const db = TEST_STORE === "postgres" ? await testDatabase() : null;
  const options = { clock, keep: 5, extraKeys: [], firstKey: false, logError: (m: string) => logged.push(m) };
  const server = await openAccountsServer(db?.url ?? dir, options);
  for (const name of ["shop", "blog"]) backends.push(await server.openAccount(name, options));
  const [shop, blog] = backends as [Backend, Backend];
  const settings = (name: string, id: string | undefined) =>
    accountSettings({ token: TOKEN, path: `/wechat/${name}`, ...(id !== undefined ? { id } : {}) }, undefined, name);
  const app = await createApp({
    accounts: [
      { settings: settings("shop", o.shopId), read: shop.read, write: shop.write },
      { settings: settings("blog", o.blogId), read: blog.read, write: blog.write },
    ],
    keys: new KeyRing(null, [ADMIN, READER, SHOP_ADMIN, SHOP_READER]),
    clock,
    logError: (m) => logged.push(m),
  });
  /** A signed admin request naming `account` (undefined: none), answered as JSON. */
  const call = async (method: string, path: string, account: string | undefined, extra: { fields?: Param[]; key?: AdminKey; files?: { name: string; content: string }[] } = {}) => {
    const fields: Param[] = [...(extra.fields ?? []), ...(account !== undefined ? [["account", account] as Param] : [])];
    const res = await app.handle(signedRequest(method, path, { nowMs: clock.now(), fields, ...(extra.key ? { key: extra.key } : {}), ...(extra.files ? { files: extra.files } : {}) }));
    return { status: res.status, ...(await body(res)) };
  };
  return {
    dir,
    app,
    clock,
    logged,
    shop,
    blog,
    call,
    /** Imports `articles` (and `extra` sections) into one account. */
    load: (account: string, articles: unknown[], extra: Record<string, unknown> = {}, mode = "merge") =>
      call("POST", "/api/cli", account, { fields: [["mode", mode]], files: [{ name: "json", content: doc(articles, extra) }] }),
    /** The database both accounts' schemas are in (postgres), or null. */
    db: db?.url ?? null,
    async close() {
      for (const b of backends) await b.close();
      await server.close();
      await db?.drop();
      cleanup();
    },
  };
}
