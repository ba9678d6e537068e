/**
 * A document read from its bytes (an upload, a backup file) in bounded memory: one pass over the
 * scanner's pieces (scanner.ts) checks every record as it passes (validation.ts) and keeps nothing
 * of the articles but their count; they are read again from the source when they are written.
 */
import type { ArticleInput } from "../article/article.ts";
import { memorySource, readAll, type ByteSource } from "./byte-source.ts";
import { asBulk, FORMAT, type BulkDocument, type ReplydDocument } from "./document.ts";
import type { ScannedRecord } from "./json-scanner.ts";
import { articleValues, readArticles, scanDocument, scanSteps, trailingSha256, type DocumentScan } from "./scanner.ts";
import { decodeUtf8 } from "./file-text.ts";
import { ArticleCheck, parseJson, validateDocument, validateMembers, type ReducedBodies } from "./validation.ts";

export interface ReadOptions {
  /** Keep the validated records in memory (a document already in memory). */
  keep?: boolean;
  /** Bytes of the source read at once. */
  window?: number;
  bodies?: ReducedBodies;
}

/**
 * parseDocument() of an uploaded file's bytes, read article by article (doc/scanner.ts) so that the
 * file is never one string and one object graph besides the validated records. Same answers.
 */
export function parseDocumentBytes(bytes: Uint8Array): ReplydDocument {
  // As parseDocument reads it: a bare array is a document of matter articles, nothing more.
  const { bare: _bare, ...doc } = readDocument(memorySource(bytes), { keep: true });
  if (!doc.articles) return doc as ReplydDocument;
  const articles: ArticleInput[] = [];
  doc.articles.each((a) => articles.push(a));
  return { ...doc, articles };
}

/**
 * A document read from its source in bounded memory: one pass validates it (every record, its
 * duplicates by hash, its sha256) and keeps nothing of the articles but their count; they are read
 * again from the source when written. `keep` keeps them instead (a document already in memory).
 */
export function readDocument(src: ByteSource, opts: ReadOptions = {}): BulkDocument {
  const steps = readingDocument(src, opts);
  for (let step = steps.next(); ; step = steps.next()) if (step.done) return step.value;
}

/**
 * readDocument(), handing out every record before it is checked: whoever pulls them may reduce
 * their bodies (and give the event loop back) before the check, which takes the reduced bodies
 * from `opts.bodies`.
 */
export function* readingDocument(src: ByteSource, opts: ReadOptions = {}): Generator<ScannedRecord, BulkDocument, undefined> {
  const check = new ArticleCheck(opts.keep ?? false, opts.bodies);
  const carried = trailingSha256(src);
  const steps = scanSteps(src, { digest: carried ? "bytes" : "none", window: opts.window });
  let step = steps.next();
  for (; !step.done; step = steps.next()) {
    yield step.value;
    check.add(step.value[0], step.value[1]);
  }
  const scan = step.value;
  // What the piecewise reader leaves to JSON.parse (a top-level key repeated): read whole.
  if (!scan) {
    const raw = parseJson(decodeUtf8(readAll(src)));
    const list = Array.isArray(raw) ? raw : typeof raw === "object" && raw !== null && Array.isArray((raw as ReplydDocument).articles) ? (raw as { articles: unknown[] }).articles : [];
    for (let index = 0; index < list.length; index++) yield [list[index], index];
    const doc = asBulk(validateDocument(raw, opts.bodies));
    return Array.isArray(raw) ? { ...doc, bare: true } : doc;
  }
  const members: Record<string, unknown> = scan.bare
    ? { format: FORMAT, matter: "articles", created_at: new Date().toISOString() }
    : Object.fromEntries(scan.members);
  const again = (each: (record: unknown, index: number) => void) => readArticles(src, scan.articlesAt, each, opts.window);
  const validated = (raw: unknown, index: number): ArticleInput => {
    const value = check.validate(raw, index);
    if (!value) throw new Error("the document changed while it was being written");
    return value;
  };
  const doc = validateMembers(members, scan.articlesAt >= 0, check, {
    // A document replyd wrote is compact: its bytes hash to its sha256. Otherwise the canonical form is.
    digest: () =>
      scan.digest && scan.digest === members.sha256 ? scan.digest : (scanDocument(src, { digest: "canonical", window: opts.window }) as DocumentScan).digest,
    again,
    articles: {
      each: (each) => again((raw, index) => each(validated(raw, index), index)),
      *values() {
        let index = 0;
        for (const raw of articleValues(src, scan.articlesAt, opts.window)) yield validated(raw, index++);
      },
    },
  });
  return scan.bare ? { ...doc, bare: true } : doc;
}
