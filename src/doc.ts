/**
 * The one JSON document format behind import, backup and restore (DESIGN §2).
 * A document's sha256 is the hex digest of its compact JSON with the `sha256` field removed,
 * keys in the order written, which is what JSON.stringify(JSON.parse(text)) reproduces.
 */
import { validateArticle, type ArticleInput } from "./article.ts";
import { decodeUtf8, splitDocument } from "./docbytes.ts";
import { repeatedKeys } from "./duplicates.ts";
import { InvalidDocumentError, ProblemList, ReplydError } from "./errors.ts";
import { validateMenu, type Menu } from "./menu.ts";
import { validateRule, validateTags, validateTexts, type Rule, type Tags, type Texts } from "./rule.ts";

export const FORMAT = "replyd/1";
export const MATTERS = ["all", "articles", "rules", "texts", "menu"] as const;
export type Matter = (typeof MATTERS)[number];
export const isMatter = (m: unknown): m is Matter => typeof m === "string" && (MATTERS as readonly string[]).includes(m);

/** Which sections each matter holds; tags travel with the articles they describe. */
export const SECTIONS: Record<Matter, readonly Section[]> = {
  all: ["articles", "tags", "rules", "texts", "menu"],
  articles: ["articles", "tags"],
  rules: ["rules"],
  texts: ["texts"],
  menu: ["menu"],
};
export type Section = "articles" | "tags" | "rules" | "texts" | "menu";
/** Sections a document of its matter may leave out: tags travel with articles; `all` documents written before menus existed have none. */
const OPTIONAL: Record<Matter, readonly Section[]> = { all: ["tags", "menu"], articles: ["tags"], rules: [], texts: [], menu: [] };

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
  sha256?: string;
}

const TOP_LEVEL = new Set(["format", "matter", "created_at", "articles", "tags", "rules", "texts", "menu", "sha256"]);

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
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new ReplydError("bad_json", 400, `the file is not valid JSON: ${(e as Error).message}`);
  }
  return validateDocument(raw);
}

/**
 * parseDocument() of an uploaded file's bytes, read article by article (docbytes.ts) so that the
 * file is never one string and one object graph besides the validated records. Same answers.
 */
export function parseDocumentBytes(bytes: Uint8Array): ReplydDocument {
  const split = splitDocument(bytes);
  if (!split) return parseDocument(decodeUtf8(bytes));
  if (split.bare)
    return validateMembers({ format: FORMAT, matter: "articles", created_at: new Date().toISOString() }, { hasArticles: true, read: split.read });
  return validateMembers(Object.fromEntries(split.members), split);
}

/** The articles of a document, handed over one by one; `read` answers the document's digest. */
interface ArticleSource {
  hasArticles: boolean;
  read(each: (record: unknown, index: number) => void): string;
}

export function validateDocument(raw: unknown): ReplydDocument {
  if (Array.isArray(raw)) raw = { format: FORMAT, matter: "articles", created_at: new Date().toISOString(), articles: raw };
  if (typeof raw !== "object" || raw === null)
    throw new InvalidDocumentError([{ field: "(document)", reason: 'must be an object with "format": "replyd/1", or an array of articles' }]);
  const r = raw as Record<string, unknown>;
  const list = r.articles;
  const { articles: _articles, ...members } = r;
  return validateMembers(Array.isArray(list) ? members : r, {
    hasArticles: Array.isArray(list),
    read: (each) => {
      if (Array.isArray(list)) list.forEach(each);
      return documentDigest(r);
    },
  });
}

