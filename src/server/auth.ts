import type { Clock } from "../base/clock.ts";
import { REFUSE, viaRedis } from "../cluster/fallback.ts";
import { ReplydError, type ErrorCode } from "../base/errors.ts";
import { APPKEY_PATTERN, AUTH_FIELDS, canonicalString, computeSign, formatTs, NONCE_PATTERN, parseTs, SIGN_PATTERN, timingSafeEqual, TS_PATTERN, type Param } from "../sign.ts";
import type { AdminKey, Keys } from "../store/keys.ts";
import { closeFiles, readForm } from "./form.ts";
import { FORM_BODY_SLACK, type DoorBudget, type ReadForm } from "./form-bounds.ts";
import type { Upload } from "./upload.ts";

/** Where nonces are remembered: this process (NonceCache), or the cluster's Redis (SharedNonces). */
export interface Nonces {
  /** False when the nonce was already used and is still remembered. */
  remember(nonce: string, expiresAt: number, now: number): boolean | Promise<boolean>;
}

/** Where failures are counted: this process (FailureLimiter), or the cluster's Redis (SharedLimiter). */
export interface Lockout {
  /** Counts a failure; answers the milliseconds left on a lock-out already in force. */
  failed(addr: string, now: number): number | Promise<number>;
  succeed(addr: string, now: number): void;
}

/** What a request carried besides its signature, once the signature has been verified. */
export interface SignedRequest {
  key: AdminKey;
  /** The request's nonce: its answer is signed bound to it. */
  nonce: string;
  /** Query parameters and form fields, auth fields removed, in the order sent. */
  fields: Param[];
  /** File parts, spooled to disk as they were hashed for the signature; closed once the request is answered. */
  files: Map<string, Upload>;
}

export interface AuthOptions {
  keys: Keys;
  clock: Clock;
  windowMs: number;
  nonces: Nonces;
  limiter: Lockout;
  /**
   * The cluster's Redis (serve --redis), on which `nonces` and `limiter` live. While it is away,
   * writes are refused 503 before anything is read, and reads with it: a replay at another instance
   * would pass. Health alone stays readable, its nonce remembered by this instance (`fallback`): it
   * is how the operator sees what is wrong.
   */
  shared?: { up(): boolean; down(): Error; fallback: Nonces };
  maxUpload: number;
  /** Bytes all requests not yet authenticated may hold together. */
  budget: DoorBudget;
  /** Where file parts are spooled (the data folder; the system's temp folder when not given). */
  spoolDir?: string;
  /**
   * When the process started, in the current wall clock: requests signed before it are refused as
   * stale (the nonces they used died with the previous process, so a replay across a restart would
   * otherwise pass). A function, not a number: measured on the monotonic clock, so a wall clock
   * stepped back after the start moves it back too instead of refusing every request until a restart.
   */
  notBefore: () => number;
}

// Used when the appkey is unknown, so the work done (and its time) does not tell whether it exists.
const DUMMY_SECRET = "replyd-no-such-key-" + crypto.randomUUID();

const unauthorized = (code: ErrorCode, message: string, details?: Record<string, unknown>) => new ReplydError(code, message, details);

function single(params: Param[], name: string): string {
  const values = params.filter(([k]) => k === name);
  if (values.length === 0) throw unauthorized("unsigned", `the request is not signed: "${name}" is missing`);
  if (values.length > 1) throw unauthorized("unsigned", `"${name}" must appear once`);
  return (values[0] as Param)[1];
}

/** What `check` throws, or null when it passes. */
function refusalOf(check: () => void): unknown {
  try {
    check();
    return null;
  } catch (e) {
    return e;
  }
}

/**
 * DESIGN §4, in this order: the body read within bounds (form.ts), key lookup, recomputed
 * signature, constant-time compare, then the timestamp (against the time the request arrived), then
 * the nonce. Nothing is read from the parameters for any other purpose until all of them passed.
 *
 * Every refusal before the signature has passed counts against the client's address (413s, 400s
 * and a busy door included); so does a replayed nonce. An address past the limit gets 429 for its
 * failures, but a valid signature is never refused for the lock-out: the lock-out slows guessing,
 * it must not let strangers shut the operator out.
 */
