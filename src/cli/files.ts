import { closeSync, fstatSync, fsyncSync, linkSync, lstatSync, openSync, readFileSync, readSync, renameSync, rmSync, statSync, writeSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { memorySource, type ByteSource } from "../doc/byte-source.ts";
import { fsyncDir } from "../base/fsutil.ts";
import { newNonce } from "../sign.ts";
import { CLIError } from "./errors.ts";
import type { IO } from "./io.ts";

/** What the system said, in words an operator reads (the raw code after it, for searching). */
const REASONS: Record<string, string> = {
  ENOENT: "no such file",
  EACCES: "permission denied",
  EPERM: "permission denied",
  EISDIR: "it is a folder, not a file",
  ENOTDIR: "a part of the path is not a folder",
  ELOOP: "too many symbolic links",
  ENAMETOOLONG: "the name is too long",
  EMFILE: "too many open files",
  EIO: "the disk could not be read",
};
export function fileReason(e: unknown): string {
  const code = (e as NodeJS.ErrnoException).code;
  if (code && REASONS[code]) return `${REASONS[code]} (${code})`;
  return code ?? (e as Error).message;
}

/** A small local file read whole (a menu, a picture). */
export function readLocal(io: IO, file: string): { path: string; bytes: Uint8Array } {
  const path = resolve(io.cwd, file);
  try {
    return { path, bytes: new Uint8Array(readFileSync(path)) };
  } catch (e) {
    throw new CLIError("no_file", `cannot read ${file}: ${fileReason(e)}`);
  }
}

/** A local file read in pieces, never whole: a document of any size is checked and sent from disk. */
export interface LocalFile {
  readonly path: string;
  readonly name: string;
  readonly size: number;
  /** The file as a document source; `onRead` sees how far reading got. */
  source(onRead?: (position: number) => void): ByteSource;
  /** The bytes from `position`, up to `length`, in a new buffer (shorter at the end). */
  read(position: number, length: number): Uint8Array;
  close(): void;
}

export function openLocal(io: IO, file: string): LocalFile {
  const path = resolve(io.cwd, file);
  let fd: number;
  let size: number;
  try {
    fd = openSync(path, "r");
  } catch (e) {
    throw new CLIError("no_file", `cannot read ${file}: ${fileReason(e)}`);
  }
  try {
    const st = fstatSync(fd);
    if (st.isDirectory()) throw Object.assign(new Error("a folder"), { code: "EISDIR" });
    size = st.size;
  } catch (e) {
    closeSync(fd);
    throw new CLIError("no_file", `cannot read ${file}: ${fileReason(e)}`);
  }
  const readAt = (into: Uint8Array, offset: number, length: number, position: number) => {
    try {
      return readSync(fd, into, offset, length, position);
    } catch (e) {
      throw new CLIError("no_file", `cannot read ${file}: ${fileReason(e)}`);
    }
  };
  return {
    path,
    name: basename(path),
    size,
    source: (onRead) => ({
      size,
      read(into, offset, length, position) {
        const n = readAt(into, offset, length, position);
        onRead?.(position + n);
        return n;
      },
    }),
    read(position, length) {
      const out = new Uint8Array(Math.max(0, Math.min(length, size - position)));
      let got = 0;
      while (got < out.length) {
        const n = readAt(out, got, out.length - got, position + got);
        if (n === 0) break;
        got += n;
      }
      return out.subarray(0, got);
    },
    close: () => closeSync(fd),
  };
}

/** Bytes made on the laptop (a CSV read as a document) as a local file: checked and sent as one, nothing written to disk. */
export function memoryFile(name: string, bytes: Uint8Array): LocalFile {
  return {
    path: name,
    name,
    size: bytes.length,
    source: (onRead) => {
      const whole = memorySource(bytes);
      return {
        ...whole,
        read(into, offset, length, position) {
          const n = whole.read(into, offset, length, position);
          onRead?.(position + n);
          return n;
        },
      };
    },
    read: (position, length) => bytes.slice(position, position + Math.max(0, length)),
    close: () => {},
  };
}

/**
 * `dir` takes a new file: one is made and removed (permissions, a read-only or missing folder all
 * show). Named apart from a download's temp file (`.part`): the Ctrl-C test had taken the probe,
 * there and gone in a moment, for the download's (a fresh clone's run failed so, three times).
 */
export function checkFolder(dir: string, then: string): void {
  const probe = join(dir, `.replyd-${newNonce()}.probe`);
  try {
    closeSync(openSync(probe, "wx", 0o600));
  } catch (e) {
    throw new CLIError("cannot_write", `cannot write in ${dir}: ${fileReason(e)}; ${then}`);
  }
  rmSync(probe, { force: true });
}

/**
 * `target` can take a download, checked before anything is asked of the server (`then` says what
 * was not done): its folder takes a new file; it is not there already unless `force`, and what
 * `force` would replace is a file (never a folder, a device or a pipe).
 */
export function checkTarget(target: string, force: boolean, then: string): void {
  let there = false;
  try {
    there = Boolean(lstatSync(target));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw new CLIError("cannot_write", `cannot write ${target}: ${fileReason(e)}; ${then}`);
  }
  if (there) {
    let kind = "a link to nothing";
    try {
      const st = statSync(target);
      kind = st.isFile() ? "file" : st.isDirectory() ? "a folder" : "not a regular file";
    } catch {}
    if (kind !== "file") throw new CLIError("cannot_write", `${target} is ${kind}, not a file to write; ${then}`);
    if (!force) throw new CLIError("file_exists", `${target} exists; ${then} (--force replaces it)`);
  }
  checkFolder(dirname(target), then);
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
    throw new CLIError("cannot_write", `cannot write in ${dir}: ${fileReason(e)}`);
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
    throw new CLIError("cannot_write", `cannot write ${target}: ${fileReason(e)}`);
  }
  fsyncDir(dirname(target));
}