/** Checks a document's members, with its articles (an array) coming from `source`. */
function validateMembers(r: Record<string, unknown>, source: ArticleSource): ReplydDocument {
  const problems = new ProblemList();
  const keys = source.hasArticles ? [...Object.keys(r), "articles"] : Object.keys(r);
  for (const key of keys) if (!TOP_LEVEL.has(key)) problems.push({ field: key, reason: "unknown top-level field" });
  if (r.format !== FORMAT) problems.push({ field: "format", reason: `must be "${FORMAT}"` });
  if (!isMatter(r.matter)) problems.push({ field: "matter", reason: `must be one of ${MATTERS.join(", ")}` });
  if (r.created_at !== undefined && (typeof r.created_at !== "string" || Number.isNaN(Date.parse(r.created_at))))
    problems.push({ field: "created_at", reason: "must be an ISO-8601 time" });
  const sha256 = typeof r.sha256 === "string" && /^[0-9a-f]{64}$/.test(r.sha256) ? r.sha256 : undefined;
  if (r.sha256 !== undefined && !sha256) problems.push({ field: "sha256", reason: "must be 64 lowercase hex digits" });

  const matter = isMatter(r.matter) ? r.matter : "all";
  const allowed = SECTIONS[matter];
  for (const section of ["articles", "tags", "rules", "texts", "menu"] as const)
    if ((section === "articles" ? source.hasArticles || r.articles !== undefined : r[section] !== undefined) && !allowed.includes(section))
      problems.push({ field: section, reason: `a document of matter "${matter}" cannot hold ${section}` });

  const doc: ReplydDocument = {
    format: FORMAT,
    matter,
    created_at: typeof r.created_at === "string" ? r.created_at : new Date().toISOString(),
  };

  // The articles are read (and the digest computed) whatever else is wrong: a wrong sha256 is said
  // before the problems, as a truncated or edited file is what explains them.
  const articles: ArticleInput[] = [];
  const articleProblems = new ProblemList();
  let count = 0;
  const digest = source.read((record, index) => {
    count++;
    const { value, problems: p } = validateArticle(record, { index, section: "articles" });
    if (value) articles.push(value);
    else articleProblems.push(...p);
  });
  if (sha256 && digest !== sha256)
    throw new ReplydError("checksum_mismatch", 400, "the document's sha256 does not match its content: it was truncated or edited; nothing was written");
  if (source.hasArticles) {
    problems.push(...articleProblems.listed);
    problems.total += articleProblems.total - articleProblems.listed.length;
    if (articles.length === count) duplicateArticleProblems(articles, problems);
    doc.articles = articles;
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

  if (problems.length) throw new InvalidDocumentError(problems);
  if (typeof r.sha256 === "string") doc.sha256 = r.sha256;
  return doc;
}

/** Ids unique in the document; codes unique among its live articles, ignoring case. */
function duplicateArticleProblems(articles: ArticleInput[], into: ProblemList): void {
  const found = new ProblemList();
  for (const [index, first] of repeatedKeys(articles.map((a) => a.id)))
    found.push({ section: "articles", index, field: "id", reason: `"${articles[index]?.id}" is also the id of record ${first}` });
  const codes = articles.map((a) => (a.code && !a.deleted ? a.code.toLowerCase() : undefined));
  for (const [index, first] of repeatedKeys(codes))
    found.push({ section: "articles", index, field: "code", reason: `"${articles[index]?.code}" is also the code of record ${first}` });
  // Record by record, as a reader goes through the document; past the listed bound, only counted.
  into.push(...found.listed.sort((a, b) => (a.index as number) - (b.index as number)));
  into.total += found.total - found.listed.length;
}

/** Which sections a restore of `matter` replaces, and that the document holds the ones it needs. */
export function requireSections(doc: ReplydDocument, matter: Matter): void {
  const needed = SECTIONS[matter].filter((s) => !OPTIONAL[matter].includes(s));
  const missing = needed.filter((s) => doc[s] === undefined);
  if (missing.length)
    throw new ReplydError(
      "matter_mismatch",
      400,
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
    this.emit(`,${JSON.stringify(name)}:[`);
    let n = 0;
    for (const item of items) this.emit((n++ ? "," : "") + JSON.stringify(encode(item)));
    this.emit("]");
    return n;
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
  let raw: unknown;
  try {
    raw = JSON.parse(decodeUtf8(bytes));
  } catch (e) {
    if (e instanceof ReplydError) throw e;
    throw new ReplydError("bad_json", 400, `the file is not valid JSON: ${(e as Error).message}`);
  }
  if (typeof raw === "object" && raw !== null && "format" in raw) {
    const doc = validateDocument(raw);
    if (!doc.menu) throw new ReplydError("no_menu", 400, `the document (matter "${doc.matter}") holds no menu`);
    return doc.menu;
  }
  const { value, problems } = validateMenu(raw);
  if (value) return value;
  const e = new InvalidDocumentError(problems, "the menu is invalid; nothing was stored or pushed");
  throw new ReplydError("invalid_menu", 400, e.message, e.details);
}
