/** The callback's body: read within its cap (never truncated), and strictly UTF-8. */
import { WxError } from "./crypto.ts";

const UTF8 = new TextDecoder("utf-8", { fatal: true });

export const tooLarge = () => new WxError("too_large", "body too large");

/**
 * The body's bytes, refused (not truncated) past `max`. Not an async function: with a declared
 * length the body is one read, and the callback awaits that read itself, one promise fewer.
 */
export function bodyBytes(request: Request, max: number): Promise<Uint8Array> {
  const declared = request.headers.get("content-length");
  if (declared === null) return readChunked(request, max);
  if (Number(declared) > max) throw tooLarge();
  return request.bytes();
}

/** No length (chunked): count as it arrives and stop at the cap. */
async function readChunked(request: Request, max: number): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (request.body)
    for await (const chunk of request.body as unknown as AsyncIterable<Uint8Array>) {
      size += chunk.length;
      if (size > max) throw tooLarge();
      chunks.push(chunk);
    }
  return Buffer.concat(chunks);
}

/** fatal: invalid UTF-8 is bad input, not something to guess about. */
export function utf8(bytes: Uint8Array): string {
  try {
    return UTF8.decode(bytes);
  } catch {
    throw new WxError("bad_encoding", "the body is not UTF-8");
  }
}
