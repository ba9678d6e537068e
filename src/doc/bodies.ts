/**
 * A document's bodies reduced once, a slice at a time, before anything else reads them: what the
 * server does with an uploaded document or a backup (import, restore). Reducing the HTML of a
 * body is the one piece of reading a document whose cost a single record can make large (a
 * megabyte of nested elements); done at once, each pass over the document (validation, the ids,
 * the write, which on SQLite is one synchronous transaction) would do it again on the event loop.
 * Here the first pass reduces each body with bodyTextSliced(), giving the event loop back between
 * slices, and keeps the text in a spool file; every pass after that, the write included, reads it
 * back instead of reducing the body again.
 *
 * The spool file is unlinked as soon as it is made (it lives as long as its descriptor, as an
 * upload's does) and holds the kept text of the bodies that were HTML, never more than the
 * document: the memory held is 24 bytes per record up to the last that had HTML.
 */
import { closeSync, constants, openSync, readSync, unlinkSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Reduce } from "../article/fields.ts";
import { LIMITS } from "../article/text-rules.ts";
import { bodyText, bodyTextSliced, mayHoldMarkdown } from "../article/body-text.ts";
import type { ByteSource } from "./byte-source.ts";
import type { BulkDocument } from "./document.ts";
import { menuJson, menuOf } from "./menu-file.ts";
import { readingDocument } from "./reading.ts";
import type { ReducedBodies } from "./validation.ts";
import type { Menu } from "./menu.ts";
import { ReplydError } from "../base/errors.ts";
import { Slices } from "../base/slices.ts";

export class KeptBodies implements ReducedBodies {
  private fd = -1;
  private size = 0;
  /** Per record: where its kept text is in the file (-1: nowhere), its length, and the length and hash of the body it came from. */
  private at = new Float64Array(0);
  private chars = new Uint32Array(0);
  private sent = new Uint32Array(0);
  private hashes = new BigUint64Array(0);

  /** `dir`: where the spool file goes (the data folder's disk, as for uploads). */
  constructor(private readonly dir: string = tmpdir()) {}

  /**
   * Reduces the body of `record` (the `index`th of its document), a slice at a time, and keeps the
   * text; nothing to wait for (undefined) when it holds no "<" to make it HTML and no Markdown mark —
   * a body of marks is reduced once here too, not again on every pass (a review).
   */
  reduce(record: unknown, index: number, slices: Slices): Promise<void> | undefined {
    if (typeof record !== "object" || record === null) return;
    const body = (record as { body?: unknown }).body;
    // Past the limit as sent, validation refuses the body without reducing it.
    if (typeof body !== "string" || body.length > LIMITS.bodyPart || (!body.includes("<") && !mayHoldMarkdown(body))) return;
    return bodyTextSliced(body, slices).then((kept) => {
      // Text that was not HTML is kept as it came: nothing to remember.
      if (kept !== body) this.put(index, body, kept);
    });
  }

  /** How the body of the record at `index` is reduced: the text kept for it, or bodyText() for one not reduced here. */
  of(index: number): Reduce {
    return (raw) => this.get(index, raw) ?? bodyText(raw);
  }

  close(): void {
    if (this.fd < 0) return;
    closeSync(this.fd);
    this.fd = -1;
  }

