import { closeSync, openSync, readdirSync, readSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import type { Clock } from "../../base/clock.ts";
import { isMatter, type Matter } from "../../doc/document.ts";
import { atomicWrite, privateDir } from "../../base/fsutil.ts";
import { BACKUP_ID, backupId, isBackupId, type BackupInfo, type BackupKind } from "../backup-ids.ts";

const isoOfStamp = (s: string) =>
  `${s.slice(0, 4)}-${s.slice(4, 6)}-${s.slice(6, 8)}T${s.slice(9, 11)}:${s.slice(11, 13)}:${s.slice(13, 15)}.${s.slice(15, 18)}Z`;

/** Temp files of backups being written (fsutil's atomicWrite): what a kill -9 mid-backup leaves. */
const TEMP_FILE = /^\..+\.tmp$/;

/**
 * Server-side backups: one JSON document per file in `<data>/backups`, kept to `keep` per matter.
 *
 * A backup's stamp (in its id, and its created_at) is the time it was taken, or 1 ms after the
 * newest backup's when the clock is behind that (a dead RTC, NTP not yet synced, backups taken while
 * the clock was ahead): stamps never go back, so the backup just written is always the newest and
 * pruning, which goes by stamp, can never delete it.
 */
export class BackupFiles {
  private lastStamp = 0;
  /** Temp files left by a backup cut short (kill -9), removed when the store opened. */
  readonly tempRemovedAtStart: number;

  constructor(
    readonly dir: string,
    private readonly clock: Clock,
    readonly keep: number,
  ) {
    privateDir(dir, true);
    let removed = 0;
    for (const name of readdirSync(dir))
      if (TEMP_FILE.test(name)) {
        rmSync(join(dir, name), { force: true });
        removed++;
      }
    this.tempRemovedAtStart = removed;
    const newest = this.list()[0];
    this.lastStamp = newest ? Date.parse(newest.created_at) : 0;
  }

  /** Writes a backup atomically: `write` gets a sink and must return the document's sha256. */
  create(matter: Matter, kind: BackupKind, write: (sink: (chunk: string) => void, createdAt: string) => string): BackupInfo {
    // The folder may have been deleted under the running server: made again, not a 500.
    privateDir(this.dir);
    const ms = Math.max(this.clock.now(), this.lastStamp + 1);
    this.lastStamp = ms;
    const id = backupId(matter, kind, ms);
    const createdAt = new Date(ms).toISOString();
    let sha = "";
    const size = atomicWrite(this.pathOf(id), (sink) => {
      sha = write(sink, createdAt);
    });
    this.newestCache = null;
    this.prune(matter);
    return { id, matter, kind, created_at: createdAt, size, sha256: sha };
  }

  pathOf(id: string): string {
    if (!isBackupId(id)) throw new Error(`not a backup id: ${id}`);
    return join(this.dir, `${id}.json`);
  }

  /** Newest first; `matter` omitted lists every matter. */
  list(matter?: Matter): BackupInfo[] {
    const out: BackupInfo[] = [];
    let names: string[];
    try {
      names = readdirSync(this.dir);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === "ENOENT") return []; // deleted under us: no backups
      throw e;
    }
    for (const name of names) {
      if (!name.endsWith(".json")) continue;
      const m = BACKUP_ID.exec(name.slice(0, -5));
      if (!m || !isMatter(m[1])) continue;
      if (matter && m[1] !== matter) continue;
      const id = name.slice(0, -5);
      let size: number;
      try {
        size = statSync(join(this.dir, name)).size;
      } catch {
        continue; // deleted while listing
      }
      out.push({ id, matter: m[1], kind: m[3] as BackupKind, created_at: isoOfStamp(m[2] as string), size, sha256: this.readSha(id) });
    }
    return out.sort((a, b) => (a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : a.id < b.id ? 1 : -1));
  }

  get(matter: Matter, id: string): BackupInfo | null {
    if (!isBackupId(id) || !id.startsWith(matter + "-")) return null;
    return this.list(matter).find((b) => b.id === id) ?? null;
  }

  remove(id: string): void {
    rmSync(this.pathOf(id), { force: true });
    this.newestCache = null;
  }

  private newestCache: { dirMtimeMs: number; info: BackupInfo | null } | null = null;
  private newestCheckedAt = -Infinity;

  /**
   * Cached until the folder changes (its mtime moves on every file created, renamed or removed).
   * Health asks on every call: the folder is looked at once a second at most, and at once after
   * this server's own backups and removals; a file copied in by hand shows within a second.
   */
  newest(): BackupInfo | null {
    const at = performance.now();
    if (this.newestCache && at - this.newestCheckedAt < 1000) return this.newestCache.info;
    this.newestCheckedAt = at;
    let dirMtimeMs: number;
    try {
      dirMtimeMs = statSync(this.dir).mtimeMs;
    } catch {
      return (this.newestCache = { dirMtimeMs: -1, info: null }).info;
    }
    if (this.newestCache?.dirMtimeMs !== dirMtimeMs) this.newestCache = { dirMtimeMs, info: this.list()[0] ?? null };
    return this.newestCache.info;
  }

  /** Keeps the newest `keep`, and whatever else the newest automatic backup is: it holds a state some restore or --init replaced. */
  private prune(matter: Matter): void {
    const all = this.list(matter);
    const newestAuto = all.find((b) => b.kind === "auto")?.id;
    for (const old of all.slice(this.keep)) if (old.id !== newestAuto) this.remove(old.id);
  }

  /** A backup's sha256 is its last field; read only the tail rather than the whole file. */
  private readSha(id: string): string | null {
    let fd: number | undefined;
    try {
      fd = openSync(this.pathOf(id), "r");
      const size = statSync(this.pathOf(id)).size;
      const len = Math.min(size, 96);
      const buf = Buffer.alloc(len);
      readSync(fd, buf, 0, len, size - len);
      return /"sha256":"([0-9a-f]{64})"\}\s*$/.exec(buf.toString("latin1"))?.[1] ?? null;
    } catch {
      return null;
    } finally {
      if (fd !== undefined) closeSync(fd);
    }
  }
}
