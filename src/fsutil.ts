import { chmodSync, closeSync, existsSync, fsyncSync, mkdirSync, openSync, readdirSync, renameSync, rmSync, writeSync } from "node:fs";
import { dirname, join, basename } from "node:path";

/**
 * The data folder holds follower OpenIDs and texts: readable by the server's user only. Folders are
 * created 0700 and files 0600, and whatever an older version left wider is narrowed when opened.
 */
export const PRIVATE_FILE = 0o600;
export const PRIVATE_DIR = 0o700;

/** Creates the folder if needed and makes it (and the files directly in it, with `files`) private. */
export function privateDir(dir: string, files = false): void {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR });
  chmodSync(dir, PRIVATE_DIR);
  if (files) for (const e of readdirSync(dir, { withFileTypes: true })) if (e.isFile()) chmodSync(join(dir, e.name), PRIVATE_FILE);
}

/** Narrows these files to 0600 where they exist. */
export function privateFiles(...paths: string[]): void {
  for (const p of paths) if (existsSync(p)) chmodSync(p, PRIVATE_FILE);
}

/**
 * Why a file holding secrets (keys.json, a config file with a key in it) must not be used: any bit for
 * the group or others, as ssh refuses a private key. Readable, it gives the secrets away; writable,
 * it lets another user choose the keys or the settings. Null when only its owner has it — and on
 * Windows, where the mode is made up from the read-only flag (0o666 for any writable file) and who may
 * open a file is an ACL the mode does not show: there, every file would be refused for nothing.
 */
export function openToOthers(path: string, mode: number, platform: NodeJS.Platform = process.platform): string | null {
  if (platform === "win32" || (mode & 0o077) === 0) return null;
  const how = [mode & 0o044 && "read", mode & 0o022 && "written", !(mode & 0o066) && "opened"].filter(Boolean).join(" and ");
  return `${path} can be ${how} by other users (mode ${(mode & 0o777).toString(8).padStart(4, "0")}); run: chmod 600 ${path}`;
}

/** Flushes a directory entry so a rename inside it survives a power cut. */
export function fsyncDir(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, "r");
    fsyncSync(fd);
  } catch {
    // Some filesystems refuse fsync on directories; the rename is still atomic.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * Writes a file so readers see either the old content or the new one, whole:
 * temp file beside the target, fsync, rename, fsync the directory.
 * `fill` receives a write function; chunks are buffered into large writes.
 */
export function atomicWrite(path: string, fill: (write: (chunk: string | Uint8Array) => void) => void, mode = PRIVATE_FILE): number {
  const tmp = join(dirname(path), `.${basename(path)}.${process.pid}.${Date.now()}.tmp`);
  const fd = openSync(tmp, "wx", mode);
  let size = 0;
  let pending: string[] = [];
  let pendingLength = 0;
  const flush = () => {
    if (!pending.length) return;
    const buf = Buffer.from(pending.join(""), "utf8");
    pending = [];
    pendingLength = 0;
    let off = 0;
    while (off < buf.length) off += writeSync(fd, buf, off, buf.length - off);
    size += buf.length;
  };
  try {
    fill((chunk) => {
      if (typeof chunk === "string") {
        pending.push(chunk);
        pendingLength += chunk.length;
        if (pendingLength >= 1 << 20) flush();
      } else {
        flush();
        let off = 0;
        while (off < chunk.length) off += writeSync(fd, chunk, off, chunk.length - off);
        size += chunk.length;
      }
    });
    flush();
    fsyncSync(fd);
    closeSync(fd);
  } catch (e) {
    try {
      closeSync(fd);
    } catch {}
    rmSync(tmp, { force: true });
    throw e;
  }
  try {
    renameSync(tmp, path);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  }
  fsyncDir(dirname(path));
  return size;
}
