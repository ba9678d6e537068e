/**
 * Reloading accounts from the binary (issue 36 B): dist/replyd serve --config, its file edited,
 * then SIGHUP or `replyd serve --reload`, with followers writing to it all along.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { wxSignature } from "../../src/wechat/door/crypto.ts";
import { BIN, buildIfMissing, runCleanups, spawnServer, type Cleanups, type ServerProcess } from "../binary-server.ts";
import { tempDir } from "../helpers.ts";
import { TOKEN } from "../wechat/helpers.ts";

const PATH = process.env.PATH ?? "/usr/bin:/bin";
let tmp: ReturnType<typeof tempDir>;
let server: ServerProcess;
let url = "";
const cleanups: Cleanups = [];

const table = (name: string, more = "") => `[accounts.${name}]\nwx-token = "${TOKEN}"\n${more}`;
const writeConfig = (text: string, port = 0) => {
  const path = join(tmp.dir, "replyd.toml");
  writeFileSync(path, `host = "127.0.0.1"\nport = ${port}\n\n${text}`);
  chmodSync(path, 0o600);
};
const replyd = (args: string[]) => {
  const p = Bun.spawnSync([BIN, ...args], { cwd: tmp.dir, env: { PATH }, timeout: 40_000 });
  return { code: p.exitCode, out: p.stdout.toString(), err: p.stderr.toString() };
};
async function waitFor(check: () => boolean | Promise<boolean>, what: string, ms = 20_000) {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}; stdout: ${server.out()}`);
    await Bun.sleep(20);
  }
}

let sent = 0;
async function message(path: string, content: string) {
  const now = Math.floor(Date.now() / 1000);
  const timestamp = String(now);
  const nonce = String(2e9 + ++sent);
  const q = new URLSearchParams({ timestamp, nonce, signature: wxSignature(TOKEN, timestamp, nonce) });
  const xml = `<xml><ToUserName><![CDATA[gh_x]]></ToUserName><FromUserName><![CDATA[o_f]]></FromUserName><CreateTime>${now}</CreateTime><MsgType><![CDATA[text]]></MsgType><Content><![CDATA[${content}]]></Content><MsgId>${5e6 + sent}</MsgId></xml>`;
  const res = await fetch(`${url}${path}?${q}`, { method: "POST", body: xml });
  await res.arrayBuffer();
  return res.status;
}

beforeAll(async () => {
  buildIfMissing();
  tmp = tempDir("replyd-reload-bin-");
  cleanups.push(tmp.cleanup);
  writeConfig(`${table("shop")}\n${table("blog")}`);
  server = await spawnServer(["--config", "replyd.toml", "--data", "data"], { cwd: tmp.dir, cleanups, ms: 20_000, stopWith: "SIGKILL" });
  url = server.url;
});
let running = true;
afterAll(() => {
  running = false;
  return runCleanups(cleanups);
});

test("SIGHUP and serve --reload add, change and remove accounts under a follower load: no failed or doubled answer, every message logged once", async () => {
  const blogStatuses: number[] = [];
  const follower = async () => {
    while (running) blogStatuses.push(await message("/wechat/blog", `b${sent}`));
  };
  const load = [follower(), follower(), follower(), follower()];
  await waitFor(() => blogStatuses.length > 20, "the load to start");

  // SIGHUP: news added, blog changed, shop removed.
  writeConfig(`${table("blog", 'wx-appid = "wx0000000000000001"\n')}\n${table("news")}`);
  const hupAt = Date.now();
  server.proc.kill("SIGHUP");
  await waitFor(async () => (await message("/wechat/news", "n1")) === 200, "news to answer", 5000);
  expect(Date.now() - hupAt).toBeLessThan(5000);
  expect(await message("/wechat/shop", "s1")).toBe(404);
  expect(existsSync(join(tmp.dir, "data", "accounts", "shop", "replyd.db"))).toBe(true);
  await waitFor(() => server.out().includes('"event":"reloaded","added":["news"],"changed":["blog"],"removed":["shop"],"unchanged":[]'), "the reload to be logged");

  // serve --reload: blog changed again, news removed; it reports what changed.
  writeConfig(table("blog", 'wx-appid = "wx0000000000000002"\n'));
  const r = replyd(["serve", "--config", "replyd.toml", "--data", "data", "--reload"]);
  expect(r).toMatchObject({ code: 0, out: expect.stringContaining("added none; changed blog; removed news; unchanged none") });
  expect(await message("/wechat/news", "n2")).toBe(404);

  // A file that no longer parses: --reload exits 2 with the reason, signals nothing; a SIGHUP logs it. Nothing changes.
  // The broken line holds the token: it is never shown.
  writeFileSync(join(tmp.dir, "replyd.toml"), `port = 0\n[accounts.blog]\nwx-token = "${TOKEN}\n`);
  const broken = replyd(["serve", "--config", "replyd.toml", "--data", "data", "--reload"]);
  expect(broken.code).toBe(2);
  expect(broken.err).toContain("replyd.toml: line 3");
  expect(broken.err).not.toContain(TOKEN);
  server.proc.kill("SIGHUP");
  await waitFor(() => server.out().includes("reload refused, nothing changed: the settings could not be read"), "the refusal to be logged");
  expect(readFileSync(join(tmp.dir, "data", "reload.json"), "utf8")).not.toContain(TOKEN);

  // A server-wide setting changed: refused whole, exit 1, naming it.
  writeConfig(`${table("blog", 'wx-appid = "wx0000000000000002"\n')}\n${table("news")}`, 9);
  const port = replyd(["serve", "--config", "replyd.toml", "--data", "data", "--reload"]);
  expect(port.code).toBe(1);
  expect(port.err).toContain("port changed");
  expect(await message("/wechat/news", "n3")).toBe(404);

  running = false;
  await Promise.all(load);
  server.proc.kill("SIGTERM");
  await server.exited;
  expect(server.proc.exitCode).toBe(0);
  expect(blogStatuses.filter((s) => s !== 200)).toEqual([]);
  const db = new Database(join(tmp.dir, "data", "accounts", "blog", "replyd.db"), { readonly: true });
  const rows = db.query("SELECT content FROM messages").all() as { content: string }[];
  db.close();
  expect(rows.length).toBe(blogStatuses.length);
  expect(new Set(rows.map((x) => x.content)).size).toBe(rows.length);
  expect(server.out()).not.toContain(TOKEN);
});
