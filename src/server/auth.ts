import type { Clock } from "../clock.ts";
import { ReplydError } from "../errors.ts";
import {
  APPKEY_PATTERN,
  canonicalString,
  computeSign,
  fileParamValue,
  formatTs,
  NONCE_PATTERN,
  parseTs,
  SIGN_PATTERN,
  timingSafeEqual,
  TS_PATTERN,
  type Param,
} from "../sign.ts";
import type { AdminKey, KeyRing } from "../store/keys.ts";
import type { FailureLimiter } from "./limiter.ts";
import type { NonceCache } from "./nonces.ts";

/** What a request carried besides its signature, once the signature has been verified. */
export interface SignedRequest {
  key: AdminKey;
  /** Query parameters and form fields, auth fields removed, in the order sent. */
  fields: Param[];
  /** File parts' bytes, read once: the same bytes were hashed for the signature. */
  files: Map<string, Uint8Array>;
}

export interface AuthOptions {
  keys: KeyRing;
  clock: Clock;
  windowMs: number;
  nonces: NonceCache;
  limiter: FailureLimiter;
  maxUpload: number;
  /**
   * Requests signed before this instant are refused as stale: the nonces they used died with the
   * previous process, so a replay across a restart would otherwise pass.
   */
  notBefore: number;
}

// Used when the appkey is unknown, so the work done (and its time) does not tell whether it exists.
const DUMMY_SECRET = "replyd-no-such-key-" + crypto.randomUUID();

const unauthorized = (code: string, message: string, details?: Record<string, unknown>) => new ReplydError(code, 401, message, details);

/** Reads the request's parameters without trusting any of them yet. */
async function readParams(request: Request, url: URL, maxUpload: number): Promise<{ params: Param[]; files: Map<string, Uint8Array> }> {
  const params: Param[] = [...url.searchParams.entries()];
  const files = new Map<string, Uint8Array>();
  if (request.method !== "POST" && request.method !== "PUT") return { params, files };

  const type = (request.headers.get("content-type") ?? "").toLowerCase();
  if (!type.startsWith("multipart/form-data") && !type.startsWith("application/x-www-form-urlencoded")) {
    if (request.body && (await request.arrayBuffer()).byteLength > 0)
      throw unauthorized("unsigned", "POST and PUT carry their fields as application/x-www-form-urlencoded or multipart/form-data");
    return { params, files };
  }
  let form: Awaited<ReturnType<Request["formData"]>>;
  try {
    form = await request.formData();
  } catch {
    throw unauthorized("unsigned", "the request body is not a readable form, so its signature cannot be checked");
  }
  for (const [name, entry] of form.entries()) {
    const value = entry as string | File;
    if (typeof value === "string") params.push([name, value]);
    else {
      if (value.size > maxUpload) throw new ReplydError("too_large", 413, `the file part "${name}" is larger than the ${maxUpload}-byte upload limit`);
      if (files.has(name)) throw new ReplydError("bad_request", 400, `more than one file part named "${name}"`);
      const bytes = new Uint8Array(await value.arrayBuffer());
      files.set(name, bytes);
      params.push([name, fileParamValue(bytes)]);
    }
  }
  return { params, files };
}

function single(params: Param[], name: string): string {
  const values = params.filter(([k]) => k === name);
  if (values.length === 0) throw unauthorized("unsigned", `the request is not signed: "${name}" is missing`);
  if (values.length > 1) throw unauthorized("unsigned", `"${name}" must appear once`);
  return (values[0] as Param)[1];
}

/**
 * DESIGN §4, in this order: key lookup, recomputed signature, constant-time compare, then the
 * timestamp (against the time the request arrived), then the nonce. Nothing is read from the
 * parameters for any other purpose until all of them passed.
 */
export async function authenticate(request: Request, arrivedAt: number, addr: string, opts: AuthOptions): Promise<SignedRequest> {
  const lockedMs = opts.limiter.lockedFor(addr, opts.clock.now());
  if (lockedMs > 0)
    throw new ReplydError("too_many_failures", 429, "too many failed attempts from this address; try again later", {
      retry_after: Math.ceil(lockedMs / 1000),
    });

  const length = Number(request.headers.get("content-length") ?? 0);
  if (length > opts.maxUpload + 64 * 1024)
    throw new ReplydError("too_large", 413, `the request body is larger than the ${opts.maxUpload}-byte upload limit`);

  try {
    const url = new URL(request.url);
    const { params, files } = await readParams(request, url, opts.maxUpload);
    const appkey = single(params, "appkey");
    const ts = single(params, "ts");
    const nonce = single(params, "nonce");
    const sign = single(params, "sign");
    if (!APPKEY_PATTERN.test(appkey)) throw unauthorized("unsigned", "appkey is malformed");
    if (!TS_PATTERN.test(ts)) throw unauthorized("unsigned", "ts must be Unix seconds with up to three decimals, like 1763719200.123");
    if (!NONCE_PATTERN.test(nonce)) throw unauthorized("unsigned", "nonce must be 16–64 characters of A-Z a-z 0-9 _ -");
    if (!SIGN_PATTERN.test(sign)) throw unauthorized("unsigned", "sign must be 32 lowercase hex digits");

    const key = opts.keys.lookup(appkey, opts.clock.now());
    const signed = params.filter(([k]) => k !== "sign");
    const expected = computeSign(canonicalString(request.method, url.pathname, signed), key?.secret ?? DUMMY_SECRET);
    if (!timingSafeEqual(expected, sign) || !key) throw unauthorized("bad_signature", "the signature does not match");

    const tsMs = parseTs(ts);
    if (Math.abs(arrivedAt - tsMs) > opts.windowMs || tsMs < opts.notBefore) {
      const now = opts.clock.now();
      throw new ReplydError("stale_timestamp", 401, "the timestamp is outside the accepted window; correct the clock offset and sign again", {
        server_time: formatTs(now),
        window_s: opts.windowMs / 1000,
      });
    }
    if (!opts.nonces.remember(nonce, tsMs + opts.windowMs + 1000, opts.clock.now()))
      throw unauthorized("replayed", "this nonce was already used; sign every request afresh");

    if (key.scope === "read" && request.method !== "GET")
      throw new ReplydError("forbidden", 403, `the key "${key.appkey}" is read-only; it may only GET`);

    opts.limiter.succeed(addr);
    const fields = params.filter(([k]) => k !== "appkey" && k !== "ts" && k !== "nonce" && k !== "sign");
    return { key, fields, files };
  } catch (e) {
    // A correctly signed but stale request is a clock problem, not an attack: it does not count.
    if (e instanceof ReplydError && e.status === 401 && e.code !== "stale_timestamp") opts.limiter.fail(addr, opts.clock.now());
    throw e;
  }
}
