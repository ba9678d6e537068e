/**
 * The admin door's body reader. Whatever arrives before the signature is checked must cost little
 * and bounded memory and time, so the body is read here as a stream, never handed whole to a
 * general parser: a form body (url-encoded) may hold at most FORM_LIMITS.fieldBytes, a multipart
 * body at most FORM_LIMITS.fields fields, FORM_LIMITS.files file parts of at most `maxUpload` bytes
 * each; file parts are written to an unlinked spool file (upload.ts) and hashed (md5, for the
 * signature) chunk by chunk as they arrive, so the event loop is never held for more than one
 * chunk's work and a large upload is never in memory, and every byte a request holds before it is
 * authenticated (in memory or on disk) is counted against the server-wide `DoorBudget`.
 */
import { ReplydError, tooLarge } from "../base/errors.ts";
import type { Param } from "../sign.ts";
import { Upload } from "./upload.ts";

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

const malformed = (why: string) => new ReplydError("unsigned", `the request body is not a readable form, so its signature cannot be checked: ${why}`);

/** Every chunk of the body, counted against `max` as it arrives (a declared length is checked first). */
async function* chunks(request: Request, max: number, what: string): AsyncGenerator<Uint8Array> {
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
function text(bytes: Uint8Array): string {
  try {
    return UTF8.decode(bytes);
  } catch {
    throw malformed("a field is not UTF-8");
  }
}

function addParam(params: Param[], name: string, value: string): void {
  if (params.length >= FORM_LIMITS.fields) throw new ReplydError("too_many_fields", `a request may carry at most ${FORM_LIMITS.fields} fields`);
  params.push([name, value]);
}

/** The query's parameters, then the body's fields and file parts. */
export async function readForm(request: Request, url: URL, maxUpload: number, budget: DoorBudget, spoolDir?: string): Promise<ReadForm> {
  const form: ReadForm = { params: [], files: new Map(), held: 0 };
  for (const [k, v] of url.searchParams) addParam(form.params, k, v);
  if (request.method !== "POST" && request.method !== "PUT") return form;
  const type = request.headers.get("content-type") ?? "";
  const lower = type.toLowerCase();
  if (lower.startsWith("application/x-www-form-urlencoded")) {
    const parts: Uint8Array[] = [];
    for await (const chunk of chunks(request, FORM_LIMITS.fieldBytes, `a form body may be at most ${FORM_LIMITS.fieldBytes} bytes; send files as multipart/form-data`)) parts.push(chunk);
    for (const [k, v] of new URLSearchParams(text(Buffer.concat(parts)))) addParam(form.params, k, v);
  } else if (lower.startsWith("multipart/form-data")) {
    try {
      await readMultipart(request, type, maxUpload, budget, form, spoolDir);
    } catch (e) {
      budget.give(form.held);
      closeFiles(form.files);
      throw e;
    }
  } else {
    for await (const chunk of chunks(request, 0, "POST and PUT carry their fields as application/x-www-form-urlencoded or multipart/form-data")) void chunk;
  }
  return form;
}

export function closeFiles(files: Map<string, Upload>): void {
  for (const file of files.values()) file.close();
}

const CRLF_CRLF = Buffer.from("\r\n\r\n");

function boundaryOf(type: string): string {
  const m = /;\s*boundary=(?:"([^"]{1,70})"|([^\s;]{1,70}))/i.exec(type);
  const boundary = m?.[1] ?? m?.[2];
  if (!boundary) throw malformed("no multipart boundary");
  return boundary;
}

/** name="…" and filename="…" of a part's Content-Disposition; the client quotes " CR LF \ as %XX. */
function disposition(header: string): { name: string; filename: string | null } {
  const line = header.split("\r\n").find((l) => /^content-disposition:/i.test(l));
  if (!line || !/^content-disposition:\s*form-data\s*;/i.test(line)) throw malformed("a part without Content-Disposition: form-data");
  const unquote = (s: string) => s.replace(/%(22|0D|0A|5C)/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  const name = /;\s*name="([^"]*)"/i.exec(line)?.[1];
  const filename = /;\s*filename="([^"]*)"/i.exec(line)?.[1];
  if (name === undefined || name === "") throw malformed("a part without a name");
  return { name: unquote(name), filename: filename === undefined ? null : unquote(filename) };
}

/**
 * A streaming multipart reader: the unread tail is kept only as long as a boundary could still
 * start in it, so memory is the fields (bounded) plus a few KiB; file parts go to disk.
 */
