import { closeSync, constants, openSync, unlinkSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fdSource, readAll, type ByteSource } from "../doc/byte-source.ts";
import { ReplydError } from "../base/errors.ts";

/**
 * A file part received to disk rather than into memory: a 1M-article import (300 MB) would otherwise
 * be held whole by the server, and joined into one buffer besides. The file is unlinked as soon as
 * it is created, so it lives exactly as long as its descriptor: a crash or kill -9 leaves nothing.
 */
export class Upload {
  size = 0;
  private readonly hasher = new Bun.CryptoHasher("md5");
  private closed = false;

  private constructor(private readonly fd: number) {}

  /** `dir`: the data folder (the disk the data is on), or the system's temp folder. */
  static create(dir: string = tmpdir()): Upload {
    const path = join(dir, `.replyd-upload-${crypto.randomUUID()}`);
    let fd: number;
    try {
      fd = openSync(path, constants.O_RDWR | constants.O_CREAT | constants.O_EXCL, 0o600);
    } catch (e) {
      throw new ReplydError("upload_failed", `the server cannot receive an upload: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
    }
    unlinkSync(path);
    return new Upload(fd);
  }

  /** Appends a chunk as it arrives; its md5 (for the signature) is computed on the way. */
  write(chunk: Uint8Array): void {
    this.hasher.update(chunk);
    let done = 0;
    try {
      while (done < chunk.length) done += writeSync(this.fd, chunk, done, chunk.length - done);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === "ENOSPC" || code === "EDQUOT") throw new ReplydError("disk_full", "the server's disk is full: the upload could not be received; nothing was written");
      throw e;
    }
    this.size += chunk.length;
  }

  md5(): string {
    return this.hasher.digest("hex");
  }

  /** The bytes read piece by piece (documents). */
  source(): ByteSource {
    return fdSource(this.fd, this.size);
  }

  /** The whole file in memory (small uploads: images, menus). */
  bytes(): Uint8Array {
    return readAll(this.source());
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    closeSync(this.fd);
  }
}
