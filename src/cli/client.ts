import { isLoopback } from "../base/loopback.ts";
import { CODE, formatProblems, type Problem } from "../base/errors.ts";
import { canonicalQuery, formatTs, newNonce, parseTs, signRequest, TS_PATTERN, type Param } from "../sign.ts";
import { RESPONSE_DEFAULTS, memorySink, readResponse, scrub, type ResponseLimits, type Exchange } from "./verified-response.ts";
import { fileSink } from "./files.ts";
import { CLIError } from "./errors.ts";
import type { IO } from "./io.ts";
import type { ClientConfig } from "./config.ts";
import { Progress } from "./progress.ts";
import { multipart, partDigest, partStream, watchUpload, type FilePart } from "./upload-body.ts";

export type { ClientConfig, FilePart };

export interface CallOptions {
  method: "GET" | "POST" | "PUT" | "DELETE";
  /** From the service root, starting /api/cli. */
  path: string;
  fields?: Param[];
  files?: FilePart[];
  /** The server's, not an account's (`replyd accounts`): sent without the configured account. */
  serverWide?: true;
}

/** The command runs (their IO) warned already: once a run, however many clients it makes. */
const warnedPlain = new WeakSet<IO>();

/** A download received whole, signed and bounded, in a temp file beside where it will go. */
export interface Downloaded {
  tmp: string;
  size: number;
  sha256: string;
}

/**
 * Signs every request (DESIGN §4) and reads every answer through the client's door (verified-response.ts):
 * only a signed answer is used. On a signed stale_timestamp it learns the server's clock (within
 * limits.maxOffsetMs) and tries once more.
 */
export class Client {
  /** Server clock minus ours, learned from a signed stale_timestamp answer. */
  offsetMs = 0;

  constructor(
    readonly config: ClientConfig,
    private readonly io: IO,
    readonly limits: ResponseLimits = RESPONSE_DEFAULTS,
  ) {
    const url = new URL(config.url);
    if (url.protocol === "http:" && !isLoopback(url.hostname) && !warnedPlain.has(io)) {
      warnedPlain.add(io);
      io.err(`replyd: warning: ${url.origin} is plain HTTP to another host: requests and answers are signed, not secret — anyone on the way can read them`);
    }
  }

  /**
   * " in account shop" on a server of several accounts, else nothing: what a change says it changed
   * ("taught refund in account shop"), where the same SEQs, ids and codes are every account's and a
   * wrong profile is otherwise unseen.
   */
  get inAccount(): string {
    return this.config.account !== undefined ? ` in account ${this.config.account}` : "";
  }

  /** Sends a signed request and answers the body of its signed 2xx answer; throws CLIError otherwise. */
  async send(opts: CallOptions, progressLabel?: string): Promise<Uint8Array> {
    let r = await this.exchange(opts, progressLabel);
    if (r.status === 401 && r.signed) {
      const err = parse(r.bytes) as { error?: { code?: string; server_time?: string } } | null;
      if (err?.error?.code === CODE.stale_timestamp && typeof err.error.server_time === "string" && TS_PATTERN.test(err.error.server_time)) {
        this.adoptOffset(parseTs(err.error.server_time) - this.io.now());
        r = await this.exchange(opts, progressLabel);
      }
    }
    if (r.status < 200 || r.status >= 300 || !r.signed) throw this.refusal(r.status, r.bytes, r.signed);
    return r.bytes;
  }

