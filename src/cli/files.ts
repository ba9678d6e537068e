import { closeSync, fsyncSync, openSync, readFileSync, renameSync, rmSync, writeSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { fsyncDir } from "../fsutil.ts";
import { CLIError } from "./errors.ts";
import type { IO } from "./io.ts";
import { Progress } from "./progress.ts";

export function readLocal(io: IO, file: string): { path: string; bytes: Uint8Array } {
  const path = resolve(io.cwd, file);
  try {
    return { path, bytes: new Uint8Array(readFileSync(path)) };
  } catch (e) {
    throw new CLIError("no_file", `cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
}

/** Streams a response body to a file atomically (temp, fsync, rename), hashing it on the way. */
export async function download(io: IO, res: Response, target: string, label: string): Promise<{ size: number; sha256: string; bytes: Uint8Array[] }> {
  const tmp = join(dirname(target), `.${basename(target)}.${process.pid}.part`);
  const total = Number(res.headers.get("content-length")) || null;
  const progress = new Progress(io, label, total);
  const hasher = new Bun.CryptoHasher("sha256");
  const chunks: Uint8Array[] = [];
  let size = 0;
  const fd = openSync(tmp, "w", 0o600);
  try {
    if (res.body)
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        let off = 0;
        while (off < chunk.length) off += writeSync(fd, chunk, off, chunk.length - off);
        hasher.update(chunk);
        chunks.push(chunk);
        size += chunk.length;
        progress.update(size);
      }
    fsyncSync(fd);
    closeSync(fd);
  } catch (e) {
    try {
      closeSync(fd);
    } catch {}
    rmSync(tmp, { force: true });
    throw new CLIError("download_failed", `download interrupted: ${(e as Error).message}`);
  } finally {
    progress.done();
  }
  renameSync(tmp, target);
  fsyncDir(dirname(target));
  return { size, sha256: hasher.digest("hex"), bytes: chunks };
}
