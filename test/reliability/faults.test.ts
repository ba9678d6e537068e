/**
 * Faults on the data folder. The full-disk and read-only cases use real filesystems (a 64 KiB tmpfs,
 * a read-only bind mount), which needs root, as CI has.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync, readdirSync, readFileSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { article, body, databaseTest, doc, serveOpts, signedRequest, testApp, dataFolderTest } from "../helpers.ts";
import { CODE } from "../../src/base/errors.ts";

let t: Awaited<ReturnType<typeof testApp>>;
beforeEach(async () => {
  t = await testApp();
  await call("POST", "/api/cli", [], [{ name: "json", content: doc(Array.from({ length: 200 }, (_, i) => article(i)), { texts: { welcome: "hi" } }) }]);
});
afterEach(() => t.close());

const call = (method: string, path: string, fields: [string, string][] = [], files?: { name: string; content: string }[]) => t.call(method, path, fields, files ? { files } : {});
const snapshot = () => JSON.stringify([...t.store.articles.iterateAll()]);

function sh(cmd: string): void {
  const p = Bun.spawnSync(["sh", "-c", cmd], { stderr: "pipe" });
  if (p.exitCode !== 0) throw new Error(`${cmd}: ${p.stderr.toString()} (this test needs root for mount, as CI has)`);
}

describe("backup files damaged on disk", () => {
  dataFolderTest("a truncated backup is detected and refused for restore; nothing changes", async () => {
    const b = await call("POST", "/api/cli/revert/all");
    const path = t.store.backups.pathOf(b.data.id);
    truncateSync(path, Math.floor(readFileSync(path).length / 2));
    const before = snapshot();
    await call("PUT", "/api/cli", [["id", "a1"], ["title", "Changed"]]);
    const changed = snapshot();
    const r = await call("PUT", "/api/cli/revert/all", [["id", b.data.id]]);
    expect(r.status).toBe(400);
    expect(["bad_json", "checksum_mismatch"]).toContain(r.error.code);
    expect(snapshot()).toBe(changed);
    expect(before).not.toBe(changed);
  });

  dataFolderTest("a backup edited on disk fails its sha256 and is refused", async () => {
    const b = await call("POST", "/api/cli/revert/articles");
    const path = t.store.backups.pathOf(b.data.id);
    writeFileSync(path, readFileSync(path, "utf8").replace("Article 7", "Article 8"));
    const r = await call("PUT", "/api/cli/revert/articles", [["id", b.data.id]]);
    expect(r).toMatchObject({ status: 400, error: { code: CODE.checksum_mismatch } });
  });
});

describe("a full disk", () => {
  /** The app's SQLite can grow by two pages only; answers the import that no longer fits, and how to give room again. */
  function fillTheDatabase() {
    const pages = (t.store.db.query("PRAGMA page_count").get() as { page_count: number }).page_count;
    t.store.db.exec(`PRAGMA max_page_count = ${pages + 2}`);
    const big = doc(Array.from({ length: 3000 }, (_, i) => article(1000 + i, { description: "y".repeat(400) })));
    return { big, makeRoom: () => t.store.db.exec("PRAGMA max_page_count = 1073741823") };
  }

  dataFolderTest("the database cannot grow (SQLITE_FULL): 507 disk_full, nothing written, writable again once there is room", async () => {
    const before = snapshot();
    const { big, makeRoom } = fillTheDatabase();
    const r = await call("POST", "/api/cli", [], [{ name: "json", content: big }]);
    expect(r).toMatchObject({ status: 507, error: { code: CODE.disk_full } });
    expect(snapshot()).toBe(before);
    expect((t.store.db.query("PRAGMA integrity_check").get() as { integrity_check: string }).integrity_check).toBe("ok");
    makeRoom();
    expect((await call("POST", "/api/cli", [], [{ name: "json", content: big }])).status).toBe(200);
  });

  // On PostgreSQL the local SQLite is only a copy: the database took the write, and saying
  // "nothing was written" (what this answered before) would be untrue.
  databaseTest("the read copy cannot grow: the import is answered as done (the database has it), and the copy takes it once there is room", async () => {
    const before = snapshot();
    const { big, makeRoom } = fillTheDatabase();
    const r = await call("POST", "/api/cli", [], [{ name: "json", content: big }]);
    expect({ status: r.status, added: r.data?.added }).toEqual({ status: 200, added: 3000 });
    expect(snapshot()).toBe(before);
    makeRoom();
    // The next write catches the copy up.
    expect((await call("PUT", "/api/cli", [["id", "a1"], ["title", "After"]])).status).toBe(200);
    expect(t.store.articles.get("a3999")?.title).toBe("Article 3999");
  });

  dataFolderTest("backups on a full filesystem: 507, no partial file, and a restore refuses to run without its safety backup", async () => {
    const dir = t.store.backups.dir;
    const good = await call("POST", "/api/cli/revert/all");
    const text = readFileSync(t.store.backups.pathOf(good.data.id), "utf8");
    sh(`mount -t tmpfs -o size=64k tmpfs ${dir}`);
    try {
      writeFileSync(join(dir, "filler"), Buffer.alloc(60 * 1024));
      const r = await call("POST", "/api/cli/revert/all");
      expect(r).toMatchObject({ status: 507, error: { code: CODE.disk_full } });
      expect(readdirSync(dir).filter((f) => f !== "filler")).toEqual([]);
      await call("PUT", "/api/cli", [["id", "a1"], ["title", "Changed"]]);
      const before = snapshot();
      const restore = await call("PUT", "/api/cli/revert/all", [], [{ name: "json", content: text }]);
      expect(restore.status).toBe(507);
      expect(snapshot()).toBe(before);
    } finally {
      sh(`umount ${dir}`);
    }
  });
});

