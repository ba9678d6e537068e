/**
 * Where a document's bytes are read from: an upload spooled to disk, a backup file, or bytes
 * already in memory. One interface, so the scanner reads every kind through the same bounded
 * window and nothing above it asks which kind it holds.
 */
import { readSync } from "node:fs";

/** Where a document's bytes are read from. */
export interface ByteSource {
  readonly size: number;
  /** Copies up to `length` bytes from `position` into `into` at `offset`; answers how many (0 at the end). */
  read(into: Uint8Array, offset: number, length: number, position: number): number;
  /** The whole content, when it is in memory already: scanned in place, never copied. */
  readonly whole?: Uint8Array;
}

export const memorySource = (bytes: Uint8Array): ByteSource => ({
  size: bytes.length,
  whole: bytes,
  read(into, offset, length, position) {
    const piece = bytes.subarray(position, position + length);
    into.set(piece, offset);
    return piece.length;
  },
});

/** A file open for reading (an upload's spool file, a backup). */
export const fdSource = (fd: number, size: number): ByteSource => ({
  size,
  read: (into, offset, length, position) => readSync(fd, into, offset, length, position),
});

/** The whole source in memory (for the rare file the piecewise reader leaves to JSON.parse). */
export function readAll(src: ByteSource): Uint8Array {
  if (src.whole) return src.whole;
  const out = new Uint8Array(src.size);
  let got = 0;
  while (got < src.size) {
    const n = src.read(out, got, src.size - got, got);
    if (n === 0) break;
    got += n;
  }
  return out.subarray(0, got);
}