  private put(index: number, body: string, kept: string): void {
    if (index >= this.at.length) this.grow(index + 1);
    // UTF-16 as it is in memory: a lone surrogate comes back as it went, for validation to refuse.
    const bytes = Buffer.from(kept, "utf16le");
    const fd = this.file();
    try {
      for (let done = 0; done < bytes.length; ) done += writeSync(fd, bytes, done, bytes.length - done, this.size + done);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === "ENOSPC" || code === "EDQUOT") throw new ReplydError("disk_full", "the server's disk is full: the document's bodies could not be kept while it is read; nothing was written");
      throw e;
    }
    this.at[index] = this.size;
    this.chars[index] = kept.length;
    this.sent[index] = body.length;
    this.hashes[index] = BigInt.asUintN(64, BigInt(Bun.hash(body)));
    this.size += bytes.length;
  }

  private get(index: number, raw: string): string | undefined {
    const at = index < this.at.length ? (this.at[index] as number) : -1;
    // Only for the body it was kept for (a record read again is the same record; this makes sure).
    if (at < 0 || this.sent[index] !== raw.length || this.hashes[index] !== BigInt.asUintN(64, BigInt(Bun.hash(raw)))) return undefined;
    const bytes = Buffer.allocUnsafe((this.chars[index] as number) * 2);
    for (let done = 0; done < bytes.length; ) {
      const n = readSync(this.fd, bytes, done, bytes.length - done, at + done);
      if (n === 0) throw new Error("a kept body was cut short in its spool file");
      done += n;
    }
    return bytes.toString("utf16le");
  }

  private grow(needed: number): void {
    const length = Math.max(needed, 2 * this.at.length, 64);
    const at = new Float64Array(length).fill(-1);
    at.set(this.at);
    const chars = new Uint32Array(length);
    chars.set(this.chars);
    const sent = new Uint32Array(length);
    sent.set(this.sent);
    const hashes = new BigUint64Array(length);
    hashes.set(this.hashes);
    [this.at, this.chars, this.sent, this.hashes] = [at, chars, sent, hashes];
  }

  private file(): number {
    if (this.fd >= 0) return this.fd;
    const path = join(this.dir, `.replyd-bodies-${crypto.randomUUID()}`);
    try {
      this.fd = openSync(path, constants.O_RDWR | constants.O_CREAT | constants.O_EXCL, 0o600);
    } catch (e) {
      throw new ReplydError("upload_failed", `the server cannot keep a document's bodies while it reads it: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
    }
    unlinkSync(path);
    return this.fd;
  }
}

/**
 * readDocument() with every body reduced once, ahead of its record's check, a slice at a time
 * (KeptBodies); the records are read on from the file between slices. `bodies` must stay open
 * while the document is read again (the write), and be closed after.
 */
export async function readDocumentSliced(src: ByteSource, bodies: KeptBodies, opts: { window?: number; slices?: Slices } = {}): Promise<BulkDocument> {
  const slices = opts.slices ?? new Slices();
  const steps = readingDocument(src, { bodies, ...(opts.window ? { window: opts.window } : {}) });
  for (let step = steps.next(); ; step = steps.next()) {
    if (step.done) return step.value;
    const reducing = bodies.reduce(step.value[0], step.value[1], slices);
    if (reducing) await reducing;
    // Reading the records is work too (each is parsed): the loop is given back between them as well.
    if (slices.spent) await slices.pause();
  }
}

/**
 * One article's body (add, set), reduced ahead a slice at a time: how its check gets the text
 * (article/fields.ts Reduce). Undefined when there is no body to reduce, or one validation refuses as sent.
 */
export async function bodyReducedAhead(raw: unknown, slices = new Slices()): Promise<Reduce | undefined> {
  if (typeof raw !== "string" || raw.length > LIMITS.bodyPart) return undefined;
  const kept = await bodyTextSliced(raw, slices);
  return (body) => (body === raw ? kept : bodyText(body));
}

/** menuFromBytes() of a menu file that may be a whole document: its articles' bodies reduced ahead, a slice at a time. */
export async function menuFromBytesSliced(bytes: Uint8Array, bodies: KeptBodies, slices = new Slices()): Promise<Menu> {
  const raw = menuJson(bytes);
  const articles = typeof raw === "object" && raw !== null && "format" in raw ? (raw as { articles?: unknown }).articles : undefined;
  if (Array.isArray(articles))
    for (let index = 0; index < articles.length; index++) {
      const reducing = bodies.reduce(articles[index], index, slices);
      if (reducing) await reducing;
    }
  return menuOf(raw, bodies);
}
