/**
 * Several accounts from the binary (issue 36 B): dist/replyd serve --config with [accounts.shop]
 * and [accounts.blog], driven by the client with --account, REPLYD_ACCOUNT and a profile, and by
 * the platform at each callback.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { chmodSync, existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BIN, buildIfMissing, keyPrinted, printedKey, runCleanups, spawnServer, type Cleanups, type ServerProcess } from "../binary-server.ts";
import { article, doc, tempDir } from "../helpers.ts";
import { textMsg, TOKEN, wxPost } from "../wechat/helpers.ts";

const PATH = process.env.PATH ?? "/usr/bin:/bin";
let tmp: ReturnType<typeof tempDir>;
let server: ServerProcess;
let env: Record<string, string>;
const cleanups: Cleanups = [];

const CONFIG = `host = "127.0.0.1"
port = 0
ai-per-follower = 4

[accounts.shop]
wx-token = "${TOKEN}"
wx-id = "gh_account"

[accounts.blog]
wx-token = "${TOKEN}"
wx-id = "gh_blog0000000"
ai-per-follower = 9
`;

async function waitFor(check: () => boolean, what: string, ms = 20_000) {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}; stdout: ${server.out()}`);
    await Bun.sleep(20);
  }
}
function replyd(args: string[], extraEnv: Record<string, string> = {}, base: Record<string, string> = env) {
  const p = Bun.spawnSync([BIN, ...args], { cwd: tmp.dir, env: { PATH, ...base, ...extraEnv }, timeout: 20_000 });
  return { code: p.exitCode, out: p.stdout.toString(), err: p.stderr.toString() };
}
const config = (name: string, text: string, mode = 0o600) => {
  const path = join(tmp.dir, name);
  writeFileSync(path, text);
  chmodSync(path, mode);
  return path;
};

beforeAll(async () => {
  buildIfMissing();
  tmp = tempDir("replyd-accounts-bin-");
  cleanups.push(tmp.cleanup);
  config("replyd.toml", CONFIG);
  server = await spawnServer(["--config", "replyd.toml", "--data", "data"], { cwd: tmp.dir, cleanups, until: keyPrinted, ms: 20_000, stopWith: "SIGKILL" });
  env = printedKey(server);
});
afterAll(() => runCleanups(cleanups));

describe("settings", () => {
  test("--check-config --json lists each account with its settings, the server's where it sets none, secrets hidden", () => {
    const r = replyd(["serve", "--config", "replyd.toml", "--check-config", "--json"], {}, {});
    expect(r.code).toBe(0);
    expect(r.out + r.err).not.toContain(TOKEN);
    const shown = JSON.parse(r.out) as { accounts: { name: string; path: string; settings: { name: string; value: unknown; source: string | null }[] }[] };
    const of = (account: string, setting: string) => shown.accounts.find((a) => a.name === account)?.settings.find((s) => s.name === setting);
    expect(shown.accounts.map((a) => [a.name, a.path])).toEqual([
      ["shop", "/wechat/shop"],
      ["blog", "/wechat/blog"],
    ]);
    expect(of("shop", "wx-token")).toMatchObject({ value: "(set, hidden)", source: "account" });
    expect(of("shop", "wx-id")).toMatchObject({ value: "gh_account", source: "account" });
    expect(of("shop", "ai-per-follower")).toMatchObject({ value: 4, source: "server (file)" });
    expect(of("blog", "ai-per-follower")).toMatchObject({ value: 9, source: "account" });
    const text = replyd(["serve", "--config", "replyd.toml", "--check-config"], {}, {});
    expect(text.out).toContain("[accounts.blog]  callback /wechat/blog");
    expect(text.out).not.toContain(TOKEN);
  });

  test("refused before anything is opened, exit 2: a bad name, a key an account may not set, a readable file with an account's secret, the server's wx-token", () => {
    const refused = (args: string[], text: string, extraEnv: Record<string, string> = {}) => {
      const r = replyd(["serve", "--data", "never", ...args, "--check-config"], extraEnv, {});
      expect({ args, code: r.code, err: r.err }).toMatchObject({ args, code: 2, err: expect.stringContaining(text) });
      expect(r.err).not.toContain(TOKEN);
      expect(existsSync(join(tmp.dir, "never"))).toBe(false);
    };
    // --redis still goes with --db, accounts or not.
    refused(["--config", "replyd.toml", "--redis", "redis://127.0.0.1:1"], "--redis joins instances that share one PostgreSQL database");
    refused(["--config", config("bad-name.toml", `[accounts.Shop]\nwx-id = "gh_a"\n`)], "[accounts.Shop]: an account's name is 1 to 32 lower-case letters");
    refused(["--config", config("bad-key.toml", `[accounts.shop]\nport = 80\n`)], `"port" is not a setting in [accounts.shop]`);
    refused(["--config", config("open.toml", `[accounts.shop]\nwx-secret = "0123456789abcdef0123"\n`, 0o644)], `holds a secret ("wx-secret" in [accounts.shop])`);
    refused(["--config", "replyd.toml"], "wx-token is set for the server (REPLYD_WX_TOKEN)", { REPLYD_WX_TOKEN: TOKEN });
    refused(["--config", config("aes.toml", `[accounts.shop]\nwx-aeskey = "${"a".repeat(43)}"\n`)], `--wx-aeskey needs --wx-appid for the account "shop"`);
  });

  test("two accounts sharing a wx-token, one without a wx-id: said by --check-config, which still passes (the secret never printed)", () => {
    const r = replyd(["serve", "--config", config("shared.toml", `[accounts.shop]\nwx-token = "${TOKEN}"\nwx-id = "gh_account"\n[accounts.blog]\nwx-token = "${TOKEN}"\n`), "--check-config"], {}, {});
    expect(r.code).toBe(0);
    expect(r.err).toContain(`replyd: warning: the accounts "shop" and "blog" have the same wx-token and "blog" has no wx-id`);
    expect(r.out + r.err).not.toContain(TOKEN);
  });
});

describe("serving", () => {
  test("each account's data in its own folder under --data/accounts, the keys at the top", () => {
    for (const name of ["shop", "blog"]) expect(existsSync(join(tmp.dir, "data", "accounts", name, "replyd.db"))).toBe(true);
    expect(existsSync(join(tmp.dir, "data", "replyd.db"))).toBe(false);
    expect(existsSync(join(tmp.dir, "data", "keys.json"))).toBe(true);
    // Every folder made the owner's alone (operations.md), the top and accounts/ as each account's.
    for (const dir of ["data", "data/accounts", "data/accounts/shop"]) expect(statSync(join(tmp.dir, dir)).mode & 0o777).toBe(0o700);
    // The first key's notice names a command that works without an account.
    expect(server.err()).toContain("  replyd accounts\n");
    expect(server.out()).toContain('"accounts":[{"name":"shop","wechat":"/wechat/shop"},{"name":"blog","wechat":"/wechat/blog"}]');
  });

  test("the client names its account by --account, REPLYD_ACCOUNT or a profile; without one it is refused account_required", () => {
    writeFileSync(join(tmp.dir, "shop.json"), doc([article(1, { code: "c1", title: "Shop returns" })]));
    const none = replyd(["health"]);
    expect(none.code).toBe(1);
    expect(none.err).toContain("[account_required]");
    const imported = replyd(["import", "shop.json", "--account", "shop"]);
    expect(imported.code).toBe(0);
    expect(imported.out).toStartWith("imported shop.json into account shop (merge): 1 added");
    expect(JSON.parse(replyd(["ls", "--json", "--account", "shop"]).out).items).toHaveLength(1);
    expect(JSON.parse(replyd(["ls", "--json"], { REPLYD_ACCOUNT: "blog" }).out).items).toHaveLength(0);
    // A change says which account it changed: every account has its own ids, codes and SEQs, and a wrong profile is otherwise unseen.
    expect(replyd(["add", "id=b9", "title=Blog post", "url=https://e.com/b9", "--account", "blog"]).out).toStartWith("added b9 in account blog (rev 1)");
    expect(replyd(["set", "b9", "title=Blog post 2"], { REPLYD_ACCOUNT: "blog" }).out).toBe("revised b9 in account blog: now rev 2\n");
    expect(replyd(["rm", "b9", "--account", "blog"]).out).toStartWith("deleted b9 in account blog (restore it with");
    expect(replyd(["rm", "b9", "--purge", "--yes", "--account", "blog"]).out).toBe("purged b9 in account blog for good\n");
    expect(replyd(["health", "--account", "nope"]).err).toContain("[unknown_account]");
    const home = join(tmp.dir, "home");
    const bare = { HOME: home };
    const add = Bun.spawnSync([BIN, "profile", "add", "shop", "--url", env.REPLYD_URL as string, "--appkey", env.REPLYD_APPKEY as string, "--account", "shop"], { cwd: tmp.dir, env: { PATH, ...bare }, stdin: Buffer.from(`${env.REPLYD_SECRET}\n`) });
    expect(add.exitCode).toBe(0);
    const h = replyd(["health", "--json"], {}, bare);
    expect(JSON.parse(h.out)).toMatchObject({ status: "ok", account: "shop", callback: "/wechat/shop", counts: { articles_live: 1 } });
    // A profile kept without an account (made before the server took several): the refusal says how to keep one in it.
    const plain = Bun.spawnSync([BIN, "profile", "add", "plain", "--url", env.REPLYD_URL as string, "--appkey", env.REPLYD_APPKEY as string], { cwd: tmp.dir, env: { PATH, ...bare }, stdin: Buffer.from(`${env.REPLYD_SECRET}\n`) });
    expect(plain.exitCode).toBe(0);
    const unnamed = replyd(["health", "--profile", "plain"], {}, bare);
    expect(unnamed.err).toContain('keep one in profile "plain": replyd profile add plain --account NAME --force [account_required]');
    expect(Bun.spawnSync([BIN, "profile", "add", "plain", "--account", "shop", "--force"], { cwd: tmp.dir, env: { PATH, ...bare }, stdin: "ignore" }).exitCode).toBe(0);
    expect(JSON.parse(replyd(["health", "--profile", "plain", "--json"], {}, bare).out)).toMatchObject({ account: "shop" });
  });

  test("a backup downloaded of one account is named for it and names it; restoring it into another asks naming both, or says so with --yes", () => {
    const b = replyd(["backup", "articles", "--account", "shop"]);
    expect(b.code).toBe(0);
    const file = readdirSync(tmp.dir).find((f) => /^replyd-shop-articles-.*\.json$/.test(f));
    expect(file).toBeDefined();
    expect(JSON.parse(readFileSync(join(tmp.dir, file as string), "utf8")).account).toBe("shop");
    // Without a terminal a restore needs --yes: the refusal names what would be replaced.
    const r = replyd(["restore", file as string, "--account", "blog"]);
    expect(r.code).not.toBe(0);
    expect(r.err).toContain(`restore replaces articles of account blog on ${env.REPLYD_URL}; pass --yes`);
    const yes = replyd(["restore", file as string, "--account", "blog", "--yes"]);
    expect(yes.code).toBe(0);
    expect(yes.err).toContain(`replyd: ${file} is a backup of account shop, not blog`);
    expect(yes.out).toContain("warning: the document is a backup of account shop; it was restored into account blog");
    const own = replyd(["restore", file as string, "--account", "shop", "--yes"]);
    expect(own.code).toBe(0);
    expect(own.err + own.out).not.toContain("backup of account");
  });

  test("replyd accounts lists both, each with its health", () => {
    const r = replyd(["accounts", "--json"], { REPLYD_ACCOUNT: "shop" });
    expect(r.code).toBe(0);
    const list = JSON.parse(r.out) as { accounts: { name: string; callback: string }[] };
    expect(list.accounts.map((a) => [a.name, a.callback])).toEqual([
      ["shop", "/wechat/shop"],
      ["blog", "/wechat/blog"],
    ]);
  });

  test("the platform at /wechat/shop gets shop's article; at /wechat/blog shop's message is refused wrong_account and logged", async () => {
    const now = Math.floor(Date.now() / 1000);
    const post = (path: string) => {
      const req = wxPost(textMsg("c1", now), now, { path });
      return fetch(env.REPLYD_URL + path + new URL(req.url).search, { method: "POST", body: textMsg("c1", now), headers: { "content-type": "text/xml" } });
    };
    const shop = await post("/wechat/shop");
    expect(shop.status).toBe(200);
    expect(await shop.text()).toContain("Shop returns");
    const blog = await post("/wechat/blog");
    expect(blog.status).toBe(403);
    await waitFor(() => server.out().includes("account blog: wechat callback refused (wrong_account)"), "the refusal's log line");
  });

  test("docs/recipes/follower.sh plays a follower of one account: its path, token and wx-id; another account's wx-id is refused with a non-zero exit; the inbox and report name the account", () => {
    const recipe = (extra: Record<string, string>) =>
      Bun.spawnSync(["sh", join(import.meta.dir, "..", "..", "docs", "recipes", "follower.sh"), "c1"], { cwd: tmp.dir, env: { PATH, REPLYD_URL: env.REPLYD_URL as string, WX_TOKEN: TOKEN, ...extra } });
    const shop = recipe({ WX_PATH: "/wechat/shop", WX_ID: "gh_account" });
    expect(shop.exitCode).toBe(0);
    expect(shop.stdout.toString()).toContain("Shop returns");
    const wrong = recipe({ WX_PATH: "/wechat/blog", WX_ID: "gh_account" });
    expect(wrong.exitCode).not.toBe(0);
    expect(wrong.stderr.toString()).toContain("403");
    // The inbox and the report say whose they are.
    const inbox = replyd(["inbox", "--all", "--account", "shop"]);
    expect(inbox.out).toMatch(/\n\d+ of \d+ \(account shop\); no follower can be answered from here/);
    expect(replyd(["report", "--account", "shop"]).out).toStartWith("replyd report of account shop: ");
  });

  test("a key made with keys add --account shop reaches shop alone: forbidden on blog and for the list", async () => {
    const made = replyd(["keys", "add", "--account", "shop", "--scope", "read", "--data", "data", "--json"]);
    expect(made.code).toBe(0);
    const key = JSON.parse(made.out) as { appkey: string; secret: string; account: string };
    expect(key.account).toBe("shop");
    expect(made.err).not.toContain("holds no account");
    // A name the data folder holds no account of (a typo, or one not declared yet): made, with a warning.
    const typo = replyd(["keys", "add", "--account", "shpo", "--scope", "read", "--data", "data", "--json"]);
    expect(typo.code).toBe(0);
    expect(typo.err).toContain('this data folder holds no account "shpo" yet');
    expect(replyd(["keys", "rm", (JSON.parse(typo.out) as { appkey: string }).appkey, "--data", "data"]).code).toBe(0);
    expect(replyd(["keys", "ls", "--data", "data"]).out).toContain(`${key.appkey}  read`);
    const as = { REPLYD_APPKEY: key.appkey, REPLYD_SECRET: key.secret };
    // keys.json is read again within a second.
    await waitFor(() => replyd(["health"], { ...as, REPLYD_ACCOUNT: "shop" }).code === 0, "the new key to be taken", 5000);
    for (const args of [["health"], ["ls"], ["backups"]]) {
      const r = replyd([...args, "--account", "blog"], as);
      expect({ args, code: r.code, err: r.err }).toMatchObject({ args, code: 1, err: expect.stringContaining("[forbidden]") });
    }
    expect(replyd(["accounts"], as).err).toContain("[forbidden]");
    expect(replyd(["keys", "add", "--account", "Shop", "--data", "data"]).code).toBe(2);
  });

  test("replyd sign adds the account (REPLYD_ACCOUNT) to what it signs, for curl and other tools", async () => {
    const r = replyd(["sign", "GET", "/api/cli"], { REPLYD_ACCOUNT: "blog" });
    expect(r.code).toBe(0);
    expect(r.out).toContain("account=blog");
    expect(replyd(["sign", "GET", "/api/cli", "--account", "shop"]).out).toContain("account=shop");
    const res = await fetch(`${env.REPLYD_URL}/api/cli?${r.out.trim()}`);
    expect(((await res.json()) as { data: { account: string } }).data.account).toBe("blog");
  });

  test("SIGTERM stops every account cleanly", async () => {
    server.proc.kill("SIGTERM");
    expect(await server.exited).toBe(0);
    expect(server.out()).toContain('"event":"stopped","account":"shop"');
    expect(server.out()).toContain('"event":"stopped","account":"blog"');
  });
});
