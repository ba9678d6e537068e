/** A backup's document read from an open file, as both stores hand one out (a file, or a spooled copy). */
import { closeSync, fstatSync } from "node:fs";
import { fdSource, type ByteSource } from "../doc/byte-source.ts";

/** A backup's document, open for reading: as pieces (a restore, a hash) or as a stream (a download). */
export interface OpenBackup {
  size: number;
  source: ByteSource;
  /** The whole document, read from the start; closes the backup when it ends or is cancelled. */
  stream(): ReadableStream<Uint8Array>;
  close(): void;
}

/** An open file as a pull stream of 256 KiB reads, closed when it ends or is cancelled. */
export function openFile(fd: number): OpenBackup {
  const size = fstatSync(fd).size;
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    closeSync(fd);
  };
  const source = fdSource(fd, size);
  return {
    size,
    source,
    close,
    stream: () => {
      let at = 0;
      return new ReadableStream<Uint8Array>({
        pull(controller) {
          const buf = new Uint8Array(Math.min(256 * 1024, size - at));
          const n = buf.length ? source.read(buf, 0, buf.length, at) : 0;
          if (n === 0) {
            close();
            return controller.close();
          }
          at += n;
          controller.enqueue(buf.subarray(0, n));
        },
        cancel: close,
      });
    },
  };
}
