import type { SQL } from "bun";
import { ReplydError } from "../../base/errors.ts";
import type { AdminKey, Keys, Scope } from "../keys.ts";

/** A row of admin_keys; `account` null: the key reaches every account. */
export type AdminRow = { appkey: string; secret: string; scope: Scope; created_at: string | null; note: string | null; account: string | null };

export const keyOfRow = (r: AdminRow): AdminKey => ({
  appkey: r.appkey,
  secret: r.secret,
  scope: r.scope,
  ...(r.created_at ? { created_at: r.created_at } : {}),
  ...(r.note ? { note: r.note } : {}),
  ...(r.account ? { account: r.account } : {}),
});

/**
 * The admin keys kept in the database, read again every second in the background, so a key added
 * or revoked through any instance (`replyd keys … --db`) counts within a second. While they cannot
 * be read (the database is away) for longer than `staleMs`, every admin request is refused 503
 * `database_unavailable`: a revocation might have been missed, and nothing could be written anyway.
 * Followers are answered all the while; the callback never asks for keys.
 */
export class PgKeyRing implements Keys {
  private keys = new Map<string, AdminKey>();
  private loadedAt = -Infinity;
  private timer: ReturnType<typeof setInterval> | null = null;
  private loading: Promise<void> | null = null;
  /** Why the last read failed, while the keys are stale. */
  lastError: string | null = null;

  private constructor(
    private readonly sql: SQL,
    private readonly extra: AdminKey[],
    private readonly staleMs: number,
  ) {}

  /** Reads the keys once (throws when the database cannot be read), then every `everyMs`. */
  static async open(sql: SQL, extra: AdminKey[] = [], opts: { everyMs?: number; staleMs?: number } = {}): Promise<PgKeyRing> {
    const ring = new PgKeyRing(sql, extra, opts.staleMs ?? 5000);
    await ring.load();
    ring.timer = setInterval(() => ring.refresh(), opts.everyMs ?? 1000);
    ring.timer.unref?.();
    return ring;
  }

  private async load(): Promise<void> {
    const rows = (await this.sql`SELECT appkey, secret, scope, created_at, note, account FROM admin_keys`) as (AdminRow & { secret: string })[];
    const next = new Map<string, AdminKey>();
    for (const r of rows) next.set(r.appkey, keyOfRow(r));
    for (const k of this.extra) next.set(k.appkey, k);
    this.keys = next;
    this.loadedAt = performance.now();
    this.lastError = null;
  }

  private refresh(): void {
    this.loading ??= this.load()
      .catch((e) => void (this.lastError = (e as Error).message))
      .finally(() => (this.loading = null));
  }

  check(): void {
    if (performance.now() - this.loadedAt > this.staleMs)
      throw new ReplydError("database_unavailable", "the database cannot be reached: admin requests are refused until it answers again (followers are still answered)", { retry_after: 5 });
  }

  lookup(appkey: string): AdminKey | undefined {
    this.check();
    return this.keys.get(appkey);
  }

  lastRead(appkey: string): AdminKey | undefined {
    return this.keys.get(appkey);
  }

  get size(): number {
    return this.keys.size;
  }

  close(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}
