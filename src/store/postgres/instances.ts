import type { SQL } from "bun";
import { hostname } from "node:os";
import type { ServedFromEnvironment } from "../keys.ts";
import { processAlive as alive } from "../pid.ts";

/**
 * The instances serving from one database (issue 15). Each start registers, each instance says it
 * is alive every HEARTBEAT_MS, and an entry not heard of for STALE_MS (or, on this host, whose pid
 * has exited: a kill -9 restarted at once) is gone. Two instances without a shared Redis would each
 * accept an admin nonce the other has seen, and answer a resend the other answered: a start that
 * would make such a pair is refused, saying why.
 */
export const HEARTBEAT_MS = 2000;
export const STALE_MS = 10_000;

export interface Instance {
  id: string;
  host: string;
  pid: number;
  url: string | null;
  redis: boolean;
  started_at: string;
  /** Milliseconds since it was last heard of. */
  seen_ms_ago: number;
}

export class InstanceConflict extends Error {}

/** The registrations of this process still running (tests run several instances in one process). */
const registeredHere = new Set<string>();


type Row = { id: string; host: string; pid: number; url: string | null; redis: boolean; started_at: Date; seen_ms_ago: number | string };
const instanceOf = (r: Row): Instance => ({ ...r, pid: Number(r.pid), started_at: new Date(r.started_at).toISOString(), seen_ms_ago: Math.round(Number(r.seen_ms_ago)) });

export class InstanceRegistry {
  readonly id = crypto.randomUUID();
  readonly host = hostname();
  private timer: ReturnType<typeof setInterval> | null = null;
  /** The other instances alive as of the last heartbeat: health shows them. */
  seen: Instance[] = [];
  /** This instance's address, once it listens. */
  url: string | null = null;

  constructor(
    private readonly sql: SQL,
    private readonly redis: boolean,
    /** The appkey this instance takes from its environment (REPLYD_APPKEY), named for `replyd keys`. */
    private readonly envAppkey: string | null = null,
  ) {}

  /** Registers this instance, refusing when it and those alive could not share replay protection. */
  async register(): Promise<void> {
    await this.sql.begin(async (tx) => {
      await tx`SELECT pg_advisory_xact_lock(7320151)`;
      await tx`DELETE FROM instances WHERE seen_at < now() - ${STALE_MS / 1000} * interval '1 second'`;
      const rows = (await tx`SELECT id, host, pid, url, redis, started_at, extract(epoch FROM now() - seen_at) * 1000 AS seen_ms_ago FROM instances`) as Row[];
      const others: Instance[] = [];
      for (const r of rows.map(instanceOf)) {
        // This host's entry whose process is gone; our own pid in an entry this process did not make: a
        // previous run that had the same pid (a container's pid 1).
        const gone = r.host === this.host && (r.pid === process.pid ? !registeredHere.has(r.id) : !alive(r.pid));
        if (gone) await tx`DELETE FROM instances WHERE id = ${r.id}`;
        else others.push(r);
      }
      const name = (o: Instance) => `${o.host} pid ${o.pid}${o.url ? ` (${o.url})` : ""}, heard of ${Math.round(o.seen_ms_ago / 1000)} s ago`;
      if (!this.redis && others.length)
        throw new InstanceConflict(
          `another instance serves from this database (${name(others[0] as Instance)}): instances that share a database must share a Redis (--redis redis://…), or each would accept an admin request the other has seen and answer a resend the other answered. Start every instance with the same --redis, or stop the other one (an instance killed elsewhere counts for ${STALE_MS / 1000} s)`,
        );
      const alone = others.find((o) => !o.redis);
      if (alone) throw new InstanceConflict(`an instance without --redis serves from this database (${name(alone)}): restart it with the same --redis first`);
      // Known as this process's before the row can be read: another instance of this process waiting
      // on the lock reads it once this commits, and must not take it for a previous run's (tests
      // start two at once; it then deleted this row and both started).
      registeredHere.add(this.id);
      await tx`INSERT INTO instances (id, host, pid, url, redis, env_appkey) VALUES (${this.id}, ${this.host}, ${process.pid}, ${this.url}, ${this.redis}, ${this.envAppkey})`;
      // Health knows the others from the start, not only from the first heartbeat.
      this.seen = others;
    }).catch((e) => {
      registeredHere.delete(this.id);
      throw e;
    });
    this.timer = setInterval(() => void this.beat().catch(() => {}), HEARTBEAT_MS);
    this.timer.unref?.();
  }

  /** Says this instance is alive (again, when a long outage let another one remove it) and reads the others. */
  async beat(): Promise<void> {
    const url = this.url;
    const rows = (await this.sql`
      WITH me AS (INSERT INTO instances (id, host, pid, url, redis, env_appkey) VALUES (${this.id}, ${this.host}, ${process.pid}, ${url}, ${this.redis}, ${this.envAppkey})
                  ON CONFLICT (id) DO UPDATE SET seen_at = now(), url = excluded.url RETURNING id)
      SELECT id, host, pid, url, redis, started_at, extract(epoch FROM now() - seen_at) * 1000 AS seen_ms_ago
      FROM instances WHERE id <> ${this.id} AND seen_at >= now() - ${STALE_MS / 1000} * interval '1 second'`) as Row[];
    this.seen = rows.map(instanceOf);
  }

  async unregister(): Promise<void> {
    registeredHere.delete(this.id);
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.sql`DELETE FROM instances WHERE id = ${this.id}`.catch(() => {});
  }
}

/**
 * The keys instances alive on this database take from their environment: `replyd keys --db` names
 * them, and refuses to call one revoked. An instance killed elsewhere counts until it is stale.
 */
export async function environmentKeysOn(sql: SQL): Promise<ServedFromEnvironment[]> {
  const rows = (await sql`
    SELECT id, host, pid, env_appkey FROM instances
    WHERE env_appkey IS NOT NULL AND seen_at >= now() - ${STALE_MS / 1000} * interval '1 second' ORDER BY started_at`) as { id: string; host: string; pid: number; env_appkey: string }[];
  const here = hostname();
  return rows
    .filter((r) => r.host !== here || (Number(r.pid) === process.pid ? registeredHere.has(r.id) : alive(Number(r.pid))))
    .map((r) => ({ appkey: r.env_appkey, server: `the server with pid ${r.pid} on ${r.host}` }));
}
