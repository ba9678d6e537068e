/**
 * Crash safety: kill -9 in the middle of a bulk write, restart, and check the store holds either the
 * old state or the new one, whole, and still accepts writes.
 *
 *   ./scripts/crash-test [--store sqlite|postgres] [--trials 50] [--articles 20000] [--log-trials 10] [--bin dist/replyd]
 *
 * Each trial: start `replyd serve` on a fresh store (a data folder, or with --store postgres a new
 * database on a throwaway cluster with fsync on), load set A (codes a0…), then start an
 * `import --init` of set B (codes b0…) or a `restore` of B — alternating — and SIGKILL the server
 * after a random delay drawn from [0, 1.3 × the measured duration of that write]. Restart on the same
 * store and read the live codes straight from it: they must be exactly A or exactly B, and the
 * restarted server must answer the same. On PostgreSQL the killed server's read copy must be gone
 * after the restart (it cannot remove it itself).
 * Then --log-trials of kill -9 during a flood of follower messages (scripts/crash-log.ts): the
 * answered messages the log lost, and how long before the kill the oldest of them was answered.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { logKillTrials } from "./crash-log.ts";
import { postgresCrashStore, sqliteCrashStore, type CrashStore } from "./crash-stores.ts";

/** The longest a message answered 200 may wait to be committed to the log (docs/reliability.md). */
const LOG_WINDOW_BOUND_MS = 250;

const args = process.argv.slice(2);
const flag = (name: string, fallback: number) => {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const TRIALS = flag("--trials", 50);
const ARTICLES = flag("--articles", 20000);
const LOG_TRIALS = flag("--log-trials", 10);
const binIndex = args.indexOf("--bin");
const BIN = resolve(binIndex >= 0 ? (args[binIndex + 1] as string) : "dist/replyd");
const storeIndex = args.indexOf("--store");
const STORE = storeIndex >= 0 ? args[storeIndex + 1] : "sqlite";
if (STORE !== "sqlite" && STORE !== "postgres") throw new Error(`--store: sqlite or postgres, not ${STORE}`);

const store: CrashStore = STORE === "postgres" ? postgresCrashStore() : sqliteCrashStore();
const root = mkdtempSync(join(tmpdir(), "replyd-crash-"));
// The servers' temporary folder (the read copies of --db), so what a killed one leaves is visible here.
const TMP = join(root, "tmp");
mkdirSync(TMP);
const ENV = { PATH: process.env.PATH ?? "/usr/bin:/bin", TMPDIR: TMP, REPLYD_APPKEY: "crash", REPLYD_SECRET: "crash-test-secret-0123456789" };

const set = (prefix: string) =>
  Array.from({ length: ARTICLES }, (_, i) => ({ id: `${prefix}${i}`, code: `${prefix}${i}`, tag: prefix, title: `${prefix} article ${i}`, url: `https://example.com/${prefix}/${i}`, description: "x".repeat(200) }));

async function start(dir: string, extra: string[] = []) {
  const proc = Bun.spawn([BIN, "serve", ...(await store.serveArgs(dir)), "--host", "127.0.0.1", "--port", "0", "--max-upload", "512M", ...extra], { env: ENV, stdout: "pipe", stderr: "pipe" });
  const reader = (proc.stdout as ReadableStream<Uint8Array>).getReader();
  let out = "";
  const until = Date.now() + 20_000;
  while (!/"url":"([^"]+)"/.test(out)) {
    if (Date.now() > until) throw new Error("server did not start: " + out);
    const { value, done } = await reader.read();
    if (done) throw new Error("server exited at start: " + out + (await new Response(proc.stderr as ReadableStream).text()));
    out += new TextDecoder().decode(value);
  }
  reader.releaseLock();
  void (proc.stdout as ReadableStream).pipeTo(new WritableStream());
  return { proc, url: (/"url":"([^"]+)"/.exec(out) as RegExpExecArray)[1] as string };
}

function client(url: string, args: string[]) {
  return Bun.spawn([BIN, ...args, ...(args[0] === "restore" || args.includes("--init") ? ["--yes"] : [])], { env: { ...ENV, REPLYD_URL: url }, stdout: "pipe", stderr: "pipe" });
}

/** The live article count the (restarted) server itself answers with. */
async function servedLive(url: string): Promise<number> {
  const p = client(url, ["health", "--json"]);
  const [code, out] = await Promise.all([p.exited, new Response(p.stdout).text()]);
  return code === 0 ? (JSON.parse(out) as { counts: { articles_live: number } }).counts.articles_live : -1;
}

/** The read copies in the servers' temporary folder owned by a given pid. */
const copiesOf = (pid: number) =>
  readdirSync(TMP).filter((n) => n.startsWith("replyd-copy-") && existsSync(join(TMP, n, "owner")) && readFileSync(join(TMP, n, "owner"), "utf8").trim() === String(pid));

