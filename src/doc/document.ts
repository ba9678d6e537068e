/**
 * The one JSON document format behind import, backup and restore (DESIGN §2).
 * A document's sha256 is the hex digest of its compact JSON with the `sha256` field removed,
 * keys in the order written, which is what JSON.stringify(JSON.parse(text)) reproduces.
 */
import { validateArticle, type ArticleInput } from "../article/article.ts";
import type { Reduce } from "../article/fields.ts";
import { memorySource, readAll, type ByteSource } from "./byte-source.ts";
import type { ScannedRecord } from "./json-scanner.ts";
import { articleValues, readArticles, scanDocument, scanSteps, trailingSha256, type DocumentScan } from "./scanner.ts";
import { decodeUtf8 } from "./utf8.ts";
import { confirmRepeats, KeyHashes } from "./duplicates.ts";
import { InvalidDocumentError, ProblemList, ReplydError } from "../base/errors.ts";
import { validateMenu, type Menu } from "./menu.ts";
import { validateRule, validateTags, validateTexts, type Rule, type Tags, type Texts } from "./rule.ts";
import { validateSynonyms, type SynonymGroup } from "./synonyms.ts";

export const FORMAT = "replyd/1";
export const MATTERS = ["all", "articles", "rules", "texts", "menu", "synonyms"] as const;
export type Matter = (typeof MATTERS)[number];
export const isMatter = (m: unknown): m is Matter => typeof m === "string" && (MATTERS as readonly string[]).includes(m);

/** Which sections each matter holds; tags travel with the articles they describe. */
export const SECTIONS: Record<Matter, readonly Section[]> = {
  all: ["articles", "tags", "rules", "texts", "menu", "synonyms"],
  articles: ["articles", "tags"],
  rules: ["rules"],
  texts: ["texts"],
  menu: ["menu"],
  synonyms: ["synonyms"],
};
export type Section = "articles" | "tags" | "rules" | "texts" | "menu" | "synonyms";
/**
 * Sections a document of its matter may leave out: tags travel with articles; `all` documents
 * written before menus or synonyms existed have none.
 */
const OPTIONAL: Record<Matter, readonly Section[]> = { all: ["tags", "menu", "synonyms"], articles: ["tags"], rules: [], texts: [], menu: [], synonyms: [] };

export interface ReplydDocument {
  format: string;
  matter: Matter;
  created_at: string;
  articles?: ArticleInput[];
  tags?: Tags;
  rules?: Rule[];
  texts?: Texts;
  /** The account's menu; null: the account has none. */
  menu?: Menu | null;
  /** The operator's synonyms (synonyms.ts). */
  synonyms?: SynonymGroup[];
  sha256?: string;
}

const TOP_LEVEL = new Set(["format", "matter", "created_at", "articles", "tags", "rules", "texts", "menu", "synonyms", "sha256"]);

export { decodeUtf8 };

export function sha256hex(data: string | Uint8Array): string {
  return new Bun.CryptoHasher("sha256").update(data).digest("hex");
}

export function documentDigest(doc: object): string {
  const { sha256: _omit, ...rest } = doc as Record<string, unknown>;
  return sha256hex(JSON.stringify(rest));
}

/** Parses and validates a whole document; throws with every problem found, or returns it whole. */
export function parseDocument(text: string): ReplydDocument {
  return validateDocument(parseJson(text));
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new ReplydError("bad_json", `the file is not valid JSON: ${(e as Error).message}`);
  }
}

/**
 * Bodies a caller reduced before the records are checked (doc/bodies.ts): how the body of the
 * record at each place is reduced, so that no pass over the document reduces one again.
 */
export interface ReducedBodies {
  of(index: number): Reduce;
}

export interface ReadOptions {
  /** Keep the validated records in memory (a document already in memory). */
  keep?: boolean;
  /** Bytes of the source read at once. */
  window?: number;
  bodies?: ReducedBodies;
}

/** A document's articles, validated; handed over again, one by one, whenever they are needed. */
export interface Articles {
  readonly count: number;
  /** Records without an id (one is minted for each when they are written). */
  readonly missingIds: number;
  /** Every record, validated, in order (read again from the document's source when it is not in memory). */
  each(fn: (record: ArticleInput, index: number) => void): void;
  /** The same, pulled one at a time (a writer that awaits between batches). */
  values(): Iterable<ArticleInput>;
}

