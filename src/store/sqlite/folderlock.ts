/**
 * One server per data folder. A second `replyd serve` on the same folder would start silently with
 * its own retry answers, nonces and log writer over the same database (replays accepted, messages
 * answered twice). The lock is SQLite's own exclusive lock on a small file, held for the server's
 * life: the operating system drops it with the process, kill -9 included, so no stale lock is left
 * to clear by hand. The holder's pid is written beside it, for the refusal's message, and removed
 * on a clean stop. Both files are the owner's alone (0600), and the lock keeps no journal file.
 */
import { Database } from "bun:sqlite";
import { chmodSync, closeSync, openSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export class FolderInUse extends Error {}

export interface FolderLock {
  release(): void;
}

export function lockDataFolder(dir: string): FolderLock {
  const lockFile = join(dir, "serve.lock");
  // Made (or kept) 0600 before SQLite opens it: what SQLite makes beside a database takes its mode.
  closeSync(openSync(lockFile, "a", 0o600));
  chmodSync(lockFile, 0o600);
  const db = new Database(lockFile, { create: true });
  const pidFile = join(dir, "serve.pid");
  try {
    db.exec("PRAGMA busy_timeout = 0");
    db.exec("PRAGMA journal_mode = MEMORY");
    db.exec("PRAGMA locking_mode = EXCLUSIVE");
    // The first write takes the exclusive lock, and in this locking mode it is kept until close.
    db.exec("BEGIN EXCLUSIVE; CREATE TABLE IF NOT EXISTS holder (pid INTEGER); COMMIT;");
  } catch (e) {
    db.close();
    let pid = "";
    try {
      pid = readFileSync(pidFile, "utf8").trim();
    } catch {}
    if ((e as { code?: string }).code?.startsWith("SQLITE_BUSY"))
      throw new FolderInUse(`another replyd serve is using the data folder ${dir}${/^\d+$/.test(pid) ? ` (pid ${pid})` : ""}: stop it first, or give this one another --data`);
    throw e;
  }
  writeFileSync(pidFile, `${process.pid}\n`, { mode: 0o600 });
  chmodSync(pidFile, 0o600);
  return {
    release: () => {
      // Removed while the lock is still held: no other server can have written its own meanwhile.
      try {
        if (readFileSync(pidFile, "utf8").trim() === String(process.pid)) rmSync(pidFile, { force: true });
      } catch {}
      db.close();
    },
  };
}