describe("the folder uploads are spooled to", () => {
  const spool = () => {
    const dir = join(t.dir, "spool");
    mkdirSync(dir);
    return dir;
  };
  const upload = (app: Awaited<ReturnType<typeof testApp>>, content: string) =>
    app.handle(signedRequest("POST", "/api/cli", { files: [{ name: "json", content }], nowMs: app.clock.now() })).then(async (res) => ({ status: res.status, ...(await body(res)) }));

  test("full: the upload is refused 507 disk_full, nothing written; accepted once there is room", async () => {
    const dir = spool();
    sh(`mount -t tmpfs -o size=64k tmpfs ${dir}`);
    const app = await testApp({ spoolDir: dir });
    try {
      const big = doc(Array.from({ length: 400 }, (_, i) => article(1000 + i, { description: "y".repeat(200) })));
      expect(big.length).toBeGreaterThan(64 * 1024);
      expect(await upload(app, big)).toMatchObject({ status: 507, error: { code: CODE.disk_full } });
      expect(app.store.articles.counts().live).toBe(0);
      expect(readdirSync(dir)).toEqual([]);
      expect((await upload(app, doc([article(1)]))).status).toBe(200);
    } finally {
      app.close();
      sh(`umount ${dir}`);
    }
  });

  test("read-only: the upload is refused 503 upload_failed, saying why", async () => {
    const dir = spool();
    sh(`mount --bind ${dir} ${dir} && mount -o remount,ro,bind ${dir}`);
    const app = await testApp({ spoolDir: dir });
    try {
      const r = await upload(app, doc([article(1)]));
      expect(r).toMatchObject({ status: 503, error: { code: CODE.upload_failed } });
      expect(r.error.message).toContain("EROFS");
    } finally {
      app.close();
      sh(`umount ${dir}`);
    }
  });
});

describe("a read-only data folder", () => {
  dataFolderTest("the backups folder turning read-only: backups and restores get read_only, data unchanged, reads work", async () => {
    const dir = t.store.backups.dir;
    const good = await call("POST", "/api/cli/revert/all");
    const text = readFileSync(t.store.backups.pathOf(good.data.id), "utf8");
    await call("PUT", "/api/cli", [["id", "a1"], ["title", "Changed"]]);
    const before = snapshot();
    sh(`mount --bind ${dir} ${dir} && mount -o remount,ro,bind ${dir}`);
    try {
      const backup = await call("POST", "/api/cli/revert/all");
      expect(backup).toMatchObject({ status: 500, error: { code: CODE.read_only } });
      expect(backup.error.message).toContain("nothing was written");
      const restore = await call("PUT", "/api/cli/revert/all", [], [{ name: "json", content: text }]);
      expect(restore).toMatchObject({ status: 500, error: { code: CODE.read_only } });
      expect((await call("GET", "/api/cli", [["id", "a1"]])).data.title).toBe("Changed");
    } finally {
      sh(`umount ${dir}`);
    }
    expect(snapshot()).toBe(before);
    expect((await call("POST", "/api/cli/revert/all")).status).toBe(200);
  });

  test("a data folder that is read-only at start: a clear one-line error, nothing touched", async () => {
    const { startServer } = await import("../../src/server/serve.ts");
    const { tempDir } = await import("../helpers.ts");
    const tmp = tempDir();
    try {
      sh(`mount --bind ${tmp.dir} ${tmp.dir} && mount -o remount,ro,bind ${tmp.dir}`);
      try {
        await expect(
          startServer(serveOpts(tmp.dir)),
        ).rejects.toThrow(/not writable: it is on a read-only file system/);
      } finally {
        sh(`umount ${tmp.dir}`);
      }
      expect(readdirSync(tmp.dir)).toEqual([]);
    } finally {
      tmp.cleanup();
    }
  });
});
