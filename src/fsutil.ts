import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from "node:fs";
import { dirname, join, basename } from "node:path";

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
export function atomicWrite(path: string, fill: (write: (chunk: string | Uint8Array) => void) => void, mode = 0o644): number {
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