async function readMultipart(request: Request, type: string, maxUpload: number, budget: DoorBudget, form: ReadForm, spoolDir?: string): Promise<void> {
  const boundary = boundaryOf(type);
  const first = Buffer.from(`--${boundary}`);
  const delimiter = Buffer.from(`\r\n--${boundary}`);
  // The whole upload: file parts together within maxUpload, plus room for the fields and part headers.
  const maxBody = maxUpload + FORM_BODY_SLACK;
  let pending: Buffer = Buffer.alloc(0);
  type State = "preamble" | "after-boundary" | "header" | "body" | "done";
  let state = "preamble" as State;
  let fieldBytes = 0;
  let part: { name: string; chunks: Buffer[]; size: number; upload: Upload | null } | null = null;

  const take = (data: Buffer) => {
    const p = part as NonNullable<typeof part>;
    if (!data.length) return;
    p.size += data.length;
    budget.take(data.length);
    form.held += data.length;
    if (p.upload) {
      if (p.size > maxUpload) throw tooLarge(`the file part "${p.name}" is larger than the ${maxUpload}-byte upload limit`);
      p.upload.write(data);
      return;
    }
    fieldBytes += data.length;
    if (fieldBytes > FORM_LIMITS.fieldBytes) throw tooLarge(`the form's fields may hold at most ${FORM_LIMITS.fieldBytes} bytes together`);
    // No copy: each chunk the body stream yields is a fresh buffer (and `pending`, when it was
    // joined, a fresh one too), so a view of it stays valid.
    p.chunks.push(data);
  };
  const finishPart = () => {
    const p = part as NonNullable<typeof part>;
    if (p.upload) {
      if (form.files.has(p.name)) {
        p.upload.close();
        throw new ReplydError("bad_request", `more than one file part named "${p.name}"`);
      }
      form.files.set(p.name, p.upload);
      addParam(form.params, p.name, "md5:" + p.upload.md5());
    } else addParam(form.params, p.name, text(Buffer.concat(p.chunks, p.size)));
    part = null;
  };

  // Advances the state machine over `pending` as far as it can; false when it needs more bytes.
  const step = (): boolean => {
    switch (state) {
      case "preamble": {
        const at = pending.indexOf(first);
        if (at < 0) {
          if (pending.length > FORM_LIMITS.slack + first.length) throw malformed("no boundary where the body starts");
          return false;
        }
        pending = pending.subarray(at + first.length);
        state = "after-boundary";
        return true;
      }
      case "after-boundary": {
        if (pending.length < 2) return false;
        if (pending[0] === 0x2d && pending[1] === 0x2d) {
          state = "done";
          pending = pending.subarray(2);
          return true;
        }
        if (pending[0] !== 0x0d || pending[1] !== 0x0a) throw malformed("a boundary not followed by a line break");
        pending = pending.subarray(2);
        state = "header";
        return true;
      }
      case "header": {
        const end = pending.indexOf(CRLF_CRLF);
        if (end < 0) {
          if (pending.length > FORM_LIMITS.partHeader) throw tooLarge(`a part's header lines may be at most ${FORM_LIMITS.partHeader} bytes`);
          return false;
        }
        if (end > FORM_LIMITS.partHeader) throw tooLarge(`a part's header lines may be at most ${FORM_LIMITS.partHeader} bytes`);
        const { name, filename } = disposition(pending.subarray(0, end).toString("latin1"));
        let upload: Upload | null = null;
        if (filename !== null) {
          // Counted when it starts: a fifth file part is refused before it is written anywhere.
          if (form.files.size >= FORM_LIMITS.files)
            throw new ReplydError("too_many_fields", `a request may carry at most ${FORM_LIMITS.files} file parts`);
          upload = Upload.create(spoolDir);
        }
        part = { name, chunks: [], size: 0, upload };
        pending = pending.subarray(end + 4);
        state = "body";
        return true;
      }
      case "body": {
        const at = pending.indexOf(delimiter);
        if (at < 0) {
          // Keep what could be the start of a delimiter split across chunks; the rest is the part's.
          const keep = Math.min(pending.length, delimiter.length - 1);
          take(pending.subarray(0, pending.length - keep));
          pending = pending.subarray(pending.length - keep);
          return false;
        }
        take(pending.subarray(0, at));
        finishPart();
        pending = pending.subarray(at + delimiter.length);
        state = "after-boundary";
        return true;
      }
      case "done":
        if (pending.length > FORM_LIMITS.slack) throw malformed("data after the closing boundary");
        return false;
    }
  };

  try {
    for await (const chunk of chunks(request, maxBody, `the request body is larger than the ${maxUpload}-byte upload limit`)) {
      pending = pending.length ? Buffer.concat([pending, chunk]) : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length);
      while (step());
    }
    if ((state as State) !== "done") throw malformed("the body ends before the closing boundary");
  } catch (e) {
    // The part being received, not yet among the form's files (closing twice is harmless).
    (part as { upload: Upload | null } | null)?.upload?.close();
    throw e;
  }
}
