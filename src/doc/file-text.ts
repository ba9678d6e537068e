/**
 * A file's bytes as text: strict UTF-8, one decoder for the scanner's pieces, a whole document and
 * a menu file, so that every path refuses the same bytes with the same error.
 */
import { ReplydError } from "../base/errors.ts";

const STRICT_UTF8 = new TextDecoder("utf-8", { fatal: true });

/** An uploaded file's text; bytes that are not UTF-8 are refused rather than guessed at. */
export function decodeUtf8(bytes: Uint8Array): string {
  try {
    return STRICT_UTF8.decode(bytes);
  } catch {
    throw new ReplydError("bad_encoding", "the file is not UTF-8 text");
  }
}
