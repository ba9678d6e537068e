/**
 * The client's door: every answer the client reads passes through here. The server is treated as
 * untrusted input (DESIGN §4): a redirect is an error naming its target, a compressed answer is
 * refused (the client asks for none, so nothing is inflated), the body is read within a size cap and
 * time limits while its sha256 is computed, and its signature is checked against the request it
 * answers before anything in it is printed, saved or acted on.
 */
import { RESPONSE_SIGNATURE_HEADER, responseSignature, timingSafeEqual } from "../sign.ts";
import { CLIError } from "./errors.ts";

export interface ResponseLimits {
  /** Until the answer starts (connecting, uploading, the server's work), and for a whole answer that is not a download. */
  timeoutMs: number;
  /** The longest silence while an answer's body arrives (downloads are bounded by this, not by their length). */
  idleMs: number;
  /** Largest answer read into memory. */
  maxAnswer: number;
  /** Largest download written to disk. */
  maxDownload: number;
  /** Largest clock difference the client adopts from a signed stale_timestamp answer. */
  maxOffsetMs: number;
}

export const RESPONSE_DEFAULTS: ResponseLimits = {
  timeoutMs: 120_000,
  idleMs: 30_000,
  maxAnswer: 32 * 1024 * 1024,
  maxDownload: 8 * 1024 * 1024 * 1024,
  maxOffsetMs: 3600_000,
};

/** Where an answer's bytes go: memory (bounded) or a file being written. */
export interface Sink {
  write(chunk: Uint8Array): void;
  readonly limit: number;
}

export interface ReadResponse {
  status: number;
  /** Whether the signature matched the request, status and body. */
  signed: boolean;
  sha256: string;
  size: number;
}

/** What the answer must be bound to: the request as signed. */
export interface Exchange {
  method: string;
  path: string;
  nonce: string;
  secret: string;
}

/**
 * Reads `res` into `sink`, within limits, and checks its signature. `deadline` (ms since the epoch)
 * ends a whole answer; null leaves only the idle limit (downloads).
 */
export async function readResponse(res: Response, x: Exchange, sink: Sink, limits: ResponseLimits, deadline: number | null, onProgress?: (bytes: number) => void): Promise<ReadResponse> {
  if (res.status >= 300 && res.status < 400) {
    const to = res.headers.get("location");
    await res.body?.cancel().catch(() => {});
    throw new CLIError("redirect", `the server answered with a redirect (HTTP ${res.status}${to ? ` to ${to.slice(0, 200)}` : ""}); replyd never follows one, a signed request must not be re-sent elsewhere: check --url`);
  }
  const encoding = (res.headers.get("content-encoding") ?? "identity").toLowerCase();
  if (encoding !== "identity") {
    await res.body?.cancel().catch(() => {});
    throw new CLIError("bad_answer", `the server compressed its answer (${encoding.slice(0, 40)}) although the client asked for none; refused unread`);
  }
  const declared = Number(res.headers.get("content-length") ?? NaN);
  if (declared > sink.limit) {
    await res.body?.cancel().catch(() => {});
    throw new CLIError("answer_too_large", `the server's answer is ${declared} bytes, over the ${sink.limit}-byte limit; refused unread`);
  }
  const hasher = new Bun.CryptoHasher("sha256");
  let size = 0;
  if (res.body) {
    const reader = res.body.getReader();
    for (;;) {
      const wait = Math.min(limits.idleMs, deadline === null ? Infinity : deadline - Date.now());
      if (wait <= 0) throw timedOut(limits, deadline);
      let timer: ReturnType<typeof setTimeout> | undefined;
      const timeout = new Promise<"timeout">((resolve) => (timer = setTimeout(() => resolve("timeout"), wait)));
      let next: Awaited<ReturnType<typeof reader.read>> | "timeout";
      try {
        next = await Promise.race([reader.read(), timeout]);
      } catch (e) {
        throw new CLIError("unreachable", `the answer broke off: ${scrub((e as Error).message)}`);
      } finally {
        clearTimeout(timer);
      }
      if (next === "timeout") {
        void reader.cancel().catch(() => {});
        throw timedOut(limits, deadline);
      }
      if (next.done) break;
      size += next.value.length;
      if (size > sink.limit) {
        void reader.cancel().catch(() => {});
        throw new CLIError("answer_too_large", `the server's answer passed the ${sink.limit}-byte limit; stopped reading`);
      }
      hasher.update(next.value);
      sink.write(next.value);
      onProgress?.(size);
    }
  }
  const sha256 = hasher.digest("hex");
  const expected = responseSignature(x.method, x.path, x.nonce, res.status, sha256, x.secret);
  const given = res.headers.get(RESPONSE_SIGNATURE_HEADER) ?? "";
  return { status: res.status, signed: timingSafeEqual(expected, given), sha256, size };
}

function timedOut(limits: ResponseLimits, deadline: number | null): CLIError {
  return deadline !== null && Date.now() >= deadline
    ? new CLIError("timeout", `no complete answer within ${limits.timeoutMs / 1000} s (--timeout)`)
    : new CLIError("timeout", `the answer stalled for ${limits.idleMs / 1000} s (--idle-timeout)`);
}

/** An error text without a URL's query (a signed request's query carries its signature and nonce). */
export const scrub = (text: string) => text.replace(/(https?:\/\/[^\s?#]*)\?[^\s#]*/g, "$1?…");

/** Bytes in memory, capped. */
export function memorySink(limit: number): Sink & { bytes(): Uint8Array } {
  const chunks: Uint8Array[] = [];
  return { limit, write: (c) => void chunks.push(c), bytes: () => Buffer.concat(chunks) };
}
