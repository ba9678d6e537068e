/**
 * The passage index's build, two versions taking turns (A B A B …, so the machine's drift falls on
 * both alike): docs/performance.md Session 20.
 *
 * Through the binary (what the server does after a bulk import): each build gets a data folder of
 * its own, the synthetic articles of bench/answers.ts --scale imported in one document, health
 * polled every 50 ms until the index is ready, as bench/answers.ts does. Per round: the time from
 * the import's answer to ready, and the server's CPU time over it (user + system, all its threads,
 * /proc): on a shared machine the first moves with other people's load, the second less.
 *
 *   bun bench/index-build.ts --a /tmp/old/dist/replyd [--b dist/replyd] [--passages 100000] [--rounds 2]
 *
 * In process (--src): PassageIndex.addBatch of two source trees over the same articles, batches of
 * 2,000 in a transaction each as a rebuild runs them, on a fresh database file per round; the
 * process's CPU time, and a digest of what each filed (every term's df, every token's count of
 * articles in the FTS5 table, the sizes) — equal digests: the same index.
 *
 *   bun bench/index-build.ts --src --a /tmp/old [--b .] [--passages 20000] [--rounds 6]
 */
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { syntheticArticles } from "./answers.ts";
import { clientFor, median, procCpuMs, ROOT, startReplyd, waitHealthy } from "./servers.ts";

const args = process.argv.slice(2);
const opt = (name: string, fallback: string) => (args.includes(name) ? (args[args.indexOf(name) + 1] as string) : fallback);
const SRC = args.includes("--src");
if (!opt("--a", "")) throw new Error("--a names the version to compare against (a dist/replyd, or with --src a source tree)");
const SIDES = { A: resolve(opt("--a", "")), B: resolve(opt("--b", SRC ? ROOT : join(ROOT, "dist/replyd"))) };
const PASSAGES = Number(opt("--passages", SRC ? "20000" : "100000"));
const ROUNDS = Number(opt("--rounds", SRC ? "6" : "2"));
const loadAverage = () => readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");

interface Round {
  wall_ms: number;
  cpu_ms: number;
  load: string;
  /** Through the binary: the database's size; in process: the digest of what was filed. */
  db_mb?: number;
  digest?: string;
}

const { articles } = syntheticArticles(PASSAGES) as { articles: { title: string; body: string }[] };

/** One build of the binary: import, then the index's rebuild timed. */
async function throughBinary(bin: string): Promise<Round> {
  const dir = mkdtempSync(join(tmpdir(), "replyd-index-build-"));
  const s = startReplyd(dir, ["--max-upload", "4G"], { kind: "sqlite" }, bin);
  try {
    await waitHealthy(`${s.url}/healthz`, 180_000);
    const c = clientFor(s.url, dir);
    const bytes = new TextEncoder().encode(JSON.stringify({ format: "replyd/1", matter: "articles", articles }));
    const load = loadAverage();
    await c.call({ method: "POST", path: "/api/cli", fields: [["mode", "init"]], files: [{ name: "json", filename: "doc.json", bytes }] });
    const t0 = performance.now();
    const cpu0 = procCpuMs(s.p.pid);
    while ((await c.call<{ search_index: string }>({ method: "GET", path: "/api/cli" })).search_index !== "ready") await Bun.sleep(50);
    const round = { wall_ms: Math.round(performance.now() - t0), cpu_ms: procCpuMs(s.p.pid) - cpu0, load: `${load} → ${loadAverage()}` };
    let db = 0;
    for (const f of ["replyd.db", "replyd.db-wal"]) db += statSync(join(dir, "data", f), { throwIfNoEntry: false })?.size ?? 0;
    return { ...round, db_mb: +(db / 2 ** 20).toFixed(1) };
  } finally {
    s.p.kill("SIGTERM");
    await s.p.exited;
    rmSync(dir, { recursive: true, force: true });
  }
}

type Tree = { openDatabase: (path: string) => import("bun:sqlite").Database; PassageIndex: new (db: import("bun:sqlite").Database) => { addBatch(rows: object[]): void; stats: object } };
const trees: Partial<Record<"A" | "B", Tree>> = {};
const rows = articles.map((a, i) => ({ seq: i + 1, title: a.title, keywords: "", questions: "", description: "", body: a.body }));

/** One source tree's index built in this process. */
async function inProcess(side: "A" | "B"): Promise<Round> {
  const root = SIDES[side];
  const t = (trees[side] ??= { ...(await import(`${root}/src/store/model/db.ts`)), ...(await import(`${root}/src/store/model/passage-index.ts`)) } as Tree);
  const dir = mkdtempSync(join(tmpdir(), "replyd-index-build-"));
  const db = t.openDatabase(join(dir, "replyd.db"));
  try {
    const index = new t.PassageIndex(db);
    Bun.gc(true);
    const load = loadAverage();
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    for (let i = 0; i < rows.length; i += 2000) db.transaction(() => index.addBatch(rows.slice(i, i + 2000)))();
    const wall = performance.now() - t0;
    const cpu = process.cpuUsage(cpu0);
    const h = new Bun.CryptoHasher("sha256");
    for (const r of db.query("SELECT term, df FROM answer_df ORDER BY term").all() as { term: string; df: number }[]) h.update(`${r.term}\t${r.df}\n`);
    db.exec("CREATE VIRTUAL TABLE temp.vocab USING fts5vocab(main, answer_terms, row)");
    for (const r of db.query("SELECT term, doc FROM temp.vocab ORDER BY term").all() as { term: string; doc: number }[]) h.update(`${r.term}\t${r.doc}\n`);
    h.update(JSON.stringify(index.stats));
    return { wall_ms: Math.round(wall), cpu_ms: Math.round((cpu.user + cpu.system) / 1000), load: `${load} → ${loadAverage()}`, digest: h.digest("hex").slice(0, 16) };
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const rounds: Record<"A" | "B", Round[]> = { A: [], B: [] };
for (let r = 0; r < ROUNDS; r++)
  for (const side of (r % 2 ? ["B", "A"] : ["A", "B"]) as ("A" | "B")[]) {
    const got = SRC ? await inProcess(side) : await throughBinary(SIDES[side]);
    rounds[side].push(got);
    process.stderr.write(`${side} round ${r + 1}: ready ${got.wall_ms} ms, cpu ${got.cpu_ms} ms, load ${got.load}${got.digest ? `, digest ${got.digest}` : ""}\n`);
  }
const of = (side: "A" | "B", k: "wall_ms" | "cpu_ms") => median(rounds[side].map((x) => x[k]));
console.log(
  JSON.stringify(
    {
      when: new Date().toISOString(),
      mode: SRC ? "in process" : "through the binary",
      sides: SIDES,
      passages: PASSAGES,
      articles: articles.length,
      wall_ms: { A: of("A", "wall_ms"), B: of("B", "wall_ms") },
      cpu_ms: { A: of("A", "cpu_ms"), B: of("B", "cpu_ms") },
      wall_b_over_a: +(of("B", "wall_ms") / of("A", "wall_ms")).toFixed(3),
      cpu_b_over_a: +(of("B", "cpu_ms") / of("A", "cpu_ms")).toFixed(3),
      rounds,
    },
    null,
    2,
  ),
);
process.exit(0);