/** A validated document whose articles need not be in memory: what bulk writes take. */
export interface BulkDocument extends Omit<ReplydDocument, "articles"> {
  articles?: Articles;
}

/** A document in memory as a BulkDocument. */
export function asBulk(doc: ReplydDocument): BulkDocument {
  const list = doc.articles;
  if (!list) return doc as BulkDocument;
  return { ...doc, articles: { count: list.length, missingIds: list.filter((a) => !a.id).length, each: (fn) => list.forEach(fn), values: () => list } };
}

/**
 * parseDocument() of an uploaded file's bytes, read article by article (doc/scanner.ts) so that the
 * file is never one string and one object graph besides the validated records. Same answers.
 */
export function parseDocumentBytes(bytes: Uint8Array): ReplydDocument {
  const doc = readDocument(memorySource(bytes), { keep: true });
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
    return asBulk(validateDocument(raw, opts.bodies));
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
  return validateMembers(members, scan.articlesAt >= 0, check, {
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
}

export function validateDocument(raw: unknown, bodies?: ReducedBodies): ReplydDocument {
  if (Array.isArray(raw)) raw = { format: FORMAT, matter: "articles", created_at: new Date().toISOString(), articles: raw };
  if (typeof raw !== "object" || raw === null)
    throw new InvalidDocumentError([{ field: "(document)", reason: 'must be an object with "format": "replyd/1", or an array of articles' }]);
  const r = raw as Record<string, unknown>;
  const list = r.articles;
  const { articles: _articles, ...members } = r;
  const check = new ArticleCheck(true, bodies);
  if (Array.isArray(list)) list.forEach(check.add);
  const doc = validateMembers(Array.isArray(list) ? members : r, Array.isArray(list), check, {
    digest: () => documentDigest(r),
    again: (each) => (list as unknown[]).forEach(each),
  });
  if (!doc.articles) return doc as ReplydDocument;
  return { ...doc, articles: check.kept as ArticleInput[] };
}

/** Every record of a document checked as it passes; only hashes of ids and codes kept (and the records, when `keep`). */
class ArticleCheck {
  count = 0;
  missingIds = 0;
  readonly problems = new ProblemList();
  readonly ids = new KeyHashes();
  readonly codes = new KeyHashes();
  readonly kept: ArticleInput[] | null;

  constructor(
    keep: boolean,
    private readonly bodies?: ReducedBodies,
  ) {
    this.kept = keep ? [] : null;
  }

  private check(record: unknown, index: number) {
    return validateArticle(record, this.bodies ? { index, section: "articles", reduce: this.bodies.of(index) } : { index, section: "articles" });
  }

  /** A record read again, known to be valid: its value (undefined when it no longer is). */
  validate(record: unknown, index: number): ArticleInput | undefined {
    return this.check(record, index).value;
  }

  readonly add = (record: unknown, index: number): void => {
    this.count++;
    const { value, problems } = this.check(record, index);
    if (!value) return void this.problems.push(...problems);
    this.ids.add(value.id);
    this.codes.add(liveCode(value));
    if (!value.id) this.missingIds++;
    this.kept?.push(value);
  };
}

const liveCode = (a: ArticleInput) => (a.code && !a.deleted ? a.code.toLowerCase() : undefined);

/** How a document's articles are reached again: its digest, the raw records, the validated ones. */
interface ArticleAccess {
  digest(): string;
  again(each: (record: unknown, index: number) => void): void;
  /** The validated records, when they are not kept in memory. */
  articles?: Pick<Articles, "each" | "values">;
}

/** Checks a document's members, its articles (an array) having been checked by `check`. */
function validateMembers(r: Record<string, unknown>, hasArticles: boolean, check: ArticleCheck, access: ArticleAccess): BulkDocument {
  const problems = new ProblemList();
  const keys = hasArticles ? [...Object.keys(r), "articles"] : Object.keys(r);
  for (const key of keys) if (!TOP_LEVEL.has(key)) problems.push({ field: key, reason: "unknown top-level field" });
  if (r.format !== FORMAT) problems.push({ field: "format", reason: `must be "${FORMAT}"` });
  if (!isMatter(r.matter)) problems.push({ field: "matter", reason: `must be one of ${MATTERS.join(", ")}` });
  if (r.created_at !== undefined && (typeof r.created_at !== "string" || Number.isNaN(Date.parse(r.created_at))))
    problems.push({ field: "created_at", reason: "must be an ISO-8601 time" });
  const sha256 = typeof r.sha256 === "string" && /^[0-9a-f]{64}$/.test(r.sha256) ? r.sha256 : undefined;
  if (r.sha256 !== undefined && !sha256) problems.push({ field: "sha256", reason: "must be 64 lowercase hex digits" });

  const matter = isMatter(r.matter) ? r.matter : "all";
  const allowed = SECTIONS[matter];
  for (const section of ["articles", "tags", "rules", "texts", "menu", "synonyms"] as const)
    if ((section === "articles" ? hasArticles || r.articles !== undefined : r[section] !== undefined) && !allowed.includes(section))
      problems.push({ field: section, reason: `a document of matter "${matter}" cannot hold ${section}` });

  const doc: BulkDocument = {
    format: FORMAT,
    matter,
    created_at: typeof r.created_at === "string" ? r.created_at : new Date().toISOString(),
  };

  // A wrong sha256 is said before the problems, as a truncated or edited file is what explains them.
  if (sha256 && access.digest() !== sha256)
    throw new ReplydError("checksum_mismatch", "the document's sha256 does not match its content: it was truncated or edited; nothing was written");
  if (hasArticles) {
    problems.push(...check.problems.listed);
    problems.total += check.problems.total - check.problems.listed.length;
    if (check.problems.total === 0) duplicateArticleProblems(check, access, problems);
    const kept = check.kept;
    const read = kept ? { each: (fn: (record: ArticleInput, index: number) => void) => kept.forEach(fn), values: () => kept } : access.articles;
    if (read) doc.articles = { count: check.count, missingIds: check.missingIds, ...read };
  } else if (r.articles !== undefined) problems.push({ field: "articles", reason: "must be an array" });
  if (r.tags !== undefined) {
    const { value, problems: p } = validateTags(r.tags);
    problems.push(...p);
    if (value) doc.tags = value;
  }
  if (r.rules !== undefined) {
    if (!Array.isArray(r.rules)) problems.push({ field: "rules", reason: "must be an array" });
    else {
      const rules: Rule[] = [];
      const seen = new Map<string, number>();
      r.rules.forEach((rec, index) => {
        const { value, problems: p } = validateRule(rec, index);
        if (!value) return void problems.push(...p);
        const first = seen.get(value.id);
        if (first !== undefined) problems.push({ section: "rules", index, field: "id", reason: `duplicates rule ${first}` });
        seen.set(value.id, index);
        rules.push(value);
      });
      doc.rules = rules;
    }
  }
  if (r.texts !== undefined) {
    const { value, problems: p } = validateTexts(r.texts);
    problems.push(...p);
    if (value) doc.texts = value;
  }

  if (r.menu === null) doc.menu = null;
  else if (r.menu !== undefined) {
    const { value, problems: p } = validateMenu(r.menu);
    problems.push(...p);
    if (value) doc.menu = value;
  }
  if (r.synonyms !== undefined) {
    const { value, problems: p } = validateSynonyms(r.synonyms);
    problems.push(...p);
    if (value) doc.synonyms = value;
  }

  if (problems.length) throw new InvalidDocumentError(problems);
  if (typeof r.sha256 === "string") doc.sha256 = r.sha256;
  return doc;
}

/** Ids unique in the document; codes unique among its live articles, ignoring case. Only keys whose hash repeats are read again. */
function duplicateArticleProblems(check: ArticleCheck, access: ArticleAccess, into: ProblemList): void {
  const found = new ProblemList();
  const valid = (visit: (index: number, a: ArticleInput) => void) =>
    check.kept
      ? check.kept.forEach((a, index) => visit(index, a))
      : access.again((raw, index) => visit(index, check.validate(raw, index) as ArticleInput));
  const repeats = (hashes: KeyHashes, key: (a: ArticleInput) => string | undefined, field: "id" | "code") => {
    for (const [index, first, label] of confirmRepeats(hashes, (look) => valid((index, a) => look(index, key(a), (field === "id" ? a.id : a.code) ?? undefined))))
      found.push({ section: "articles", index, field, reason: `"${label}" is also the ${field} of record ${first}` });
  };
  repeats(check.ids, (a) => a.id, "id");
  repeats(check.codes, liveCode, "code");
  // Record by record, as a reader goes through the document; past the listed bound, only counted.
  into.push(...found.listed.sort((a, b) => (a.index as number) - (b.index as number)));
  into.total += found.total - found.listed.length;
}

/** Which sections a restore of `matter` replaces, and that the document holds the ones it needs. */
export function requireSections(doc: BulkDocument | ReplydDocument, matter: Matter): void {
  const needed = SECTIONS[matter].filter((s) => !OPTIONAL[matter].includes(s));
  const missing = needed.filter((s) => doc[s] === undefined);
  if (missing.length)
    throw new ReplydError(
      "matter_mismatch",
      `a restore of "${matter}" needs the document's ${missing.join(", ")}; this document is of matter "${doc.matter}"`,
    );
}

/**
 * Writes a document piece by piece, hashing as it goes, so a backup of any size streams through
 * a bounded buffer. The output parses back to the same keys in the same order, so its sha256 verifies.
 */
export class DocumentWriter {
  private readonly hasher = new Bun.CryptoHasher("sha256");

  constructor(
    private readonly sink: (chunk: string) => void,
    matter: Matter,
    createdAt: string,
  ) {
    this.emit(`{"format":${JSON.stringify(FORMAT)},"matter":${JSON.stringify(matter)},"created_at":${JSON.stringify(createdAt)}`);
  }

  private emit(chunk: string): void {
    this.hasher.update(chunk);
    this.sink(chunk);
  }

  field(name: Section, value: unknown): void {
    this.emit(`,${JSON.stringify(name)}:${JSON.stringify(value)}`);
  }

  array<T>(name: Section, items: Iterable<T>, encode: (item: T) => unknown = (x) => x): number {
    const add = this.opened(name);
    for (const item of items) add(encode(item));
    return this.closed();
  }

  private count = 0;
  private items: string[] = [];

  /** An array written item by item, for items that arrive in pages (from another database): close it with closed(). */
  opened(name: Section): (item: unknown) => void {
    this.emit(`,${JSON.stringify(name)}:[`);
    this.count = 0;
    return (item) => {
      this.items.push((this.count++ ? "," : "") + JSON.stringify(item));
      // Hashed and handed on a few hundred items at a time: a call into the hasher per article cost
      // a quarter of a million-article backup.
      if (this.items.length === 512) this.flushItems();
    };
  }

  private flushItems(): void {
    if (!this.items.length) return;
    this.emit(this.items.join(""));
    this.items = [];
  }

  /** Closes the array opened last; answers how many items it holds. */
  closed(): number {
    this.flushItems();
    this.emit("]");
    return this.count;
  }

  /** Closes the document and returns its sha256. */
  finish(): string {
    this.hasher.update("}");
    const sha = this.hasher.digest("hex");
    this.sink(`,"sha256":"${sha}"}`);
    return sha;
  }
}

/**
 * A menu file (replyd menu set): the platform's own {"button": [...]}, or a replyd document that
 * holds a menu. The same check on the laptop and on the server.
 */
export function menuFromBytes(bytes: Uint8Array): Menu {
  return menuOf(menuJson(bytes));
}

/** A menu file's JSON, parsed. */
export function menuJson(bytes: Uint8Array): unknown {
  try {
    return JSON.parse(decodeUtf8(bytes));
  } catch (e) {
    if (e instanceof ReplydError) throw e;
    throw new ReplydError("bad_json", `the file is not valid JSON: ${(e as Error).message}`);
  }
}

/** The menu a parsed menu file holds; a document's articles are checked with `bodies` (doc/bodies.ts). */
export function menuOf(raw: unknown, bodies?: ReducedBodies): Menu {
  if (typeof raw === "object" && raw !== null && "format" in raw) {
    const doc = validateDocument(raw, bodies);
    // 400, as every refusal of a file is (no_menu is 404: no menu stored).
    if (!doc.menu) throw new ReplydError("matter_mismatch", `the document (matter "${doc.matter}") holds no menu`);
    return doc.menu;
  }
  const { value, problems } = validateMenu(raw);
  if (value) return value;
  const e = new InvalidDocumentError(problems, "the menu is invalid; nothing was stored or pushed");
  throw new ReplydError("invalid_menu", e.message, e.details);
}
