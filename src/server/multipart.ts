/**
 * A multipart/form-data body read as it streams, before the signature is checked: field bytes
 * counted against the door's limits and budget (form-bounds.ts), file parts spooled to disk
 * (upload.ts); form.ts hands it a body of this type.
 */
import { ReplydError, tooLarge } from "../base/errors.ts";
import { addParam, chunks, FORM_BODY_SLACK, FORM_LIMITS, malformed, text, type DoorBudget, type ReadForm } from "./form-bounds.ts";
import { Upload } from "./upload.ts";

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
export async function readMultipart(request: Request, type: string, maxUpload: number, budget: DoorBudget, form: ReadForm, spoolDir?: string): Promise<void> {
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
