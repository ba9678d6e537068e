/**
 * Issue 13 end to end: the compiled binary against the fake platform — switching an account over
 * (menu pull), menus, answering the inbox, restore --push. Each step is what an operator types.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BIN, buildIfMissing, runCleanups, spawnServer, type Cleanups, type ServerProcess } from "./binary-server.ts";
import { ADMIN, article, doc, tempDir } from "./helpers.ts";
import { startFakePlatform, type FakePlatform } from "./platform/fake.ts";
import { textMsg, TOKEN, wxPost } from "./wechat/helpers.ts";

const APPID = "wx0123456789abcdef";
const SECRET = "0123456789abcdef0123456789abcdef";
const env = { PATH: process.env.PATH ?? "", REPLYD_APPKEY: ADMIN.appkey, REPLYD_SECRET: ADMIN.secret };

let fake: FakePlatform;
let tmp: ReturnType<typeof tempDir>;
let server: ServerProcess;
let url = "";
const cleanups: Cleanups = [];

beforeAll(async () => {
  buildIfMissing();
  tmp = tempDir();
  cleanups.push(tmp.cleanup);
  fake = startFakePlatform(APPID, SECRET);
  cleanups.push(() => fake.stop());
  server = await spawnServer(
    ["--data", join(tmp.dir, "d"), "--host", "127.0.0.1", "--port", "0", "--wx-token", TOKEN, "--wx-appid", APPID, "--wx-secret", SECRET, "--wx-api", fake.url],
    { cwd: tmp.dir, env, cleanups },
  );
  url = server.url;
});
afterAll(() => runCleanups(cleanups));

const run = async (...args: string[]) => {
  const p = Bun.spawn([BIN, ...args], { env: { ...env, REPLYD_URL: url }, stdout: "pipe", stderr: "pipe", cwd: tmp.dir });
  const [code, out, err] = await Promise.all([p.exited, new Response(p.stdout).text(), new Response(p.stderr).text()]);
  return { code, out, err };
};
/** The follower writes; the platform signs it and calls the server. */
const followerWrites = async (text: string) => {
  const now = Math.floor(Date.now() / 1000);
  const req = wxPost(textMsg(text, now), now);
  const u = new URL(req.url);
  const res = await fetch(url + u.pathname + u.search, { method: "POST", body: await req.text(), headers: { "content-type": "text/xml" } });
  await res.text();
  fake.interact("o_follower");
};

test("switching over: menu pull keeps the console menu (text buttons become rules), then menu push makes it replyd's", async () => {
  fake.consoleMenu({
    button: [
      { type: "text", name: "Hours", value: "Open 9–17" },
      { name: "More", sub_button: { list: [{ type: "view", name: "Site", url: "https://example.com/" }, { type: "img", name: "Map", value: "TEMP" }] } },
    ],
  });
  const pulled = await run("menu", "pull");
  expect(pulled.code).toBe(0);
  expect(pulled.out).toContain("pulled the live menu from the platform and stored it");
  expect(pulled.out).toContain("rules added for console text buttons: menu-text-1");
  expect(pulled.out).toContain('warning: "Map" sent an image chosen in the console');
  const shown = await run("menu");
  expect(shown.out).toContain("NOT on the platform since it changed");
  expect(shown.out).toMatch(/^1 +Hours +click +replyd_menu_1$/m);
  expect(shown.out).toMatch(/^  2\.1 +Site +view +https:\/\/example\.com\/$/m);
  expect((await run("menu", "push")).code).toBe(0);
  expect(fake.menu).toMatchObject({ button: [{ type: "click", name: "Hours", key: "replyd_menu_1" }, { name: "More" }] });
  expect((await run("menu")).out).toContain("the platform has it (pushed ");
});

