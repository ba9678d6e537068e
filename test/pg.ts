/**
 * A throwaway PostgreSQL cluster on loopback for the tests that need one (issue 14): initdb into a
 * temp folder, started on a free port, removed when stopped. PostgreSQL refuses to run as root, so
 * as root (CI) the cluster belongs to the `postgres` user the Debian package creates and every
 * command runs through `runuser`. `./scripts/test` installs the package when it is missing.
 *
 * The locale is C.UTF-8: under plain C, pg_trgm sees no letters in Chinese text and makes no
 * trigrams of it.
 */
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface Postgres {
  /** postgres://postgres@127.0.0.1:PORT/replyd */
  url: string;
  port: number;
  /** The cluster's folder (data, socket, log), removed by stop(). */
  dir: string;
  stop(): void;
  /** Shuts the server down (fast: connections are cut), keeping its data; resume() starts it again on the same port. */
  halt(): void;
  resume(): void;
}

/** The newest installed server's bin folder (Debian: /usr/lib/postgresql/<major>/bin): initdb, pg_ctl, pg_dump, pg_restore… */
export function binDir(): string {
  const root = "/usr/lib/postgresql";
  const versions = existsSync(root) ? readdirSync(root).filter((v) => /^\d+$/.test(v) && existsSync(join(root, v, "bin", "initdb"))) : [];
  if (!versions.length) throw new Error("PostgreSQL is not installed (initdb not found under /usr/lib/postgresql): ./scripts/test installs it with apt-get install postgresql");
  return join(root, versions.sort((a, b) => Number(b) - Number(a))[0] as string, "bin");
}

function freePort(): number {
  const s = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const port = s.port;
  s.stop(true);
  return port;
}

export function startPostgres(opts: { durable?: boolean } = {}): Postgres {
  const bin = binDir();
  const root = process.getuid?.() === 0;
  const dir = mkdtempSync(join(tmpdir(), "replyd-pg-"));
  // By its path: as root it lives in /usr/sbin, which a PATH like CI's may not hold.
  const runuser = ["/usr/sbin/runuser", "/sbin/runuser", "/usr/bin/runuser"].find((p) => existsSync(p)) ?? "runuser";
  const as = (cmd: string[]) => (root ? [runuser, "-u", "postgres", "--", ...cmd] : cmd);
  const run = (cmd: string[]) => {
    const p = Bun.spawnSync(as(cmd), { stdout: "pipe", stderr: "pipe" });
    if (p.exitCode !== 0) throw new Error(`${cmd[0]?.split("/").pop()} failed (${p.exitCode}): ${p.stderr.toString().trim().slice(-600)}`);
    return p.stdout.toString();
  };
  if (root) {
    const uid = Number(Bun.spawnSync(["id", "-u", "postgres"]).stdout.toString().trim());
    const gid = Number(Bun.spawnSync(["id", "-g", "postgres"]).stdout.toString().trim());
    if (!uid) {
      rmSync(dir, { recursive: true, force: true });
      throw new Error("running as root, but there is no postgres user to run PostgreSQL as (the Debian package creates it)");
    }
    chownSync(dir, uid, gid);
    chmodSync(dir, 0o700);
  }
  const data = join(dir, "data");
  const stop = () => {
    Bun.spawnSync(as([join(bin, "pg_ctl"), "-D", data, "-m", "immediate", "-w", "stop"]), { stdout: "ignore", stderr: "ignore" });
    rmSync(dir, { recursive: true, force: true });
  };
  // A start that fails part-way (no runuser, initdb refused) leaves nothing behind either.
  try {
    run([join(bin, "initdb"), "-D", data, "--auth=trust", "--encoding=UTF8", "--locale=C.UTF-8", "-U", "postgres"]);
    const port = freePort();
    // Tests that kill the server to check durability need fsync; the others run faster without.
    // The app suites on PostgreSQL open a pool per test app (up to 10 connections, and 5 an account
    // more), closed as each test ends: the default 100 connections were once all taken while the
    // closed pools' sessions were still ending (a fresh-clone run, "too many clients already").
    const settings = `-c listen_addresses=127.0.0.1 -p ${port} -k ${dir} -c max_connections=300 -c fsync=${opts.durable ? "on" : "off"} -c full_page_writes=${opts.durable ? "on" : "off"}`;
    const start = () => run([join(bin, "pg_ctl"), "-D", data, "-l", join(dir, "server.log"), "-o", settings, "-w", "-t", "30", "start"]);
    start();
    run([join(bin, "psql"), "-h", "127.0.0.1", "-p", String(port), "-U", "postgres", "-d", "postgres", "-q", "-c", "CREATE DATABASE replyd"]);
    const halt = () => void run([join(bin, "pg_ctl"), "-D", data, "-m", "fast", "-w", "stop"]);
    return { url: `postgres://postgres@127.0.0.1:${port}/replyd`, port, dir, stop, halt, resume: start };
  } catch (e) {
    stop();
    throw e;
  }
}

let shared: Postgres | null = null;
let databases = 0;

/** Clients still closing (a test's app closed without waiting): the cluster stops after them. */
const closing = new Set<Promise<unknown>>();
export function closingClient(done: Promise<unknown>): void {
  closing.add(done);
  void done.finally(() => closing.delete(done));
}

/**
 * Stops the cluster testDatabase() started: test/setup.ts (preloaded) does, after the whole run —
 * once the clients still closing are closed: stopping the server under a client that is closing
 * was seen to hold pg_ctl for its full minute.
 */
export async function stopSharedCluster(): Promise<void> {
  await Promise.race([Promise.allSettled([...closing]), Bun.sleep(15_000)]);
  shared?.stop();
  shared = null;
}

/**
 * A fresh database on a cluster shared by the whole test run (started at the first call, stopped
 * after the last file): for suites that run against PostgreSQL once per test.
 */
export async function testDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  shared ??= startPostgres();
  const cluster = shared;
  const name = `db${process.pid}_${++databases}`;
  const { SQL } = await import("bun");
  const admin = new SQL(shared.url);
  try {
    await admin.unsafe(`CREATE DATABASE ${name}`);
  } finally {
    await admin.close();
  }
  return {
    url: shared.url.replace(/\/replyd$/, `/${name}`),
    // Each database costs the cluster megabytes on disk: a run of hundreds keeps only the open ones.
    drop: async () => {
      const admin = new SQL(cluster.url);
      try {
        await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } catch {
        // The cluster was stopped first (the end of the run): nothing is left to drop.
      } finally {
        await admin.close();
      }
    },
  };
}
