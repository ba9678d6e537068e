/** A restore that removes the stored menu says so before (at the question, or on stderr with --yes) and after (issue 35 D). */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { run } from "../../src/cli/index.ts";
import { startServer, type RunningServer } from "../../src/server/serve.ts";
import { ADMIN, ADMIN_ENV, article, body, doc, captureIO, serveOpts, signedRequest, tempDir } from "../helpers.ts";

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
  expect(again.stdout.join("\n")).not.toContain("menu was removed");
  const json = client();
  expect(await run(["restore", "all.json", "--yes", "--json"], json)).toBe(0);
  expect(JSON.parse(json.stdout.join("\n")).menu).toBe("none");
});

test("restore --id of a server backup taken while no menu was stored says before and after that it removes the menu", async () => {
  const backupIo = client();
  expect(await run(["backup", "all", "--json"], backupIo)).toBe(0);
  const id = JSON.parse(backupIo.stdout.join("\n")).id as string;
  const menu = { button: [{ type: "click", name: "Help", key: "HELP" }] };
  writeFileSync(join(tmp.dir, "menu2.json"), JSON.stringify({ format: "replyd/1", matter: "menu", created_at: "2026-11-25T10:00:00.000Z", menu }));
  expect(await run(["menu", "set", "menu2.json", "--no-push"], client())).toBe(0);
  const io = client();
  expect(await run(["restore", "--id", id, "--yes"], io)).toBe(0);
  expect(io.stderr.join("\n")).toContain("restoring removes the menu stored on the server");
  expect(io.stdout.join("\n")).toContain("the stored menu was removed");
});

test("restore --id asks with what the server backup holds, and a no cancels it", async () => {
  writeFileSync(join(tmp.dir, "one.json"), doc([article(1)]));
  expect(await run(["import", "one.json"], client())).toBe(0);
  const backupIo = client();
  expect(await run(["backup", "articles", "--json"], backupIo)).toBe(0);
  const id = JSON.parse(backupIo.stdout.join("\n")).id as string;
  const io = client();
  io.interactive = true;
  const asked: string[] = [];
  io.ask = async (q: string) => (asked.push(q), "n");
  expect(await run(["restore", "--id", id], io)).not.toBe(0);
  expect(asked.join("\n")).toContain(`server backup ${id} (1 articles, 0 tags)`);
  expect(asked.join("\n")).not.toContain("removes the menu");
  expect(io.stderr.join("\n")).toContain("restore cancelled; nothing was changed");
});

test("held=1 without an id is refused (400), with an id that is no backup 404; restore --id says the latter", async () => {
  const noId = await fetch(signedRequest("GET", "/api/cli/revert/articles", { fields: [["held", "1"]], nowMs: Date.now(), base: server.url }));
  expect(noId.status).toBe(400);
  expect((await body(noId)).error.message).toContain("held=1 needs the id= of a backup");
  const bogus = "articles-20260101T000000000Z-manual-zzzz";
  const missing = await fetch(signedRequest("GET", "/api/cli/revert/articles", { fields: [["id", bogus], ["held", "1"]], nowMs: Date.now(), base: server.url }));
  expect(missing.status).toBe(404);
  const none = client();
  expect(await run(["restore", "--id", bogus, "--yes"], none)).not.toBe(0);
  expect(none.stderr.join("\n")).toContain(`no articles backup with id "${bogus}"`);
});

test("a bare array of articles is no backup: restore refuses it naming import, on the laptop and at the server, and nothing changes", async () => {
  writeFileSync(join(tmp.dir, "bare.json"), JSON.stringify([article(71), article(72)]));
  const io = client();
  expect(await run(["restore", "bare.json", "--matter", "articles", "--yes"], io)).not.toBe(0);
  expect(io.stderr.join("\n")).toContain("this file is a bare array of articles: to load them, replyd import it");
  // Sent as it is, past the client's check: the server refuses it too.
  const res = await fetch(
    signedRequest("PUT", "/api/cli/revert/articles", { files: [{ name: "json", content: JSON.stringify([article(71)]) }], base: server.url, nowMs: Date.now() }),
  );
  expect(res.status).toBe(400);
  expect((await body(res)).error.message).toContain("bare array of articles");
  const ls = client();
  expect(await run(["ls", "--json"], ls)).toBe(0);
  expect(JSON.parse(ls.stdout.join("\n")).items.map((a: { id: string }) => a.id)).not.toContain("a71");
});
