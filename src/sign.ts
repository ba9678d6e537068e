/**
 * Request signing shared by the server (verify) and the client (sign): DESIGN §4.
 * canonical = METHOD \n PATH \n sorted RFC 3986 k=v pairs joined by &
 * sign      = lowercase hex md5(canonical + SECRET)
 */

export type Param = readonly [key: string, value: string];

/** Names of the fields that carry the signature itself. */
export const AUTH_FIELDS = ["appkey", "ts", "nonce", "sign"] as const;

export const TS_PATTERN = /^[0-9]{1,12}(\.[0-9]{1,3})?$/;
export const NONCE_PATTERN = /^[A-Za-z0-9_-]{16,64}$/;
export const APPKEY_PATTERN = /^[A-Za-z0-9_.-]{1,64}$/;
export const SIGN_PATTERN = /^[0-9a-f]{32}$/;

export class EncodingError extends Error {}

/** RFC 3986 percent-encoding of UTF-8: only A-Z a-z 0-9 - . _ ~ stay as they are. */
export function rfc3986(value: string): string {
  let encoded: string;
  try {
    encoded = encodeURIComponent(value);
  } catch {
    throw new EncodingError("value is not valid Unicode (lone surrogate)");
  }
  // encodeURIComponent leaves ! ' ( ) * alone; RFC 3986 reserves them.
  return encoded.replace(/[!'()*]/g, (c) => "%" + c.charCodeAt(0).toString(16).toUpperCase());
}

/** The encoded, sorted `k=v&…` part: also a valid query string that reproduces the same params. */
export function canonicalQuery(params: readonly Param[]): string {
  const pairs = params.map(([k, v]) => [rfc3986(k), rfc3986(v)] as const);
  // Encoded strings are ASCII, so code-unit order is byte order.
  pairs.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0));
  return pairs.map(([k, v]) => `${k}=${v}`).join("&");
}

export function canonicalString(method: string, path: string, params: readonly Param[]): string {
  return `${method.toUpperCase()}\n${path}\n${canonicalQuery(params)}`;
}

export function md5hex(data: string | Uint8Array | ArrayBuffer): string {
  return new Bun.CryptoHasher("md5").update(data).digest("hex");
}

/** The signed stand-in for a file part: the server computes it from the bytes it received. */
export function fileParamValue(bytes: Uint8Array | ArrayBuffer): string {
  return "md5:" + md5hex(bytes);
}

export function computeSign(canonical: string, secret: string): string {
  return md5hex(canonical + secret);
}

/** Looks at every byte whatever the first difference, so the time taken says nothing about where it is.
 *  Length is not secret here (a signature is always 32 hex digits), so a length mismatch returns at once. */
export function timingSafeEqualBytes(a: ArrayLike<number>, b: ArrayLike<number>): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= (a[i] as number) ^ (b[i] as number);
  return diff === 0;
}

/** Anything read like a string; lets a test count the reads. */
export interface CharSource {
  readonly length: number;
  charCodeAt(index: number): number;
}

/** The same over UTF-16 code units, without encoding either string first (it runs on every request). */
export function timingSafeEqual(a: CharSource, b: CharSource): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/** Unix seconds with exactly three decimals, as the client sends it. */
export function formatTs(ms: number): string {
  return (Math.floor(ms) / 1000).toFixed(3);
}

/** Milliseconds from a `ts` that matched TS_PATTERN. */
export function parseTs(ts: string): number {
  const [whole = "0", frac = ""] = ts.split(".");
  return Number(whole) * 1000 + Number(frac.padEnd(3, "0"));
}

export function newNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(18));
  return Buffer.from(bytes).toString("base64url");
}

export interface SignInput {
  method: string;
  path: string;
  /** Everything to sign except `sign`: auth fields included, files as `md5:` values. */
  params: readonly Param[];
  secret: string;
}

export function signRequest(input: SignInput): { canonical: string; sign: string } {
  const canonical = canonicalString(input.method, input.path, input.params);
  return { canonical, sign: computeSign(canonical, input.secret) };
}

/** The header that carries an answer's signature (docs/protocol.md, "Signed answers"). */
export const RESPONSE_SIGNATURE_HEADER = "x-replyd-signature";

/**
 * What an answer's signature covers: the request it answers (method, path, nonce: an old answer
 * cannot be replayed for a new request), its status, and the sha256 of its body bytes.
 */
export function responseCanonical(method: string, path: string, nonce: string, status: number, bodySha256: string): string {
  return `replyd-answer/1\n${method.toUpperCase()}\n${path}\n${nonce}\n${status}\n${bodySha256}`;
}

/** sign = lowercase hex md5 of (answer canonical + SECRET), as for requests. */
export function responseSignature(method: string, path: string, nonce: string, status: number, bodySha256: string, secret: string): string {
  return computeSign(responseCanonical(method, path, nonce, status, bodySha256), secret);
}
