/** A restore that removes the stored menu says so before (at the question, or on stderr with --yes) and after (issue 35 D). */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { run } from "../../src/cli/index.ts";
import { startServer, type RunningServer } from "../../src/server/serve.ts";
import { ADMIN, ADMIN_ENV, captureIO, serveOpts, tempDir } from "../helpers.ts";

let tmp: ReturnType<typeof tempDir>;
let server: RunningServer;
beforeAll(async () => {
  tmp = tempDir("replyd-restore-menu-");
  server = await startServer(serveOpts(join(tmp.dir, "data"), { env: ADMIN_ENV }));
});
afterAll(async () => {
  await server.stop();
  tmp.cleanup();
});
const client = () => captureIO({ REPLYD_URL: server.url, REPLYD_APPKEY: ADMIN.appkey, REPLYD_SECRET: ADMIN.secret }, tmp.dir);

test("restoring an all document whose menu is null removes the stored menu, and says so before and after", async () => {
  const menu = { button: [{ type: "click", name: "Help", key: "HELP" }] };
  writeFileSync(join(tmp.dir, "menu.json"), JSON.stringify({ format: "replyd/1", matter: "menu", created_at: "2026-11-25T10:00:00.000Z", menu }));
  expect(await run(["menu", "set", "menu.json", "--no-push"], client())).toBe(0);
  writeFileSync(join(tmp.dir, "all.json"), JSON.stringify({ format: "replyd/1", matter: "all", created_at: "2026-11-25T10:00:00.000Z", articles: [], tags: {}, rules: [], texts: {}, menu: null }));
  const io = client();
  expect(await run(["restore", "all.json", "--yes"], io)).toBe(0);
  expect(io.stderr.join("\n")).toContain("restoring removes the menu stored on the server");
  expect(io.stdout.join("\n")).toContain("the stored menu was removed");
  // With nothing stored any more, the next restore has nothing to say about it.
  const again = client();
  expect(await run(["restore", "all.json", "--yes"], again)).toBe(0);
  expect(again.stderr.join("\n")).not.toContain("removes the menu");
});
