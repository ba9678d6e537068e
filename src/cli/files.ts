import { closeSync, fsyncSync, linkSync, openSync, readFileSync, renameSync, rmSync, writeSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fsyncDir } from "../fsutil.ts";
import { newNonce } from "../sign.ts";
import { CLIError } from "./errors.ts";
import type { IO } from "./io.ts";

export function readLocal(io: IO, file: string): { path: string; bytes: Uint8Array } {
  const path = resolve(io.cwd, file);
  try {
    return { path, bytes: new Uint8Array(readFileSync(path)) };
  } catch (e) {
    throw new CLIError("no_file", `cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
}

/** Temp files of downloads in progress: removed if the process is interrupted (Ctrl-C, SIGTERM). */
const partial = new Set<string>();
const interrupted = (signal: NodeJS.Signals) => {
  for (const path of partial) rmSync(path, { force: true });
  process.exit(signal === "SIGINT" ? 130 : 143);
};

/** A new, private temp file in `dir` receiving a download, at most `limit` bytes. */
export function fileSink(dir: string, limit: number) {
  const path = join(dir, `.replyd-${newNonce()}.part`);
  // Watched before it exists: a Ctrl-C the moment it is created still removes it.
  if (partial.size === 0) {
    process.on("SIGINT", interrupted);
    process.on("SIGTERM", interrupted);
  }
  partial.add(path);
  let fd: number;
  try {
    fd = openSync(path, "wx", 0o600);
  } catch (e) {
    forget();
    throw new CLIError("cannot_write", `cannot write in ${dir}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  function forget() {
    partial.delete(path);
    if (partial.size === 0) {
      process.off("SIGINT", interrupted);
      process.off("SIGTERM", interrupted);
    }
  }
  let open = true;
  const close = () => {
    if (!open) return;
    open = false;
    closeSync(fd);
  };
  return {
    path,
    limit,
    write(chunk: Uint8Array) {
      let off = 0;
      while (off < chunk.length) off += writeSync(fd, chunk, off, chunk.length - off);
    },
    /** All written: flushed to disk, still a temp file (place() or discard() next). */
    finish() {
      fsyncSync(fd);
      close();
      forget();
    },
    discard() {
      try {
        close();
      } catch {}
      rmSync(path, { force: true });
      forget();
    },
  };
}

/**
 * Moves a checked temp file to `target`. An existing file is never replaced unless `force`: without
 * it the file is linked in (which fails if the name exists) and the temp name removed. The temp file
 * is gone afterwards either way.
 */
export function placeFile(tmp: string, target: string, force: boolean): void {
  try {
    if (force) renameSync(tmp, target);
    else {
      linkSync(tmp, target);
      rmSync(tmp, { force: true });
    }
  } catch (e) {
    rmSync(tmp, { force: true });
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "EEXIST") throw new CLIError("file_exists", `${target} exists; nothing was written (--force replaces it)`);
    throw new CLIError("cannot_write", `cannot write ${target}: ${code ?? (e as Error).message}`);
  }
  fsyncDir(dirname(target));
}
