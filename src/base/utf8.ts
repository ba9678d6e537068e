/** Text cut to a number of UTF-8 bytes (the platform's limits are in bytes), never inside a character. */

/** The longest prefix of `s` within `maxBytes` of UTF-8. */
export function utf8Prefix(s: string, maxBytes: number): string {
  let bytes = 0;
  let i = 0;
  for (const ch of s) {
    const n = Buffer.byteLength(ch);
    if (bytes + n > maxBytes) break;
    bytes += n;
    i += ch.length;
  }
  return s.slice(0, i);
}

/** `s` whole when it fits `maxBytes`, else cut with "…" (3 bytes) at the end, within the bytes. */
export function truncateUtf8(s: string, maxBytes: number): string {
  if (Buffer.byteLength(s) <= maxBytes) return s;
  return utf8Prefix(s, maxBytes - 3) + "…";
}