test("menu set FILE: checked on the laptop first (every problem, nothing sent), then pushed and stored", async () => {
  const bad = join(tmp.dir, "bad-menu.json");
  writeFileSync(bad, JSON.stringify({ button: [{ type: "click", name: "一二三四五六", key: "k" }, { type: "view", name: "v", url: "ftp://x" }] }));
  const before = fake.calls.api;
  const refused = await run("menu", "set", bad);
  expect(refused.code).toBe(1);
  expect(refused.err).toContain("button[0].name: must be at most 16 bytes");
  expect(refused.err).toContain("button[1].url: must be an absolute http(s) URL");
  expect(fake.calls.api).toBe(before);
  const good = join(tmp.dir, "menu.json");
  const menu = { button: [{ type: "click", name: "Songs", key: "SONGS" }] };
  writeFileSync(good, JSON.stringify(menu));
  const set = await run("menu", "set", good);
  expect(set.code).toBe(0);
  expect(set.out).toContain("menu pushed to the platform and stored");
  expect(set.out).toContain('warning: button[0] "Songs": no rule answers key "SONGS"');
  expect(fake.menu).toEqual(menu);
  // A domain the platform refuses: a one-line reason, nothing stored.
  fake.refuseDomain("blocked.example");
  writeFileSync(good, JSON.stringify({ button: [{ type: "view", name: "Blocked", url: "https://blocked.example/" }] }));
  const platformNo = await run("menu", "set", good);
  expect(platformNo.code).toBe(1);
  expect(platformNo.err.trim()).toBe("replyd: the platform refused the menu: the platform answered 40055: invalid button url domain; nothing was stored [platform_refused]");
  expect(fake.menu).toEqual(menu);
});

test("answering the inbox: inbox shows the window, reply sends and logs, the entry shows answered", async () => {
  await followerWrites("where is my order?");
  const inbox = await run("inbox");
  const line = inbox.out.split("\n").find((l) => l.includes("where is my order?")) as string;
  expect(line).toMatch(/open 5 until/);
  const id = (/^\s*(\d+)/.exec(line) as RegExpExecArray)[1] as string;
  // Words that look like numbers stay as typed (never coerced).
  const sent = await run("reply", id, "Order", "007", "ships", "tomorrow.");
  expect(sent.code).toBe(0);
  expect(sent.out).toContain(`sent to o_follower (text), logged as message`);
  expect(sent.out).toContain(`answering message ${id}`);
  expect(sent.out).toContain("4 more replies allowed until");
  expect(fake.sent.at(-1)).toEqual({ touser: "o_follower", msgtype: "text", text: { content: "Order 007 ships tomorrow." } });
  const after = await run("inbox", "--all");
  expect(after.out).toContain("→ sent by admin1 for " + id);
  expect(after.out.split("\n").find((l) => l.includes("where is my order?"))).toContain("answered, open 4");

  const articles = join(tmp.dir, "articles.json");
  writeFileSync(articles, doc([article(7, { code: "0070" })]));
  expect((await run("import", articles)).code).toBe(0);
  const news = await run("reply", "o_follower", "--article", "0070");
  expect(news.code).toBe(0);
  expect(fake.sent.at(-1)).toMatchObject({ msgtype: "news", news: { articles: [{ title: "Article 7" }] } });

  fake.unfollow("o_follower");
  const refused = await run("reply", "o_follower", "anyone there?");
  expect(refused.code).toBe(1);
  expect(refused.err.trim()).toBe(
    "replyd: the platform refused the reply: the platform answered 43004: require subscribe — the follower does not follow the account; nothing was sent [platform_refused]",
  );
});

test("backup menu, menu rm, restore --push: the menu comes back on the platform", async () => {
  const file = join(tmp.dir, "menu-backup.json");
  expect((await run("backup", "menu", "-o", file)).code).toBe(0);
  const saved = JSON.parse(readFileSync(file, "utf8"));
  expect(saved.menu).toEqual(fake.menu);
  const rm = await run("menu", "rm");
  expect(rm.out).toContain("the platform's menu was deleted");
  expect(fake.menu).toBeNull();
  const restored = await run("restore", file, "--yes", "--push");
  expect(restored.code).toBe(0);
  expect(restored.out).toContain("the restored menu was pushed to the platform");
  expect(fake.menu).toEqual(saved.menu);
  // The AppSecret and the access token appear nowhere in what the server printed.
  expect(server.out()).not.toContain(SECRET);
  expect(server.out()).not.toContain("tok-");
});