  /** A refusal as errorFrom reads it; a key refused that came from a profile names the profile, not --secret or --appkey. */
  private refusal(status: number, bytes: Uint8Array, signed: boolean): CLIError {
    const e = errorFrom(status, bytes, signed);
    // The marker as errorFrom wrote it ([bad_signature], or [bad_signature, HTTP 401; unsigned answer]).
    const marker = /\[[^\]]*\]$/.exec(e.message)?.[0] ?? `[${e.code}]`;
    // A profile kept before its server took several accounts: say how to keep one in it.
    const profile = this.config.profile;
    if (e.code === CODE.account_required && profile && this.config.account === undefined)
      return new CLIError(e.code, `${e.message.slice(0, e.message.length - marker.length).trimEnd()}; or keep one in profile "${profile}": replyd profile add ${profile} --account NAME --force ${marker}`, e.exitCode);
    const from = this.config.secretFrom;
    const mixed = this.config.mixed;
    if ((e.code === CODE.bad_signature || e.code === CODE.unknown_appkey) && mixed)
      return new CLIError(
        e.code,
        `${e.message.slice(0, e.message.length - marker.length).trimEnd()} — the server's address came from profile "${mixed.profile}", the key from ${mixed.keyFrom}${mixed.keyFrom === "REPLYD_APPKEY" ? " (unset REPLYD_APPKEY and REPLYD_SECRET to use the profile's key)" : ""} ${marker}`,
        e.exitCode,
      );
    if ((e.code !== CODE.bad_signature && e.code !== CODE.unknown_appkey) || from === undefined) return e;
    const unknown = e.code === CODE.unknown_appkey;
    const again = `replyd profile add ${from} --url ${this.config.url} --appkey ${unknown ? "KEY" : this.config.appkey}${this.config.account !== undefined ? ` --account ${this.config.account}` : ""} --force`;
    const what = unknown
      ? `the server knows no appkey "${this.config.appkey}", which profile "${from}" keeps (revoked, or another server's): keep a key it knows (${again})`
      : `the signature does not match: the secret kept in profile "${from}" is not the one of appkey "${this.config.appkey}" (${again}, then paste the right one)`;
    return new CLIError(e.code, `${what} ${marker}`, e.exitCode);
  }

  /** Sends and returns the `data` of a signed JSON answer. */
  async call<T = unknown>(opts: CallOptions, progressLabel?: string): Promise<T> {
    const body = parse(await this.send(opts, progressLabel)) as { ok?: boolean; data?: T } | null;
    if (!body || body.ok !== true) throw new CLIError("bad_response", `the server at ${this.config.url} did not answer as replyd does`);
    return body.data as T;
  }

  /**
   * Downloads a signed answer into a new temp file in `dir` (mode 0600), bounded by limits.maxDownload
   * and the idle limit. The caller checks it and places it; on any failure nothing is left behind.
   */
  async download(opts: CallOptions, dir: string, label: string): Promise<Downloaded> {
    const { res, x, started } = await this.request(opts);
    if (res.status < 200 || res.status >= 300) {
      const r = await this.readToMemory(res, x, started);
      throw this.refusal(r.status, r.bytes, r.signed);
    }
    const file = fileSink(dir, this.limits.maxDownload);
    const progress = new Progress(this.io, label, Number(res.headers.get("content-length")) || null);
    try {
      const r = await readResponse(res, x, file, this.limits, null, (n) => progress.update(n));
      file.finish();
      if (!r.signed) throw new CLIError("unsigned_answer", "the download is not signed by the server's key (or was altered on the way); nothing was written");
      return { tmp: file.path, size: r.size, sha256: r.sha256 };
    } catch (e) {
      file.discard();
      throw e;
    } finally {
      progress.done();
    }
  }

  private adoptOffset(offsetMs: number): void {
    if (Math.abs(offsetMs) > this.limits.maxOffsetMs)
      throw new CLIError("clock_offset", `the server's clock differs from this machine's by ${Math.round(offsetMs / 1000)} s, more than the ${this.limits.maxOffsetMs / 1000} s the client adopts; set one of the clocks right (NTP)`);
    this.offsetMs = offsetMs;
  }

  /** One signed request and its answer, read into memory through the door. */
  private async exchange(opts: CallOptions, progressLabel?: string) {
    const { res, x, started, finished } = await this.request(opts, progressLabel);
    try {
      return await this.readToMemory(res, x, started);
    } finally {
      finished();
    }
  }

  private async readToMemory(res: Response, x: Exchange, started: number) {
    const memory = memorySink(this.limits.maxAnswer);
    const r = await readResponse(res, x, memory, this.limits, started + this.limits.timeoutMs);
    return { ...r, bytes: memory.bytes() };
  }

  /** Signs and sends; answers the response as soon as its head arrived (within --timeout). */
  private async request(opts: CallOptions, progressLabel?: string): Promise<{ res: Response; x: Exchange; started: number; finished: () => void }> {
    const files = opts.files ?? [];
    const nonce = newNonce();
    // The account is a field like any other: signed, so it cannot be changed on the way.
    const account: Param[] = this.config.account !== undefined && !opts.serverWide ? [["account", this.config.account]] : [];
    const params: Param[] = [...(opts.fields ?? []), ...account, ["appkey", this.config.appkey], ["ts", formatTs(this.io.now() + this.offsetMs)], ["nonce", nonce]];
    const signedParams: Param[] = [...params, ...files.map((f) => [f.name, partDigest(f)] as Param)];
    const { sign } = signRequest({ method: opts.method, path: opts.path, params: signedParams, secret: this.config.secret });
    params.push(["sign", sign]);

    const abort = new AbortController();
    // Bun-specific: `decompress: false` leaves a compressed answer compressed (the door refuses it).
    const init: RequestInit & { duplex?: "half"; decompress?: boolean } = { method: opts.method, redirect: "manual", signal: abort.signal, decompress: false };
    let finished = () => {};
    const headers: Record<string, string> = { "accept-encoding": "identity" };
    let url = this.config.url + opts.path;
    if (opts.method === "GET" || opts.method === "DELETE") url += "?" + canonicalQuery(params);
    else if (!files.length) {
      init.body = canonicalQuery(params);
      headers["content-type"] = "application/x-www-form-urlencoded";
    } else {
      const { parts, length, type } = multipart(params, files);
      headers["content-type"] = type;
      headers["content-length"] = String(length);
      const upload = watchUpload(this.io);
      init.body = partStream(parts, progressLabel ? new Progress(this.io, progressLabel, length) : null, upload.sent);
      init.duplex = "half";
      finished = upload.done;
    }
    init.headers = headers;
    const started = Date.now();
    const timer = setTimeout(() => abort.abort(), this.limits.timeoutMs);
    let res: Response;
    try {
      res = await this.io.fetch(url, init);
    } catch (e) {
      finished();
      if (abort.signal.aborted) throw new CLIError("timeout", `no answer from ${this.config.url} within ${this.limits.timeoutMs / 1000} s (--timeout)`);
      const refused = /ConnectionRefused|ECONNREFUSED/.test(`${(e as { code?: string }).code} ${(e as Error).message}`);
      throw new CLIError(
        "unreachable",
        refused
          ? `cannot reach ${this.config.url}: nothing listens there — is replyd serve running, and is ${this.config.profile ? `profile "${this.config.profile}"'s URL` : "--url (REPLYD_URL)"} its address?`
          : `cannot reach ${this.config.url}: ${scrub((e as Error).message)}`,
      );
    } finally {
      clearTimeout(timer);
    }
    return { res, x: { method: opts.method, path: opts.path, nonce, secret: this.config.secret }, started, finished };
  }
}

