/**
 * The admin door's body reader. Whatever arrives before the signature is checked must cost little
 * and bounded memory and time, so the body is read here as a stream, never handed whole to a
 * general parser: a form body (url-encoded) may hold at most FORM_LIMITS.fieldBytes, a multipart
 * body at most FORM_LIMITS.fields fields, FORM_LIMITS.files file parts of at most `maxUpload` bytes
 * each; file parts are written to an unlinked spool file (upload.ts) and hashed (md5, for the
 * signature) chunk by chunk as they arrive, so the event loop is never held for more than one
 * chunk's work and a large upload is never in memory, and every byte a request holds before it is
 * authenticated (in memory or on disk) is counted against the server-wide `DoorBudget`. The bounds
 * and the counted steps are form-bounds.ts's; a multipart body is parsed by multipart.ts.
 */
import { addParam, chunks, FORM_LIMITS, text, type DoorBudget, type ReadForm } from "./form-bounds.ts";
import { readMultipart } from "./multipart.ts";
import type { Upload } from "./upload.ts";

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
