/** Backups under a wrong clock, a deleted folder and a kill -9 (issue 17 B and D). */
import { expect, test } from "bun:test";
import { existsSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fixedClock } from "../../src/base/clock.ts";
import { parseDocument } from "../../src/doc/validation.ts";
import { article, doc, openStore, T0, tempDir, testApp, dataFolderTest } from "../helpers.ts";

const DAY = 86_400_000;

test("a clock behind the newest backups: each new backup is kept, listed newest, and its id exists", () => {
  const tmp = tempDir();
  try {
    let store = openStore(tmp.dir, { keep: 5 });
    for (let i = 0; i < 5; i++) store.backup("all", "manual");
    store.close();
    store = openStore(tmp.dir, { keep: 5, clock: fixedClock(T0 - DAY) }); // restarted with the clock a day behind
    const made = store.backup("all", "manual");
    expect(store.backups.get("all", made.id)).not.toBeNull();
    expect(store.backups.list("all")[0]?.id).toBe(made.id);
    // The automatic backup taken before an --init is there afterwards too.
    const result = store.importDocument(parseDocument(doc([article(1)])), "init");
    const auto = result.backup as { id: string; matter: "all" | "articles" };
    expect(store.backups.get(auto.matter, auto.id)).not.toBeNull();
    store.close();
  } finally {
    tmp.cleanup();
  }
});

test("stamps never go back: a backup taken with the clock behind gets a stamp after the newest one", () => {
  const tmp = tempDir();
  try {
    const clock = fixedClock(T0);
    const store = openStore(tmp.dir, { keep: 30, clock });
    const a = store.backup("all", "manual");
    clock.set(T0 - DAY);
    const b = store.backup("all", "manual");
    expect(Date.parse(b.created_at)).toBeGreaterThan(Date.parse(a.created_at));
    store.close();
  } finally {
    tmp.cleanup();
  }
});

test("pruning keeps the newest automatic backup even when it is older than the newest --keep", () => {
  const tmp = tempDir();
  try {
    const clock = fixedClock(T0);
    const store = openStore(tmp.dir, { keep: 2, clock });
    const auto = store.backup("all", "auto");
    for (let i = 0; i < 3; i++) {
      clock.advance(1000);
      store.backup("all", "manual");
    }
    expect(store.backups.get("all", auto.id)).not.toBeNull();
    expect(store.backups.list("all").filter((b) => b.kind === "manual")).toHaveLength(2);
    store.close();
  } finally {
    tmp.cleanup();
  }
});

dataFolderTest("backups/ deleted under a running server: health, listing, backups and restores keep working", async () => {
  const t = await testApp();
  try {
    t.clock.advance(10_000);
    const call = (method: string, path: string, fields: [string, string][] = []) => t.call(method, path, fields);
    expect((await call("POST", "/api/cli/revert/all")).status).toBe(200);
    rmSync(join(t.dir, "backups"), { recursive: true, force: true });
    await Bun.sleep(1100); // past health's once-a-second look at the folder
    expect((await call("GET", "/api/cli")).data.newest_backup).toBeNull();
    expect((await call("GET", "/api/cli/revert/all")).data.backups).toEqual([]);
    const made = await call("POST", "/api/cli/revert/all");
    expect(made.status).toBe(200);
    expect((await call("PUT", "/api/cli/revert/all", [["id", made.data.id]])).status).toBe(200);
  } finally {
    t.close();
  }
});

test("temp files a kill -9 left in backups/ are removed at start and counted in health", async () => {
  const tmp = tempDir();
  try {
    openStore(tmp.dir).close();
    writeFileSync(join(tmp.dir, "backups", ".all-20261121T100000000Z-manual-abcd.json.123.456.tmp"), "x".repeat(1000));
    writeFileSync(join(tmp.dir, "backups", ".all-20261121T100000001Z-manual-abce.json.123.457.tmp"), "x");
    const store = openStore(tmp.dir);
    expect(store.backups.tempRemovedAtStart).toBe(2);
    expect(readdirSync(join(tmp.dir, "backups")).filter((n) => n.endsWith(".tmp"))).toEqual([]);
    expect(existsSync(join(tmp.dir, "backups"))).toBe(true);
    store.close();
  } finally {
    tmp.cleanup();
  }
});

test("an admin write while another connection holds the write lock waits for it and succeeds (BEGIN IMMEDIATE)", async () => {
  const tmp = tempDir();
  try {
    const store = openStore(tmp.dir);
    store.importDocument(parseDocument(doc([article(1)])), "merge");
    const a1 = store.articles.get("a1") as NonNullable<ReturnType<typeof store.articles.get>>;
    // Another process takes the write lock, writes, and commits 300 ms later (as the log writer may).
    const holder = Bun.spawn(
      [process.execPath, "-e", `const { Database } = require("bun:sqlite"); const db = new Database(${JSON.stringify(join(tmp.dir, "replyd.db"))}); db.exec("BEGIN IMMEDIATE"); db.exec("INSERT INTO meta (key, value) VALUES ('probe', '1')"); console.log("locked"); setTimeout(() => { db.exec("COMMIT"); db.close(); }, 300);`],
      { stdout: "pipe" },
    );
    const reader = (holder.stdout as ReadableStream<Uint8Array>).getReader();
    await reader.read(); // "locked"
    // An import reads inside its transaction (what exists, which codes are live) before it writes.
    store.importDocument(parseDocument(doc([article(1, { title: "changed" }), article(2)])), "merge");
    expect(store.articles.get("a1")?.title).toBe("changed");
    expect(a1.rev).toBe(1);
    await holder.exited;
    store.close();
  } finally {
    tmp.cleanup();
  }
});
