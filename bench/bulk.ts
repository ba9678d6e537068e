/**
 * The bulk part of the side-by-side benchmark (bench/run.ts): at each size, a generated document
 * imported (init) into an empty store, backed up and downloaded, restored — each on a freshly
 * started server, on every store given, with the server's peak RSS growth for each operation
 * (the high-water mark reset once the server is up: a PostgreSQL server's start loads its read
 * copy, which is not the operation's) — against raw bun:sqlite prepared inserts of the same rows.
 */
import { Database } from "bun:sqlite";
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from "node:fs";
import { join } from "node:path";
import { openDatabase } from "../src/store/model/db.ts";
import { articles, clientFor, procMb, resetPeak, startReplyd, waitHealthy, type Replyd, type StoreArgs } from "./servers.ts";

export interface BulkStore {
  name: string;
  /** An empty store for one size's runs. */
  prepare(size: number): Promise<StoreArgs>;
}

export interface BulkRow {
  store: string;
  size: number;
  doc_mb: number;
  import_ms: number;
  raw_insert_ms: number;
  import_vs_raw: number;
  search_index_ready_ms: number;
  backup_download_ms: number;
  backup_mb: number;
  restore_ms: number;
  rss_start_mb: number;
  peak_rss_mb: { import: number; backup: number; restore: number };
  rss_growth_mb: { import: number; backup: number; restore: number };
}

function writeDocument(path: string, size: number): void {
  // Written in pieces: a million articles is ~200 MB of JSON.
  const fd = openSync(path, "w");
  writeSync(fd, "[");
  for (let i = 0; i < size; i += 10_000) {
    const part = articles(Math.min(10_000, size - i)).map((a, j) => ({ ...a, id: `a${i + j}`, code: `c${i + j}` }));
    writeSync(fd, (i ? "," : "") + JSON.stringify(part).slice(1, -1));
  }
  writeSync(fd, "]");
  closeSync(fd);
}

/** The same rows into the same schema with one prepared statement in one transaction: the limit. */
function rawInsertMs(dir: string, docPath: string): number {
  const rawDb: Database = openDatabase(join(dir, "raw.db"));
  const insert = rawDb.query("INSERT INTO articles (id, code, tag, title, description, url, picurl, keywords, deleted, rev, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, NULL, ?, 0, 1, ?, ?)");
  const rows = JSON.parse(readFileSync(docPath, "utf8")) as ReturnType<typeof articles>;
  const t0 = performance.now();
  const now = new Date().toISOString();
  rawDb.transaction(() => {
    for (const a of rows) insert.run(a.id, a.code, a.tag, a.title, a.description, a.url, JSON.stringify(a.keywords), now, now);
  })();
  const ms = performance.now() - t0;
  rawDb.close();
  return ms;
}

async function indexReady(c: ReturnType<typeof clientFor>): Promise<void> {
  for (;;) {
    const h = await c.call<{ search_index: string }>({ method: "GET", path: "/api/cli" });
    if (h.search_index === "ready") return;
    await Bun.sleep(50);
  }
}

async function measure(dir: string, store: StoreArgs, bytes: Uint8Array, tmp: string) {
  // Each operation on a freshly started server once it has settled (a PostgreSQL server's read copy
  // is loaded at start and its search index rebuilt in the background: that work is the start's, not
  // the operation's), its peak RSS counted from then.
  const fresh = async () => {
    const s = startReplyd(dir, ["--max-upload", "2G"], store);
    await waitHealthy(`${s.url}/healthz`, 180_000);
    const c = clientFor(s.url, tmp);
    await indexReady(c);
    resetPeak(s.p.pid);
    return { s, c, rss: procMb(s.p.pid, "VmRSS") };
  };
  const stop = async (s: Replyd) => {
    s.p.kill("SIGTERM");
    await s.p.exited;
  };
  let { s, c, rss: rssImport0 } = await fresh();
  let t0 = performance.now();
  await c.call({ method: "POST", path: "/api/cli", fields: [["mode", "init"]], files: [{ name: "json", filename: "doc.json", bytes }] });
  const importMs = performance.now() - t0;
  const hwmImport = procMb(s.p.pid, "VmHWM");
  // The search index is rebuilt in the background after a bulk write; time until it is ready.
  await indexReady(c);
  const indexMs = performance.now() - t0;
  await stop(s);

  let rssBackup0: number;
  ({ s, c, rss: rssBackup0 } = await fresh());
  t0 = performance.now();
  const b = await c.call<{ id: string; size: number }>({ method: "POST", path: "/api/cli/revert/articles" });
  // Streamed to a temp file through the client's door (signature and bounds checked), as `replyd backup` does.
  const got = await c.download({ method: "GET", path: "/api/cli/revert/articles", fields: [["id", b.id]] }, tmp, "download");
  rmSync(got.tmp, { force: true });
  const backupMs = performance.now() - t0;
  const hwmBackup = procMb(s.p.pid, "VmHWM");
  await stop(s);

  let rssRestore0: number;
  ({ s, c, rss: rssRestore0 } = await fresh());
  t0 = performance.now();
  await c.call({ method: "PUT", path: "/api/cli/revert/articles", fields: [["id", b.id]] });
  const restoreMs = performance.now() - t0;
  const hwmRestore = procMb(s.p.pid, "VmHWM");
  await stop(s);
  return {
    import_ms: Math.round(importMs),
    search_index_ready_ms: Math.round(indexMs),
    backup_download_ms: Math.round(backupMs),
    backup_mb: +(got.size / 2 ** 20).toFixed(1),
    restore_ms: Math.round(restoreMs),
    rss_start_mb: Math.round(rssImport0),
    peak_rss_mb: { import: Math.round(hwmImport), backup: Math.round(hwmBackup), restore: Math.round(hwmRestore) },
    rss_growth_mb: { import: Math.round(hwmImport - rssImport0), backup: Math.round(hwmBackup - rssBackup0), restore: Math.round(hwmRestore - rssRestore0) },
  };
}

export async function bulkBench(sizes: number[], stores: BulkStore[], tmp: string, report: (line: string) => void): Promise<BulkRow[]> {
  const rows: BulkRow[] = [];
  for (const size of sizes) {
    const d = join(tmp, `bulk-${size}`);
    mkdirSync(d);
    const docPath = join(d, "doc.json");
    writeDocument(docPath, size);
    const bytes = readFileSync(docPath);
    const docMb = +(bytes.length / 2 ** 20).toFixed(1);
    const rawMs = rawInsertMs(d, docPath);
    for (const store of stores) {
      const m = await measure(d, await store.prepare(size), bytes, tmp);
      const row: BulkRow = { store: store.name, size, doc_mb: docMb, raw_insert_ms: Math.round(rawMs), import_vs_raw: +(m.import_ms / rawMs).toFixed(2), ...m };
      rows.push(row);
      report(
        `  ${store.name.padEnd(8)} ${String(size).padStart(8)}: import ${row.import_ms} ms (raw inserts ${row.raw_insert_ms} ms, ${row.import_vs_raw}×; search index ready at ${row.search_index_ready_ms} ms)   backup+download ${row.backup_download_ms} ms (${row.backup_mb} MB)   restore ${row.restore_ms} ms   RSS growth import/backup/restore ${row.rss_growth_mb.import}/${row.rss_growth_mb.backup}/${row.rss_growth_mb.restore} MB`,
      );
    }
    rmSync(d, { recursive: true, force: true });
  }
  return rows;
}
