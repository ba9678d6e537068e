/**
 * The config file's [accounts.NAME] tables as serve resolves them (issue 36 B): each setting from
 * the account's table, else the server's; what an account may not set refused as an unknown key.
 */
import { afterAll, expect, test } from "bun:test";
import { chmodSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { resolveSettings } from "../../src/cli/settings.ts";
import { checkServeOptions } from "../../src/server/serve-checks.ts";
import { serveOpts, tempDir } from "../helpers.ts";

const tmp = tempDir("replyd-accounts-settings-");
afterAll(() => tmp.cleanup());
let n = 0;
const resolved = (text: string, env: Record<string, string> = {}, argv: string[] = []) => {
  const path = join(tmp.dir, `c${++n}.toml`);
  writeFileSync(path, text);
  chmodSync(path, 0o600);
  return resolveSettings(["--config", path, ...argv], env, tmp.dir);
};

test("without [accounts] there are none: the one account, as before", () => {
  expect(resolved(`port = 7001\n`).accounts).toBeNull();
});

test("an account takes its own values, and the server's for what it may inherit; never the server's own secrets", () => {
  const r = resolved(`ai-url = "https://api.example.com/v1"\nai-model = "m1"\nai-key = "sk-server"\nai-daily = 50\n[accounts.shop]\nwx-token = "shoptoken"\nai-model = "m2"\n[accounts.b-2]\n`);
  const [shop, b2] = r.accounts ?? [];
  expect(shop?.values).toMatchObject({ "wx-token": "shoptoken", "ai-url": "https://api.example.com/v1", "ai-model": "m2", "ai-key": "sk-server", "ai-daily": 50, "wx-mode": "safe" });
  expect(shop?.sources).toMatchObject({ "wx-token": "account", "ai-model": "account", "ai-url": "server (file)", "ai-daily": "server (file)", "wx-mode": "server (default)", "wx-appid": null });
  expect(b2?.values["wx-token"]).toBeUndefined();
  expect(b2?.values["ai-model"]).toBe("m1");
});

test("a model for some accounts only: ai-url = \"\" turns it off for one, and an account with no address anywhere takes no server key; its own key without an address is refused", () => {
  const r = resolved(`ai-url = "https://api.example.com/v1"\nai-model = "m1"\nai-key = "sk-server"\n[accounts.shop]\n[accounts.kids]\nai-url = ""\n`);
  const [shop, kids] = r.accounts ?? [];
  expect(shop?.values).toMatchObject({ "ai-url": "https://api.example.com/v1", "ai-model": "m1", "ai-key": "sk-server" });
  expect([kids?.values["ai-url"], kids?.values["ai-key"], kids?.values["ai-model"]]).toEqual([undefined, undefined, undefined]);
  expect(kids?.sources["ai-url"]).toBe("account");
  // The key for the server, the address in one account's table: the other has no model, and no refusal.
  const one = resolved(`ai-key = "sk-server"\n[accounts.shop]\nai-url = "https://api.example.com/v1"\nai-model = "m1"\n[accounts.kids]\n`);
  expect(one.accounts?.[0]?.values["ai-key"]).toBe("sk-server");
  expect(one.accounts?.[1]?.values["ai-key"]).toBeUndefined();
  // A key in the account's own table with no address is still a mistake, said as before.
  const own = resolved(`[accounts.kids]\nai-key = "sk-kids"\n`);
  expect(own.accounts?.[0]?.values["ai-key"]).toBe("sk-kids");
});

test("each value is checked by its setting's own parser, naming the setting", () => {
  expect(() => resolved(`[accounts.shop]\nai-daily = 0\n`)).toThrow("--ai-daily must be a number from 1 to 1000000");
  expect(() => resolved(`[accounts.shop]\nwx-id = "shop"\n`)).toThrow("--wx-id must be the account's original id");
});

test("what is not a table of accounts is refused: an empty [accounts], a value where a table goes, a name past 32 characters", () => {
  expect(() => resolved(`[accounts]\n`)).toThrow("[accounts] declares no account");
  expect(() => resolved(`accounts = "shop"\n`)).toThrow(`"accounts" must be tables`);
  expect(() => resolved(`[accounts]\nshop = 1\n`)).toThrow("accounts.shop must be a table");
  expect(() => resolved(`[accounts.${"a".repeat(33)}]\n`)).toThrow("an account's name is 1 to 32");
  expect(resolved(`[accounts.${"a".repeat(32)}]\n`).accounts?.[0]?.name).toBe("a".repeat(32));
  expect(() => resolved(`[accounts.shop]\nwx-path = "/x"\n`)).toThrow(`"wx-path" is not a setting in [accounts.shop]`);
});

test("an account's own setting given for the server too is refused, from a flag, the environment or the file", () => {
  const text = `[accounts.shop]\nwx-token = "shoptoken"\n`;
  expect(() => resolved(text, { REPLYD_WX_APPID: "wx1234" })).toThrow("wx-appid is set for the server (REPLYD_WX_APPID)");
  expect(() => resolved(text, {}, ["--wx-id", "gh_abc"])).toThrow("wx-id is set for the server (--wx-id)");
  expect(() => resolved(`wx-secret = "0123456789abcdef"\n${text}`)).toThrow("wx-secret is set for the server (in the config file)");
});

test("two accounts naming one official account (the same wx-appid or wx-id) are refused: their tokens would undo each other", () => {
  const opts = (a: Record<string, string>, b: Record<string, string>) =>
    serveOpts("/nonexistent", { accounts: [{ name: "one", wechat: { path: "/wechat/one", ...a } }, { name: "two", wechat: { path: "/wechat/two", ...b } }] });
  expect(() => checkServeOptions(opts({ appid: "wx1", secret: "0123456789abcdef" }, { appid: "wx1" }))).toThrow(`the accounts "one" and "two" have the same wx-appid`);
  expect(() => checkServeOptions(opts({ id: "gh_a" }, { id: "gh_a" }))).toThrow(`the accounts "one" and "two" have the same wx-id`);
  expect(checkServeOptions(opts({ appid: "wx1", id: "gh_a" }, { appid: "wx2", id: "gh_b" })).environmentKey).toBeNull();
});

test("two accounts with the same wx-token are warned of unless each has a wx-id, which tells their messages apart", () => {
  const opts = (a: Record<string, string>, b: Record<string, string>) =>
    serveOpts("/nonexistent", { accounts: [{ name: "one", wechat: { path: "/wechat/one", ...a } }, { name: "two", wechat: { path: "/wechat/two", ...b } }] });
  expect(checkServeOptions(opts({ token: "tok1" }, { token: "tok1" })).warnings).toEqual([expect.stringContaining(`the accounts "one" and "two" have the same wx-token and "one" has no wx-id`)]);
  expect(checkServeOptions(opts({ token: "tok1", id: "gh_a" }, { token: "tok1" })).warnings).toEqual([expect.stringContaining(`and "two" has no wx-id`)]);
  expect(checkServeOptions(opts({ token: "tok1", id: "gh_a" }, { token: "tok1", id: "gh_b" })).warnings).toEqual([]);
  expect(checkServeOptions(opts({ token: "tok1" }, { token: "tok2" })).warnings).toEqual([]);
});