writeFileSync(join(root, "a.json"), JSON.stringify(set("a")));
const b = set("b");
writeFileSync(join(root, "b.json"), JSON.stringify(b));
writeFileSync(join(root, "b-all.json"), JSON.stringify({ format: "replyd/1", matter: "all", created_at: new Date().toISOString(), articles: b, tags: {}, rules: [], texts: {} }));

const outcomes = { old: 0, new: 0 };
let log: Awaited<ReturnType<typeof logKillTrials>> | null = null;
const failures: string[] = [];
const durations: Record<string, number> = {};
try {
  for (let trial = 0; trial < TRIALS; trial++) {
    const dir = join(root, `t${trial}`);
    const kind = trial % 2 === 0 ? "init" : "restore";
    let { proc, url } = await start(dir);
    const load = client(url, ["import", join(root, "a.json"), "--init"]);
    if ((await load.exited) !== 0) throw new Error("loading set A failed: " + (await new Response(load.stderr).text()));

    const writeArgs = kind === "init" ? ["import", join(root, "b.json"), "--init"] : ["restore", join(root, "b-all.json")];
    if (durations[kind] === undefined) {
      // Time one uninterrupted run of this write under the same conditions (set A loaded) to aim the kills.
      const scratchDir = join(root, `measure-${kind}`);
      const scratch = await start(scratchDir);
      await client(scratch.url, ["import", join(root, "a.json"), "--init"]).exited;
      const t0 = performance.now();
      const measured = client(scratch.url, writeArgs);
      if ((await measured.exited) !== 0) throw new Error(`the ${kind} write failed: ${await new Response(measured.stderr).text()}`);
      durations[kind] = performance.now() - t0;
      scratch.proc.kill("SIGTERM");
      await scratch.proc.exited;
      await store.forget(scratchDir);
    }
    const delay = Math.random() * (durations[kind] as number) * 1.3;
    const write = client(url, writeArgs);
    await Bun.sleep(delay);
    const killed = proc.pid;
    proc.kill("SIGKILL");
    await proc.exited;
    await write.exited;

    ({ proc, url } = await start(dir));
    const state = await store.liveCodes(dir);
    const served = await servedLive(url);
    const whole = (state.a === ARTICLES && state.b === 0) || (state.b === ARTICLES && state.a === 0);
    const ok = state.integrity === "ok" && state.other === 0 && whole && served === ARTICLES;
    if (!ok) failures.push(`trial ${trial} (${kind}, kill at ${delay.toFixed(0)} ms): ${JSON.stringify({ ...state, served })}`);
    else state.a === ARTICLES ? outcomes.old++ : outcomes.new++;
    const left = copiesOf(killed);
    if (left.length) failures.push(`trial ${trial}: the killed server's read copy is still there after the restart: ${left.join(", ")}`);
    const add = Bun.spawn([BIN, "add", `title=after crash ${trial}`, "url=https://example.com/after", `code=z${trial}`], { env: { ...ENV, REPLYD_URL: url }, stderr: "pipe" });
    if ((await add.exited) !== 0) failures.push(`trial ${trial}: store not writable after restart: ${await new Response(add.stderr).text()}`);
    proc.kill("SIGTERM");
    if ((await proc.exited) !== 0) failures.push(`trial ${trial}: server did not exit 0 on SIGTERM`);
    if (copiesOf(proc.pid).length) failures.push(`trial ${trial}: a server stopped by SIGTERM left its read copy`);
    await store.forget(dir);
    rmSync(dir, { recursive: true, force: true });
    process.stderr.write(`\rtrial ${trial + 1}/${TRIALS}: ${outcomes.old} old, ${outcomes.new} new, ${failures.length} failed`);
  }
  log = await logKillTrials(LOG_TRIALS, root, start, store);
  // The log's batching bounds the loss: a crash may cost the batch being handed over (10 ms) and the
  // one being committed; far more than that means a message was held somewhere it should not be.
  if (log.max_window_ms > LOG_WINDOW_BOUND_MS) failures.push(`log: answered messages lost from ${log.max_window_ms} ms before the kill (bound ${LOG_WINDOW_BOUND_MS} ms)`);
} finally {
  await store.close();
  rmSync(root, { recursive: true, force: true });
}
process.stderr.write("\n");
console.log(
  JSON.stringify({ store: STORE, trials: TRIALS, articles: ARTICLES, old_state: outcomes.old, new_state: outcomes.new, failures: failures.length, write_ms: Object.fromEntries(Object.entries(durations).map(([k, v]) => [k, Math.round(v)])), ...log }),
);
for (const f of failures) console.error(f);
process.exit(failures.length ? 1 : 0);
