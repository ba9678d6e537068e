/**
 * An upload's body, as the client sends it: multipart/form-data built by hand so its exact length is
 * known (the progress meter) and its files stay on disk, streamed a piece at a time as the connection
 * takes them; each file part's md5 for the signature, read in pieces too; and what Ctrl-C during it
 * means for the server.
 */
import { fileParamValue, newNonce, type Param } from "../sign.ts";
import { CLIError } from "./errors.ts";
import type { LocalFile } from "./files.ts";
import type { IO } from "./io.ts";
import type { Progress } from "./progress.ts";

/** A file part: small bytes in memory, or a local file sent from disk in pieces. */
export type FilePart = { name: string; filename: string; type?: string } & ({ bytes: Uint8Array } | { file: LocalFile });

/** Bytes sent from a local file per read. */
const SEND_CHUNK = 256 * 1024;

/** The md5 the signature carries for a part, computed over a file in pieces. */
export function partDigest(f: FilePart): string {
  if ("bytes" in f) return fileParamValue(f.bytes);
  const md5 = new Bun.CryptoHasher("md5");
  for (let at = 0; at < f.file.size; ) {
    const piece = f.file.read(at, 4 * SEND_CHUNK);
    if (!piece.length) break;
    md5.update(piece);
    at += piece.length;
  }
  return "md5:" + md5.digest("hex");
}

const encoder = new TextEncoder();

/** multipart/form-data built by hand so its exact length is known and progress can be shown; files stay on disk. */
export function multipart(fields: Param[], files: FilePart[]): { parts: (Uint8Array | LocalFile)[]; length: number; type: string } {
  const boundary = "replyd-" + newNonce();
  const parts: (Uint8Array | LocalFile)[] = [];
  const quote = (s: string) => s.replace(/["\r\n\\]/g, (c) => "%" + c.charCodeAt(0).toString(16).toUpperCase());
  for (const [k, v] of fields) parts.push(encoder.encode(`--${boundary}\r\nContent-Disposition: form-data; name="${quote(k)}"\r\n\r\n${v}\r\n`));
  for (const f of files) {
    parts.push(
      encoder.encode(
        `--${boundary}\r\nContent-Disposition: form-data; name="${quote(f.name)}"; filename="${quote(f.filename)}"\r\nContent-Type: ${f.type ?? "application/octet-stream"}\r\n\r\n`,
      ),
    );
    parts.push("bytes" in f ? f.bytes : f.file);
    parts.push(encoder.encode("\r\n"));
  }
  parts.push(encoder.encode(`--${boundary}--\r\n`));
  const length = parts.reduce((n, p) => n + (p instanceof Uint8Array ? p.length : p.size), 0);
  return { parts, length, type: `multipart/form-data; boundary=${boundary}` };
}

/**
 * Ctrl-C during an upload says what became of it: before the last byte left, the server applies
 * nothing (it takes only a whole, signed body); after, it may have applied it, and the operator is
 * told how to find out rather than left to guess.
 */
export function watchUpload(io: IO): { sent(): void; done(): void } {
  let sent = false;
  const interrupted = () => {
    io.err(
      sent
        ? "replyd: interrupted after the upload was sent: the server may have applied it. Check with replyd health (the counts) and replyd backups (an import --init or a restore lists the automatic backup it took first); run the command again only if it was not applied"
        : "replyd: interrupted before the whole upload was sent: the server applies nothing it did not receive whole",
    );
    process.exit(130);
  };
  process.on("SIGINT", interrupted);
  return { sent: () => void (sent = true), done: () => void process.off("SIGINT", interrupted) };
}

/** The body, a piece at a time: a file is read as the connection takes it, so memory holds one piece. */
export function partStream(parts: (Uint8Array | LocalFile)[], progress: Progress | null, allSent: () => void): ReadableStream<Uint8Array> {
  let sent = 0;
  let part = 0;
  let at = 0;
  return new ReadableStream({
    pull(controller) {
      for (;;) {
        const p = parts[part];
        if (p === undefined) {
          progress?.done();
          allSent();
          controller.close();
          return;
        }
        const size = p instanceof Uint8Array ? p.length : p.size;
        if (at >= size) {
          part++;
          at = 0;
          continue;
        }
        const chunk = p instanceof Uint8Array ? p.subarray(at, at + SEND_CHUNK) : p.read(at, SEND_CHUNK);
        // A file that shrank since it was signed: the server would refuse the signature anyway.
        if (!chunk.length) throw new CLIError("file_changed", "the file changed while it was being sent; nothing was applied");
        at += chunk.length;
        sent += chunk.length;
        progress?.update(sent);
        controller.enqueue(chunk);
        return;
      }
    },
  });
}
