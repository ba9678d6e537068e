/**
 * docs/recipes/follower.sh: a follower's message sent to dist/replyd's callback with sh, sha1sum and
 * curl, as the platform sends it in plain mode — the follower's side tried on a laptop, through to
 * the inbox and teach.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { BIN, buildIfMissing, runCleanups, spawnServer, type Cleanups } from "./binary-server.ts";
import { tempDir } from "./helpers.ts";

const ROOT = resolve(import.meta.dir, "..");
const TOKEN = "laptoptoken";
const ENV = { REPLYD_APPKEY: "ops", REPLYD_SECRET: "0123456789abcdef0123" };
const cleanups: Cleanups = [];
let tmp: ReturnType<typeof tempDir>;
let url = "";

const env = () => ({ PATH: process.env.PATH ?? "", REPLYD_URL: url, WX_TOKEN: TOKEN, ...ENV });
const replyd = (args: string[]) => Bun.spawnSync([BIN, ...args], { cwd: tmp.dir, env: env() });
const recipe = (text: string, extra: Record<string, string> = {}) => Bun.spawnSync(["sh", join(ROOT, "docs/recipes/follower.sh"), text], { cwd: tmp.dir, env: { ...env(), ...extra } });
const follower = (text: string) => recipe(text).stdout.toString();

beforeAll(async () => {
  buildIfMissing();
  tmp = tempDir("replyd-follower-");
  cleanups.push(tmp.cleanup);
  url = (await spawnServer(["--data", "data", "--host", "127.0.0.1", "--port", "0", "--wx-token", TOKEN], { cwd: tmp.dir, env: ENV, cleanups, ms: 15_000 })).url;
  writeFileSync(join(tmp.dir, "a.json"), JSON.stringify([{ id: "refund", code: "r1", title: "Returns and refunds", url: "https://e.com/r", body: "You can return any item within 7 days for a full refund." }]));
  expect(replyd(["import", "a.json"]).exitCode).toBe(0);
});
afterAll(() => runCleanups(cleanups));

test("the recipe's message is answered as the platform's would be, logged, and taught from the inbox", async () => {
  expect(follower("r1")).toContain("<Title><![CDATA[Returns and refunds]]></Title>");
  const asked = "can I get my money back?";
  expect(follower(asked)).toContain("Sorry, I did not understand that.");
  const inbox = JSON.parse(replyd(["inbox", "--json"]).stdout.toString()) as { items: { seq: number; content: string; from_user: string }[] };
  const entry = inbox.items.find((m) => m.content === asked);
  expect(entry?.from_user).toBe("o_try");
  expect(replyd(["teach", String(entry?.seq), "refund"]).exitCode).toBe(0);
  expect(follower(asked)).toContain("<Title><![CDATA[Returns and refunds]]></Title>");
});

test("a message the server refuses (another token) is said, with a non-zero exit", () => {
  const refused = recipe("r1", { WX_TOKEN: "nottheone" });
  expect(refused.exitCode).not.toBe(0);
  // The callback answers a bad signature 401 with no body (the platform needs no reason): curl names the status.
  expect(refused.stderr.toString()).toContain("401");
});
