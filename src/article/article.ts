import { unknownField } from "../base/suggest.ts";
import { fieldNamed } from "./field-names.ts";
import { CONTENT, CONTENT_FIELDS, type ArticleContent, type LongName, type Reduce } from "./fields.ts";
import { ID_PATTERN } from "./text-rules.ts";
import type { Problem } from "../base/errors.ts";

export * from "./text-rules.ts";
export { CONTENT_FIELDS, type ArticleContent } from "./fields.ts";

/** An article as stored and as written into documents (DESIGN §2): its id, its content (article/fields.ts), and what the server keeps. */
export type Article = { id: string } & ArticleContent & { rev: number; created_at: string; updated_at: string };

/** An article as listings carry it: without its long fields (the body). */
export type ArticleSummary = Omit<Article, LongName>;

/** A validated incoming record; server-owned fields are present only when a document carried them. */
export interface ArticleInput extends Partial<ArticleContent> {
  id?: string;
  rev?: number;
  created_at?: string;
  updated_at?: string;
}

const SERVER_FIELDS = ["id", "rev", "created_at", "updated_at"] as const;
const KNOWN_FIELDS = new Set<string>([...CONTENT_FIELDS, ...SERVER_FIELDS]);

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z$/;

export type RecordSource = "document" | "form";

interface RecordPlace {
  index?: number;
  section?: string;
  partial?: boolean;
  /** The body as kept, when the caller reduced it already (article/fields.ts Reduce). */
  reduce?: Reduce;
}

/** Appends a problem, creating the list on the first: a valid record allocates none (imports check a million). */
function noted(problems: Problem[] | null, place: RecordPlace, field: string, reason: string): Problem[] {
  const list = problems ?? [];
  list.push({ ...(place.section ? { section: place.section } : {}), ...(place.index !== undefined ? { index: place.index } : {}), field, reason });
  return list;
}

/** A document's records whose unknown fields name the one meant, and how many of them each. */
const SUGGESTED_RECORDS = 1000;
const SUGGESTED_FIELDS = 5;

/** An unknown key, with the field meant: a spreadsheet's name for it ("link", "content", 链接: field-names.ts), or the nearest. */
function unknownKey(key: string): string {
  const meant = fieldNamed(key);
  return meant !== undefined && KNOWN_FIELDS.has(meant) ? `unknown field; did you mean ${meant}?` : unknownField(key, KNOWN_FIELDS);
}

/** Marks a field present but not a string. */
const NOT_STRING = Symbol("not a string");

function stringField(r: Record<string, unknown>, field: string): string | null | undefined | typeof NOT_STRING {
  const v = r[field];
  return v === undefined || v === null || typeof v === "string" ? v : NOT_STRING;
}


/**
 * Validates one incoming article record, collecting every problem instead of stopping at the first.
 * `partial` is for revisions: absent fields are fine, present ones must be valid.
 */