export async function authenticate(
  request: Request,
  arrivedAt: number,
  addr: string,
  opts: AuthOptions,
  /** Filled in once the signature has passed, so that the answer (a refusal too) can be signed. */
  verifiedAs: { key?: AdminKey; nonce?: string; path?: string } = {},
): Promise<SignedRequest> {
  // Not a failure of the client's: refused before anything is read or counted — but a GET without a
  // body, which may be health: while the database cannot be read, health is let on with the keys as
  // last read (Keys.lastRead): it changes nothing and is how the operator sees why.
  const keysStale = refusalOf(() => opts.keys.check(opts.clock.now()));
  if (keysStale && (!opts.keys.lastRead || request.method !== "GET" || Number(request.headers.get("content-length") ?? 0) > 0)) throw keysStale;
  if (opts.shared && !opts.shared.up() && request.method !== "GET") throw opts.shared.down();
  let verified = false;
  let form: ReadForm | null = null;
  try {
    const length = Number(request.headers.get("content-length") ?? 0);
    if (length > opts.maxUpload + FORM_BODY_SLACK)
      throw new ReplydError("too_large", `the request body is larger than the ${opts.maxUpload}-byte upload limit`);
    const url = new URL(request.url);
    form = await readForm(request, url, opts.maxUpload, opts.budget, opts.spoolDir);
    const params = form.params;
    const appkey = single(params, "appkey");
    const ts = single(params, "ts");
    const nonce = single(params, "nonce");
    const sign = single(params, "sign");
    if (!APPKEY_PATTERN.test(appkey)) throw unauthorized("unsigned", "appkey is malformed");
    if (!TS_PATTERN.test(ts)) throw unauthorized("unsigned", "ts must be Unix seconds with up to three decimals, like 1763719200.123");
    if (!NONCE_PATTERN.test(nonce)) throw unauthorized("unsigned", "nonce must be 16–64 characters of A-Z a-z 0-9 _ -");
    if (!SIGN_PATTERN.test(sign)) throw unauthorized("unsigned", "sign must be 32 lowercase hex digits");

    const key = keysStale ? opts.keys.lastRead?.(appkey) : opts.keys.lookup(appkey, opts.clock.now());
    const signed = params.filter(([k]) => k !== "sign");
    const expected = computeSign(canonicalString(request.method, url.pathname, signed), key?.secret ?? DUMMY_SECRET);
    // Said apart, so an operator knows which setting to fix. An appkey is an id, not a secret (random
    // and public in logs and in `keys ls`): knowing one exists gives no way to sign, and guessing
    // them is what the lock-out slows. The work is the same either way.
    const matches = timingSafeEqual(expected, sign);
    // A key added since the keys were last read is not known yet: not the client's failure.
    if (!key && keysStale) throw keysStale;
    if (!key) throw unauthorized("unknown_appkey", `no admin key has the appkey "${appkey}" on this server: check --appkey (REPLYD_APPKEY); replyd keys ls on the server lists the keys`);
    if (!matches) throw unauthorized("bad_signature", `the signature does not match: check --secret (REPLYD_SECRET) for the appkey "${appkey}"`);
    verified = true;
    verifiedAs.key = key;
    verifiedAs.nonce = nonce;
    verifiedAs.path = url.pathname;

    const tsMs = parseTs(ts);
    if (Math.abs(arrivedAt - tsMs) > opts.windowMs || tsMs < opts.notBefore()) {
      const now = opts.clock.now();
      throw new ReplydError("stale_timestamp", "the timestamp is outside the accepted window; correct the clock offset and sign again", {
        server_time: formatTs(now),
        window_s: opts.windowMs / 1000,
      });
    }
    // Health stays readable while Redis is unusable (it is how the operator sees why), on this
    // instance's own nonces; every other request needs the cluster's replay protection.
    const isHealth = url.pathname === "/api/cli" && params.every(([k]) => (AUTH_FIELDS as readonly string[]).includes(k) || k === "account");
    if (keysStale && !isHealth) throw keysStale;
    const expiresAt = tsMs + opts.windowMs + 1000;
    let fresh: boolean;
    if (opts.shared && !opts.shared.up()) {
      if (!isHealth) throw opts.shared.down();
      fresh = await opts.shared.fallback.remember(nonce, expiresAt, opts.clock.now());
    } else {
      const fallback = opts.shared?.fallback;
      fresh = await viaRedis(async () => opts.nonces.remember(nonce, expiresAt, opts.clock.now()), fallback && isHealth ? { local: () => fallback.remember(nonce, expiresAt, opts.clock.now()) } : REFUSE);
    }
    if (!fresh) {
      // A captured request sent again: an attack, counted like a bad signature, its answer unsigned.
      verified = false;
      delete verifiedAs.key;
      throw unauthorized("replayed", "this nonce was already used; sign every request afresh");
    }

    if (key.scope === "read" && request.method !== "GET")
      throw new ReplydError("forbidden", `the key "${key.appkey}" is read-only: it may read (GET) and nothing else; this needs an admin key`);
    // A token key hands out the platform token and nothing else: it cannot read or change data.
    if (key.scope === "token" && (request.method !== "GET" || url.pathname !== "/api/cli/token"))
      throw new ReplydError("forbidden", `the key "${key.appkey}" may only GET /api/cli/token`);

    opts.limiter.succeed(addr, opts.clock.now());
    const fields = params.filter(([k]) => k !== "appkey" && k !== "ts" && k !== "nonce" && k !== "sign");
    return { key, nonce, fields, files: form.files };
  } catch (e) {
    if (form) closeFiles(form.files);
    if (!verified) {
      const lockedMs = await opts.limiter.failed(addr, opts.clock.now());
      if (lockedMs > 0) {
        // What was wrong this time, then how long the address waits: an operator with a mistyped secret learns both.
        const why = e instanceof ReplydError && e.code !== "too_many_failures" ? `${e.message.replace(/[.;]?\s*$/, "")}; ` : "";
        const s = Math.ceil(lockedMs / 1000);
        throw new ReplydError("too_many_failures", `${why}too many failed attempts from this address: it is locked out for ${s} s more (a right signature is still accepted)`, { retry_after: s });
      }
    }
    throw e;
  } finally {
    if (form) opts.budget.give(form.held);
  }
}
