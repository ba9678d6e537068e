/**
 * Where loading a PostgreSQL-mode read copy spends its time (docs/performance.md): the change feed
 * read alone (rows fetched and turned into articles, nothing applied), then a full catch-up into an
 * empty copy. Needs PostgreSQL installed. Run: bun bench/pgcopy.ts [n]
 */
import { SQL } from "bun";
import { closeSync, fstatSync, mkdtempSync, openSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { systemClock } from "../src/base/clock.ts";
import { readDocument } from "../src/doc/reading.ts";
import { fdSource } from "../src/doc/byte-source.ts";
import { importDocumentPg } from "../src/store/postgres/bulk.ts";
import { prepareDatabase } from "../src/store/postgres/connect.ts";
import { readChanges } from "../src/store/postgres/feed.ts";
import { Replica } from "../src/store/postgres/replica.ts";
import { DataFolder } from "../src/store/sqlite/data-folder.ts";
import { startPostgres } from "../test/pg.ts";
import { writeBulkDocument } from "./bulkdoc.ts";

const n = Number(process.argv[2] ?? 200_000);
const dir = mkdtempSync(join(tmpdir(), "replyd-pgcopy-"));
const path = join(dir, "doc.json");
writeBulkDocument(path, n);
const pg = startPostgres({ durable: true });
const sql = new SQL(pg.url);
const time = async <T>(name: string, fn: () => Promise<T>): Promise<T> => {
  const t0 = performance.now();
  const r = await fn();
  console.log(`${name.padEnd(44)} ${(performance.now() - t0).toFixed(0).padStart(7)} ms`);
  return r;
};
try {
  await prepareDatabase(sql, { now: new Date(), firstKey: false });
  const fd = openSync(path, "r");
  await importDocumentPg(sql, readDocument(fdSource(fd, fstatSync(fd).size)), "init", { now: Date.now(), keep: 5 });
  closeSync(fd);
  let rows = 0;
  await time("change feed read, nothing applied", () => readChanges(sql, 0n, (page) => void (rows += page.articles.length)));
  console.log(`   ${rows} rows`);
  const store = DataFolder.open(join(dir, "copy"), { clock: systemClock, keep: 5, durable: false });
  await time("catch-up into an empty copy", () => new Replica(store, sql).catchUp());
  store.close();
} finally {
  await sql.close();
  pg.stop();
  rmSync(dir, { recursive: true, force: true });
}