export function validateArticle(raw: unknown, place: RecordPlace = {}): { value?: ArticleInput; problems: Problem[] } {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return { problems: noted(null, place, "(record)", "must be an object") };
  const r = raw as Record<string, unknown>;
  const out: ArticleInput = {};
  let problems: Problem[] | null = null;

  // The field meant, for those a problem list can show (a document's first records, a few fields
  // each): worked out for every key of every record, a document of unknown keys took seconds.
  let named = (place.index ?? 0) < SUGGESTED_RECORDS ? SUGGESTED_FIELDS : 0;
  for (const key in r) if (!KNOWN_FIELDS.has(key)) problems = noted(problems, place, key, named-- > 0 ? unknownKey(key) : "unknown field");

  const id = stringField(r, "id");
  if (id === null || id === NOT_STRING) problems = noted(problems, place, "id", "must be a string");
  else if (id !== undefined) {
    if (!ID_PATTERN.test(id)) problems = noted(problems, place, "id", "must match [a-z0-9][a-z0-9_-]{0,63}");
    else out.id = id;
  }

  // Every content field by its own check (article/fields.ts).
  for (const f of CONTENT) {
    const v = r[f.name];
    if (v === undefined) {
      if (f.required && !place.partial) problems = noted(problems, place, f.name, "is required");
      continue;
    }
    const checked = f.check(v, place.reduce);
    if ("problem" in checked) problems = noted(problems, place, f.name, checked.problem);
    else (out as Record<string, unknown>)[f.name] = checked.value;
  }

  if (r.rev !== undefined) {
    if (typeof r.rev !== "number" || !Number.isSafeInteger(r.rev) || r.rev < 1) problems = noted(problems, place, "rev", "must be a positive integer");
    else out.rev = r.rev;
  }
  for (const f of TIME_FIELDS) {
    const v = stringField(r, f);
    if (v === NOT_STRING) problems = noted(problems, place, f, "must be a string");
    else if (v === null) problems = noted(problems, place, f, "must be an ISO-8601 UTC time");
    else if (v !== undefined) {
      if (!ISO_UTC.test(v) || Number.isNaN(Date.parse(v))) problems = noted(problems, place, f, "must be an ISO-8601 UTC time like 2026-11-21T10:00:00.000Z");
      else out[f] = v;
    }
  }

  if (!problems) return { value: out, problems: NO_PROBLEMS };
  // Each named by the record's id too, where it has a valid one: "articles[16].url" had left a
  // letting agency's operator counting records to find "guarantors" (a walkthrough, Session 51).
  if (out.id !== undefined && place.index !== undefined) for (const p of problems) p.id = out.id;
  return { problems };
}

const TIME_FIELDS = ["created_at", "updated_at"] as const;
/** Shared by every valid record; never written to. */
const NO_PROBLEMS: Problem[] = Object.freeze([]) as unknown as Problem[];

/** Normalised content for comparison and storage; absent fields take their defaults. */
export function contentOf(a: ArticleInput): ArticleContent {
  const out: Record<string, unknown> = {};
  for (const f of CONTENT) out[f.name] = a[f.name] ?? f.empty;
  return out as ArticleContent;
}

/**
 * The fields an operator teaches on the server (replyd teach, questions+=, keywords+=): an import of a
 * record without one keeps the article's. A file from the account's own CMS, imported again, may not
 * carry them and must not wipe them. An explicit `[]` clears them; a restore writes the document as it is.
 */
export const TAUGHT_FIELDS = ["questions", "keywords"] as const;

/** What an import writes for a record: its content, but the article's own TAUGHT_FIELDS the record has none of. */
export function importedContent(rec: ArticleInput, current: Pick<ArticleContent, (typeof TAUGHT_FIELDS)[number]> | null): ArticleContent {
  const content = contentOf(rec);
  if (current) for (const f of TAUGHT_FIELDS) if (rec[f] === undefined) content[f] = current[f];
  return content;
}

export function sameContent(a: ArticleContent, b: ArticleContent): boolean {
  return CONTENT.every((f) => sameField(f, a, b));
}

/** The content fields in which `a` and `b` differ, in the field table's order: what an import changed of an article. */
export const changedFields = (a: ArticleContent, b: ArticleContent): string[] => CONTENT.filter((f) => !sameField(f, a, b)).map((f) => f.name);

function sameField(f: (typeof CONTENT)[number], a: ArticleContent, b: ArticleContent): boolean {
  const x = a[f.name];
  const y = b[f.name];
  if (f.kind !== "words") return x === y;
  const xs = x as string[];
  const ys = y as string[];
  return xs.length === ys.length && xs.every((w, i) => w === ys[i]);
}

/**
 * Field order in documents and API answers: id, the content in table order, then the server's
 * fields. A summary (a listing's) goes without the long fields it was read without.
 */
export function articleJson<A extends ArticleSummary>(a: A): A {
  const out: Record<string, unknown> = { id: a.id };
  for (const f of CONTENT) {
    const v = (a as Partial<Article>)[f.name];
    if (v !== undefined) out[f.name] = v;
  }
  out.rev = a.rev;
  out.created_at = a.created_at;
  out.updated_at = a.updated_at;
  return out as A;
}
