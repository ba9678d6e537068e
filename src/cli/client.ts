import { formatProblems, type Problem } from "../errors.ts";
import { canonicalQuery, fileParamValue, formatTs, newNonce, parseTs, signRequest, type Param } from "../sign.ts";
import { CLIError } from "./errors.ts";
import type { IO } from "./io.ts";
import { Progress } from "./progress.ts";

export interface ClientConfig {
  url: string;
  appkey: string;
  secret: string;
}

export interface FilePart {
  name: string;
  filename: string;
  bytes: Uint8Array;
  type?: string;
}

export interface CallOptions {
  method: "GET" | "POST" | "PUT" | "DELETE";
  /** From the service root, starting /api/cli. */
  path: string;
  fields?: Param[];
  files?: FilePart[];
}

/** Reads --url/--appkey/--secret, falling back to REPLYD_URL/REPLYD_APPKEY/REPLYD_SECRET. */
export function resolveConfig(flags: { url?: string; appkey?: string; secret?: string }, env: IO["env"]): ClientConfig {
  const url = flags.url ?? env.REPLYD_URL;
  const appkey = flags.appkey ?? env.REPLYD_APPKEY;
  const secret = flags.secret ?? env.REPLYD_SECRET;
  const missing = [!url && "--url (REPLYD_URL)", !appkey && "--appkey (REPLYD_APPKEY)", !secret && "--secret (REPLYD_SECRET)"].filter(Boolean);
  if (missing.length) throw new CLIError("missing_config", `set ${missing.join(", ")}; replyd serve prints them on first start`, 2);
  let parsed: URL;
  try {
    parsed = new URL(url as string);
  } catch {
    throw new CLIError("bad_url", `--url must be an http(s) address like http://127.0.0.1:8080`, 2);
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") throw new CLIError("bad_url", "--url must start with http:// or https://", 2);
  return { url: (url as string).replace(/\/+$/, ""), appkey: appkey as string, secret: secret as string };
}

/** Signs every request (DESIGN §4); on stale_timestamp it learns the server's clock and tries once more. */
export class Client {
  /** Server clock minus ours, learned from a stale_timestamp answer. */
  offsetMs = 0;

  constructor(
    readonly config: ClientConfig,
    private readonly io: IO,
  ) {}

  /** Sends a signed request; answers the raw response when it is a 2xx, throws CLIError otherwise. */
  async send(opts: CallOptions, progressLabel?: string): Promise<Response> {
    let res = await this.sendOnce(opts, progressLabel);
    if (res.status === 401) {
      const body = (await res.clone().json().catch(() => null)) as { error?: { code?: string; server_time?: string } } | null;
      if (body?.error?.code === "stale_timestamp" && body.error.server_time) {
        this.offsetMs = parseTs(body.error.server_time) - this.io.now();
        res = await this.sendOnce(opts, progressLabel);
      }
    }
    if (!res.ok) throw await errorFrom(res);
    return res;
  }

  /** Sends and returns the `data` of a JSON answer. */
  async call<T = unknown>(opts: CallOptions, progressLabel?: string): Promise<T> {
    const res = await this.send(opts, progressLabel);
    const body = (await res.json().catch(() => null)) as { ok?: boolean; data?: T } | null;
    if (!body || body.ok !== true) throw new CLIError("bad_response", `the server at ${this.config.url} did not answer as replyd does`);
    return body.data as T;
  }

  private async sendOnce(opts: CallOptions, progressLabel?: string): Promise<Response> {
    const files = opts.files ?? [];
    const params: Param[] = [
      ...(opts.fields ?? []),
      ["appkey", this.config.appkey],
      ["ts", formatTs(this.io.now() + this.offsetMs)],
      ["nonce", newNonce()],
    ];
    const signedParams: Param[] = [...params, ...files.map((f) => [f.name, fileParamValue(f.bytes)] as Param)];
    const { sign } = signRequest({ method: opts.method, path: opts.path, params: signedParams, secret: this.config.secret });
    params.push(["sign", sign]);

    const target = this.config.url + opts.path;
    const init: RequestInit & { duplex?: "half" } = { method: opts.method };
    let url = target;
    if (opts.method === "GET" || opts.method === "DELETE") url += "?" + canonicalQuery(params);
    else if (!files.length) {
      init.body = canonicalQuery(params);
      init.headers = { "content-type": "application/x-www-form-urlencoded" };
    } else {
      const { body, type } = multipart(params, files);
      init.headers = { "content-type": type, "content-length": String(body.length) };
      init.body = progressLabel ? streamWithProgress(body, new Progress(this.io, progressLabel, body.length)) : body;
      if (progressLabel) init.duplex = "half";
    }
    try {
      return await this.io.fetch(url, init);
    } catch (e) {
      throw new CLIError("unreachable", `cannot reach ${this.config.url}: ${(e as Error).message}`);
    }
  }
}

async function errorFrom(res: Response): Promise<CLIError> {
  const body = (await res.json().catch(() => null)) as { error?: { code?: string; message?: string; problems?: unknown[]; total_problems?: number } } | null;
  const code = body?.error?.code ?? `http_${res.status}`;
  const message = body?.error?.message ?? `the server answered HTTP ${res.status}`;
  const problems = (body?.error?.problems ?? []) as Problem[];
  const details = formatProblems(problems, body?.error?.total_problems ?? problems.length);
  return new CLIError(code, `${message} [${code}]`, 1, details);
}

const encoder = new TextEncoder();

/** multipart/form-data built by hand so its exact length is known and progress can be shown. */
function multipart(fields: Param[], files: FilePart[]): { body: Uint8Array; type: string } {
  const boundary = "replyd-" + newNonce();
  const chunks: Uint8Array[] = [];
  const quote = (s: string) => s.replace(/["\r\n\\]/g, (c) => "%" + c.charCodeAt(0).toString(16).toUpperCase());
  for (const [k, v] of fields) chunks.push(encoder.encode(`--${boundary}\r\nContent-Disposition: form-data; name="${quote(k)}"\r\n\r\n${v}\r\n`));
  for (const f of files) {
    chunks.push(
      encoder.encode(
        `--${boundary}\r\nContent-Disposition: form-data; name="${quote(f.name)}"; filename="${quote(f.filename)}"\r\nContent-Type: ${f.type ?? "application/octet-stream"}\r\n\r\n`,
      ),
    );
    chunks.push(f.bytes);
    chunks.push(encoder.encode("\r\n"));
  }
  chunks.push(encoder.encode(`--${boundary}--\r\n`));
  const body = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let off = 0;
  for (const c of chunks) {
    body.set(c, off);
    off += c.length;
  }
  return { body, type: `multipart/form-data; boundary=${boundary}` };
}

function streamWithProgress(body: Uint8Array, progress: Progress): ReadableStream<Uint8Array> {
  let sent = 0;
  const step = 256 * 1024;
  return new ReadableStream({
    pull(controller) {
      if (sent >= body.length) {
        progress.done();
        controller.close();
        return;
      }
      const chunk = body.subarray(sent, sent + step);
      sent += chunk.length;
      progress.update(sent);
      controller.enqueue(chunk);
    },
  });
}