const parse = (bytes: Uint8Array): unknown => {
  try {
    return JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    return null;
  }
};

/** A refusal, told apart from one that came unsigned (a refusal before the key was known, or a forgery). */
function errorFrom(status: number, bytes: Uint8Array, signed: boolean): CLIError {
  const body = parse(bytes) as { error?: { code?: unknown; message?: unknown; problems?: unknown; total_problems?: unknown } } | null;
  const text = (v: unknown, max: number) => (typeof v === "string" ? v.slice(0, max) : undefined);
  const code = text(body?.error?.code, 64) ?? `http_${status}`;
  const message = text(body?.error?.message, 500) ?? `the server answered HTTP ${status}`;
  if (!signed && status >= 200 && status < 300)
    return new CLIError("unsigned_answer", `the answer is not signed by the server's key (or was altered on the way); not used`);
  if (code === CODE.not_found && !signed && message === "no such route")
    return new CLIError(code, `the server answered "no such route" [not_found, HTTP 404]: is --url (REPLYD_URL) the server's root, like http://127.0.0.1:8080, with no path?`);
  const problems = (Array.isArray(body?.error?.problems) ? body.error.problems : []).slice(0, 1000) as Problem[];
  const details = signed ? formatProblems(problems, typeof body?.error?.total_problems === "number" ? body.error.total_problems : problems.length) : [];
  return new CLIError(code, signed ? `${message} [${code}]` : `${message} [${code}, HTTP ${status}; unsigned answer]`, 1, details);
}

