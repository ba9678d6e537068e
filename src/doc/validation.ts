/**
 * A document checked: its members, every section (rules, texts, tags, menu, synonyms through
 * their own files), every article record and the ids and live codes repeated among them — all the
 * problems found said at once, a wrong sha256 before them. The records are checked as they pass
 * (ArticleCheck), so a document read from its source (reading.ts) is checked the same way as one
 * parsed whole, keeping only hashes of its ids and codes.
 */
import { validateArticle, type ArticleInput } from "../article/article.ts";
import type { Reduce } from "../article/fields.ts";
import { ACCOUNT_NAME } from "../base/account-name.ts";
import { InvalidDocumentError, ProblemList, ReplydError } from "../base/errors.ts";
import { documentDigest } from "./digest.ts";
import { FORMAT, isMatter, MATTERS, SECTIONS, TOP_LEVEL, type Articles, type BulkDocument, type ReplydDocument } from "./document.ts";
import { confirmRepeats, KeyHashes } from "./duplicates.ts";
import { validateMenu } from "./menu.ts";
import { validateRule, validateTags, validateTexts, type Rule } from "./rule.ts";
import { validateSynonyms } from "./synonyms.ts";

/** Parses and validates a whole document; throws with every problem found, or returns it whole. */
export function parseDocument(text: string): ReplydDocument {
  return validateDocument(parseJson(text));
}

export function parseJson(text: string): unknown {
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
export class ArticleCheck {
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
export interface ArticleAccess {
  digest(): string;
  again(each: (record: unknown, index: number) => void): void;
  /** The validated records, when they are not kept in memory. */
  articles?: Pick<Articles, "each" | "values">;
}

/** Checks a document's members, its articles (an array) having been checked by `check`. */
export function validateMembers(r: Record<string, unknown>, hasArticles: boolean, check: ArticleCheck, access: ArticleAccess): BulkDocument {
  const problems = new ProblemList();
  const keys = hasArticles ? [...Object.keys(r), "articles"] : Object.keys(r);
  for (const key of keys) if (!TOP_LEVEL.has(key)) problems.push({ field: key, reason: "unknown top-level field" });
  if (r.format !== FORMAT) problems.push({ field: "format", reason: `must be "${FORMAT}"` });
  if (!isMatter(r.matter)) problems.push({ field: "matter", reason: `must be one of ${MATTERS.join(", ")}` });
  if (r.created_at !== undefined && (typeof r.created_at !== "string" || Number.isNaN(Date.parse(r.created_at))))
    problems.push({ field: "created_at", reason: "must be an ISO-8601 time" });
  const account = typeof r.account === "string" && ACCOUNT_NAME.test(r.account) ? r.account : undefined;
  if (r.account !== undefined && !account) problems.push({ field: "account", reason: "must be an account name: 1 to 32 lower-case letters, digits, - and _, starting with a letter or digit" });
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
    ...(account ? { account } : {}),
  };

  // A wrong sha256 is said before the problems, as a truncated or edited file is what explains them.
  if (sha256 && access.digest() !== sha256)
    throw new ReplydError("checksum_mismatch", "the document's sha256 does not match its content: it was truncated or edited; nothing was written (a backup edited by hand on purpose: remove its \"sha256\" member, which is optional, to import it)");
  if (hasArticles) {
    problems.push(...check.problems.listed);
    problems.total += check.problems.total - check.problems.listed.length;
    if (check.problems.total === 0) duplicateArticleProblems(check, access, problems);
    const kept = check.kept;
    const read = kept ? { each: (fn: (record: ArticleInput, index: number) => void) => kept.forEach(fn), values: () => kept } : access.articles;
    if (read) doc.articles = { count: check.count, missingIds: check.missingIds, ...read };
  } else if (r.articles !== undefined) problems.push({ field: "articles", reason: "must be an array" });
  if (r.tags !== undefined) {
    const { value, removed, problems: p } = validateTags(r.tags);
    problems.push(...p);
    if (value) doc.tags = value;
    if (removed) doc.tagsRemoved = removed;
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
      found.push({ section: "articles", index, ...(field === "id" ? { id: label } : {}), field, reason: `"${label}" is also the ${field} of record ${first}` });
  };
  repeats(check.ids, (a) => a.id, "id");
  repeats(check.codes, liveCode, "code");
  // Record by record, as a reader goes through the document; past the listed bound, only counted.
  into.push(...found.listed.sort((a, b) => (a.index as number) - (b.index as number)));
  into.total += found.total - found.listed.length;
}
