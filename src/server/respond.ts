import { sha256hex } from "../doc/digest.ts";
import { ERRORS, ReplydError, type ErrorCode } from "../base/errors.ts";
import { storeFailure } from "../store/backend.ts";
import { RESPONSE_SIGNATURE_HEADER, responseSignature } from "../sign.ts";

/** Set by a handler whose body it has hashed already (a streamed backup file): the signer uses it. */
export const BODY_SHA256_HEADER = "x-replyd-body-sha256";

/**
 * Signs an answer to a verified request (docs/protocol.md, "Signed answers"): bound to the request's
 * method, path and nonce, the status, and the sha256 of the body bytes exactly as sent.
 */
export async function signResponse(res: Response, method: string, path: string, nonce: string, secret: string): Promise<Response> {
  const digest = res.headers.get(BODY_SHA256_HEADER) ?? sha256hex(new Uint8Array(await res.clone().arrayBuffer()));
  res.headers.set(BODY_SHA256_HEADER, digest);
  res.headers.set(RESPONSE_SIGNATURE_HEADER, responseSignature(method, path, nonce, res.status, digest, secret));
  return res;
}

const JSON_HEADERS = { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" };

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { ...JSON_HEADERS, ...headers } });
}

export const ok = (data: unknown) => json(200, { ok: true, data });

/** A refusal by its code: the status is the code's own (errors.ts). */
export const refusal = (code: ErrorCode, message: string, headers: Record<string, string> = {}) => json(ERRORS[code], { ok: false, error: { code, message } }, headers);

export function errorResponse(e: unknown, logError: (msg: string) => void): Response {
  const err = e instanceof ReplydError ? e : storeFailure(e);
  if (!err) {
    logError(e instanceof Error ? `${e.name}: ${e.message}` : String(e));
    return refusal("internal", "internal error; the server log has the details");
  }
  if (!(e instanceof ReplydError)) logError(`${err.code}: ${(e as Error).message}`);
  const headers: Record<string, string> = {};
  const retry = err.details?.retry_after;
  if ((err.status === 429 || err.status === 503) && typeof retry === "number") headers["retry-after"] = String(retry);
  return json(err.status, { ok: false, error: { code: err.code, message: err.message, ...err.details } }, headers);
}
