/**
 * Where a 1M-article import spends its time, pass by pass, in-process (docs/performance.md):
 * the validating read of the file, the reading alone, and the import's write. Run: bun bench/bulkparts.ts [n]
 */
import { closeSync, fstatSync, mkdtempSync, openSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { systemClock } from "../src/base/clock.ts";
import { writeBulkDocument } from "./bulkdoc.ts";
import { readDocument } from "../src/doc/reading.ts";
import { fdSource } from "../src/doc/byte-source.ts";
import { scanDocument } from "../src/doc/scanner.ts";
import { DataFolder } from "../src/store/sqlite/data-folder.ts";

const n = Number(process.argv[2] ?? 1_000_000);
const dir = mkdtempSync(join(tmpdir(), "replyd-bulkparts-"));
const path = join(dir, "doc.json");
writeBulkDocument(path, n);

const fd = openSync(path, "r");
const src = fdSource(fd, fstatSync(fd).size);
const time = <T>(name: string, fn: () => T): T => {
  const t0 = performance.now();
  const r = fn();
  console.log(`${name.padEnd(40)} ${(performance.now() - t0).toFixed(0).padStart(6)} ms`);
  return r;
};
time("scan only (JSON.parse per record)", () => scanDocument(src, { each: () => {} }));
const doc = time("readDocument (scan + validate + hashes)", () => readDocument(src));
time("articles.each (read again + validate)", () => doc.articles?.each(() => {}));
const store = DataFolder.open(join(dir, "data"), { clock: systemClock, keep: 5 });
time("importDocument init into an empty store", () => store.importDocument(doc, "init"));
time("importDocument merge, all unchanged", () => store.importDocument(doc, "merge"));
store.close();
closeSync(fd);
rmSync(dir, { recursive: true, force: true });
