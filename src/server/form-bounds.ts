/**
 * What the door reads a body within, before the signature is checked: the limits, the server-wide
 * budget of unauthenticated bytes, and the counted steps both body kinds share (form.ts reads a
 * url-encoded body with them, multipart.ts a multipart one).
 */
import { ReplydError, tooLarge } from "../base/errors.ts";
import type { Param } from "../sign.ts";
import type { Upload } from "./upload.ts";

export const FORM_LIMITS = {
  /** Bytes of a url-encoded body, and of all non-file multipart fields together. */
  fieldBytes: 64 * 1024,
  /** Parameters (query and body together). */
  fields: 256,
  /** File parts in one multipart body. */
  files: 4,
  /** Bytes of one part's header lines. */
  partHeader: 8 * 1024,
  /** Bytes before the first boundary and after the last. */
  slack: 1024,
} as const;

/** What a multipart body may carry beyond its files: fields, part headers, boundaries. */
export const FORM_BODY_SLACK = 256 * 1024;

/** Bytes held by requests not yet authenticated, across the server: past `limit`, refuse at once. */
export class DoorBudget {
  held = 0;
  constructor(readonly limit: number) {}
  take(n: number): void {
    if (this.held + n > this.limit)
      throw new ReplydError("busy", "the server is receiving too many unauthenticated uploads; try again shortly", { retry_after: 5 });
    this.held += n;
  }
  give(n: number): void {
    this.held -= n;
  }
}

export interface ReadForm {
  params: Param[];
  /** File parts, spooled to disk; their md5 is in `params`. Closed by whoever holds the form last. */
  files: Map<string, Upload>;
  /** Bytes taken from the budget: give them back once the request is authenticated or refused. */
  held: number;
}

export const malformed = (why: string) => new ReplydError("unsigned", `the request body is not a readable form, so its signature cannot be checked: ${why}`);

/** Every chunk of the body, counted against `max` as it arrives (a declared length is checked first). */
export async function* chunks(request: Request, max: number, what: string): AsyncGenerator<Uint8Array> {
  const declared = request.headers.get("content-length");
  if (declared !== null && Number(declared) > max) throw tooLarge(what);
  if (!request.body) return;
  let size = 0;
  const reader = (request.body as ReadableStream<Uint8Array>).getReader();
  for (;;) {
    let next: Awaited<ReturnType<typeof reader.read>>;
    try {
      next = await reader.read();
    } catch {
      // The client went away or broke the framing mid-body: a refusal, not an error of ours.
      throw malformed("the body could not be read to its end");
    }
    if (next.done) return;
    size += next.value.length;
    if (size > max) {
      void reader.cancel().catch(() => {});
      throw tooLarge(what);
    }
    yield next.value;
  }
}

const UTF8 = new TextDecoder("utf-8", { fatal: true });
export function text(bytes: Uint8Array): string {
  try {
    return UTF8.decode(bytes);
  } catch {
    throw malformed("a field is not UTF-8");
  }
}

export function addParam(params: Param[], name: string, value: string): void {
  if (params.length >= FORM_LIMITS.fields) throw new ReplydError("too_many_fields", `a request may carry at most ${FORM_LIMITS.fields} fields`);
  params.push([name, value]);
}
