/**
 * The PostgreSQL store's bulk writes at scale, in-process (docs/performance.md): a generated
 * document imported (init into an empty store), backed up, restored, and a read copy loaded from
 * the change feed, with this process's RSS growth for each. Needs PostgreSQL installed (Debian's
 * package; ./scripts/test installs it). Run: bun bench/pgbulk.ts [n]
 */
import { SQL } from "bun";
import { closeSync, fstatSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { systemClock } from "../src/base/clock.ts";
import { writeBulkDocument } from "./bulkdoc.ts";
import { readDocument } from "../src/doc/reading.ts";
import { fdSource } from "../src/doc/byte-source.ts";
import { backupPg, readBackupPg } from "../src/store/postgres/backups.ts";
import { importDocumentPg } from "../src/store/postgres/bulk.ts";
import { restoreDocumentPg } from "../src/store/postgres/restore.ts";
import { prepareDatabase } from "../src/store/postgres/connect.ts";
import { Replica } from "../src/store/postgres/replica.ts";
import { DataFolder } from "../src/store/sqlite/data-folder.ts";
import { startPostgres } from "../test/pg.ts";

const n = Number(process.argv[2] ?? 1_000_000);
const dir = mkdtempSync(join(tmpdir(), "replyd-pgbulk-"));
const path = join(dir, "doc.json");
writeBulkDocument(path, n);

const pg = startPostgres({ durable: true });
const sql = new SQL(pg.url);
await prepareDatabase(sql, { now: new Date(), firstKey: false });
// The peak RSS of each step: the kernel's high-water mark, reset before it (no sampling in the way).
const status = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(readFileSync("/proc/self/status", "utf8"))?.[1] ?? 0) / 1024;
const time = async <T>(name: string, fn: () => Promise<T>): Promise<T> => {
  Bun.gc(true);
  writeFileSync("/proc/self/clear_refs", "5");
  const base = status("VmRSS");
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const pg0 = pgCpu();
  const r = await fn();
  const cpu = process.cpuUsage(cpu0);
  const pgMs = pgCpu() - pg0;
  console.log(`${name.padEnd(44)} ${(performance.now() - t0).toFixed(0).padStart(7)} ms   RSS growth ${(status("VmHWM") - base).toFixed(0).padStart(5)} MB   CPU: this process ${((cpu.user + cpu.system) / 1000).toFixed(0).padStart(6)} ms, PostgreSQL ${pgMs.toFixed(0).padStart(6)} ms`);
  return r;
};
/** CPU seconds used so far by the PostgreSQL cluster's processes (run as the postgres user). */
const pgCpu = (): number => {
  const uid = Number(Bun.spawnSync(["id", "-u", "postgres"]).stdout.toString().trim());
  let ticks = 0;
  for (const pid of readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
    try {
      if (statSync(`/proc/${pid}`).uid !== uid) continue;
      const f = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
      ticks += Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]);
    } catch {}
  }
  return ticks * 10;
};
const at = () => ({ now: Date.now(), keep: 5 });
try {
  const fd = openSync(path, "r");
  const src = fdSource(fd, fstatSync(fd).size);
  const doc = await time("validate (read the file once)", async () => readDocument(src));
  const store = DataFolder.open(join(dir, "copy"), { clock: systemClock, keep: 5, durable: false });
  const replica = new Replica(store, sql);
  // As the server does it: the read copy loaded alongside the database's write (store/postgres/mirror.ts).
  await time("import --init into an empty database + copy", () => replica.mirrored((m) => importDocumentPg(sql, doc, "init", at(), m)));
  await time("read copy caught up after it", () => replica.catchUp());
  // Its search index is rebuilt in the background, on this thread: done before the next step is timed.
  if (!process.env.QUICK) await time("read copy's search index rebuilt", () => store.indexed());
  const fresh = DataFolder.open(join(dir, "fresh"), { clock: systemClock, keep: 5, durable: false });
  await time("a new read copy loaded from the change feed", () => new Replica(fresh, sql).catchUp());
  fresh.close();
  const b = await time("backup (articles)", () => backupPg(sql, "articles", Date.now(), 5));
  console.log(`   backup: ${(b.size / 2 ** 20).toFixed(1)} MB in ${((await sql`SELECT sum(length(body))::bigint AS n FROM backup_chunks WHERE id = ${b.id}`)[0].n / 2 ** 20).toFixed(1)} MB of chunks`);
  await time("backup read back (download)", () => readBackupPg(sql, b.id, () => {}));
  // As `replyd restore --id` has the server do it: the backup spooled to a file, validated, restored.
  const spooled = join(dir, "backup.json");
  const out = openSync(spooled, "w");
  await time("backup spooled to a file", () => readBackupPg(sql, b.id, (bytes) => void writeSync(out, bytes)));
  closeSync(out);
  const bfd = openSync(spooled, "r");
  const backupDoc = await time("backup validated", async () => readDocument(fdSource(bfd, fstatSync(bfd).size)));
  await time("restore (articles), automatic backup, copy", () => replica.mirrored((m) => restoreDocumentPg(sql, backupDoc, "articles", at(), m)));
  closeSync(bfd);
  await time("read copy caught up after it", () => replica.catchUp());
  console.log(`   read copy: ${store.articles.total()} articles`);
  store.close();
  closeSync(fd);
} finally {
  await sql.close();
  pg.stop();
  rmSync(dir, { recursive: true, force: true });
}
