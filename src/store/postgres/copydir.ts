/**
 * The folder of `serve --db`'s local read copy. It is removed when the server stops; a server killed
 * with -9 (or by the OOM killer, or a power cut of a host that keeps /tmp) cannot, and at 1M articles
 * its copy is a gigabyte: each folder names its owner's pid, and every start removes the folders
 * whose owner is gone before making its own.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const PREFIX = "replyd-copy-";
const OWNER = "owner";
/** A folder without an owner file is one being made right now, unless it is older than this. */
const UNOWNED_GRACE_MS = 60_000;

/** Copies this process made: alive whatever the pid says (several servers in one process, as tests run them). */
const mine = new Set<string>();

function alive(pid: number): boolean {
  // Our own pid in an old folder: a previous run with the same pid (a container's pid 1) is gone.
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: the process exists but belongs to someone else.
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Removes the copies whose server is gone; answers the folders removed. */
export function sweepStaleCopies(root = tmpdir(), now = Date.now()): string[] {
  const removed: string[] = [];
  let names: string[];
  try {
    names = readdirSync(root).filter((n) => n.startsWith(PREFIX));
  } catch {
    return removed;
  }
  for (const name of names) {
    const dir = join(root, name);
    if (mine.has(dir)) continue;
    try {
      let stale: boolean;
      try {
        stale = !alive(Number(readFileSync(join(dir, OWNER), "utf8").trim()));
      } catch {
        stale = now - statSync(dir).mtimeMs > UNOWNED_GRACE_MS;
      }
      if (stale) {
        rmSync(dir, { recursive: true, force: true });
        removed.push(dir);
      }
    } catch {
      // Another start removing it at the same moment, or not ours to remove: leave it.
    }
  }
  return removed;
}

/** A new copy folder owned by this process. */
export function makeCopyDir(root = tmpdir()): string {
  const dir = mkdtempSync(join(root, PREFIX));
  mine.add(dir);
  writeFileSync(join(dir, OWNER), String(process.pid));
  return dir;
}
