import type { Problem } from "./errors.ts";

/** An article as stored and as written into documents (DESIGN §2). */
export interface Article {
  id: string;
  code: string | null;
  tag: string | null;
  title: string;
  description: string;
  url: string;
  picurl: string | null;
  keywords: string[];
  deleted: boolean;
  rev: number;
  created_at: string;
  updated_at: string;
}

/** The operator-controlled part of an article: what import, add and revise may set. */
export type ArticleContent = Pick<Article, "code" | "tag" | "title" | "description" | "url" | "picurl" | "keywords" | "deleted">;

/** A validated incoming record; server-owned fields are present only when a document carried them. */
export interface ArticleInput extends Partial<ArticleContent> {
  id?: string;
  rev?: number;
  created_at?: string;
  updated_at?: string;
}

export const ID_PATTERN = /^[a-z0-9][a-z0-9_-]{0,63}$/;
export const TAG_PATTERN = /^[a-z0-9]{1,16}$/;
/** Codes are typed by followers: any printable characters without spaces, 1–32 of them. */
export const CODE_PATTERN = /^[^\s\p{C}]{1,32}$/u;
/** What a follower types for help; a code equal to one of these could never be reached. */
export const RESERVED_CODES = new Set(["h", "help", "?"]);
// Lower-casing never shortens a string, so longer codes cannot be reserved; the margin is for safety.
const RESERVED_SPAN = 2 * Math.max(...[...RESERVED_CODES].map((c) => c.length));
export const CONTENT_FIELDS = ["code", "tag", "title", "description", "url", "picurl", "keywords", "deleted"] as const;
const SERVER_FIELDS = ["id", "rev", "created_at", "updated_at"] as const;
const KNOWN_FIELDS = new Set<string>([...CONTENT_FIELDS, ...SERVER_FIELDS]);

export const LIMITS = {
  title: 64,
  description: 512,
  url: 2048,
  keywords: 32,
  keyword: 32,
} as const;

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z$/;

/**
 * Control characters a terminal acts on (C0 but tab, LF and CR; DEL; C1): refused in every text an
 * operator stores, as the callback refuses them in follower messages, so that no stored text can
 * carry an escape sequence to a screen (the client escapes what it prints besides).
 */
export const CONTROL_CHAR = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;
/**
 * A control character, or text that is not Unicode: a lone UTF-16 surrogate ("\ud800" in JSON),
 * which no store can keep as it is (SQLite and PostgreSQL would turn it into U+FFFD).
 */
export const unprintable = (s: string): boolean => CONTROL_CHAR.test(s) || !s.isWellFormed();
export const NO_CONTROL = "must not contain control characters or lone surrogates (\\ud800–\\udfff on their own: text that is not Unicode)";

/** Length in characters as a person counts them (code points), not UTF-16 units. */
export const charLength = (s: string) => {
  let n = 0;
  for (const _ of s) n++;
  return n;
};

/** charLength(s) <= max, without counting when the UTF-16 length already settles it. */
const withinChars = (s: string, max: number) => s.length <= max || (s.length <= 2 * max && charLength(s) <= max);

// A URL this plain is certainly an absolute http(s) URL with a host; others go through the URL parser.
const PLAIN_HTTP_URL = /^https?:\/\/[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*(?::\d{1,5})?(?:\/[A-Za-z0-9\-._~!$&'()*+,;=:@%/]*)?(?:\?[A-Za-z0-9\-._~!$&'()*+,;=:@%/?]*)?(?:#[A-Za-z0-9\-._~!$&'()*+,;=:@%/?]*)?$/;

export function checkHttpUrl(value: string): string | null {
  if (value.length > LIMITS.url) return `must be at most ${LIMITS.url} characters`;
  if (PLAIN_HTTP_URL.test(value)) return null;
  if (!value.isWellFormed()) return NO_CONTROL;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return "must be an absolute http(s) URL";
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return "must be an absolute http(s) URL";
  if (!url.hostname) return "must have a host";
  if (/\s/.test(value)) return "must not contain spaces";
  return null;
}

export type RecordSource = "document" | "form";

interface RecordPlace {
  index?: number;
  section?: string;
  partial?: boolean;
}

/** Appends a problem, creating the list on the first: a valid record allocates none (imports check a million). */
function noted(problems: Problem[] | null, place: RecordPlace, field: string, reason: string): Problem[] {
  const list = problems ?? [];
  list.push({ ...(place.section ? { section: place.section } : {}), ...(place.index !== undefined ? { index: place.index } : {}), field, reason });
  return list;
}

/** Marks a field present but not a string. */
const NOT_STRING = Symbol("not a string");

function stringField(r: Record<string, unknown>, field: string): string | null | undefined | typeof NOT_STRING {
  const v = r[field];
  return v === undefined || v === null || typeof v === "string" ? v : NOT_STRING;
}

/** Trimmed keywords, or null when one is empty or too long once trimmed. */
function keywordList(k: string[]): string[] | null {
  const words = new Array<string>(k.length);
  for (let i = 0; i < k.length; i++) {
    const t = (k[i] as string).trim();
    if (t.length === 0 || !withinChars(t, LIMITS.keyword)) return null;
    words[i] = t;
  }
  return words;
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

  for (const key in r) if (!KNOWN_FIELDS.has(key)) problems = noted(problems, place, key, "unknown field");

  const id = stringField(r, "id");
  if (id === null || id === NOT_STRING) problems = noted(problems, place, "id", "must be a string");
  else if (id !== undefined) {
    if (!ID_PATTERN.test(id)) problems = noted(problems, place, "id", "must match [a-z0-9][a-z0-9_-]{0,63}");
    else out.id = id;
  }

  const code = stringField(r, "code");
  if (code === NOT_STRING) problems = noted(problems, place, "code", "must be a string");
  else if (code === null || code === "") out.code = null;
  else if (code !== undefined) {
    if (!CODE_PATTERN.test(code)) problems = noted(problems, place, "code", "must be 1–32 characters with no spaces or control characters");
    else if (code.length <= RESERVED_SPAN && RESERVED_CODES.has(code.toLowerCase())) problems = noted(problems, place, "code", `"${code}" is reserved for the help command`);
    else out.code = code;
  }

  const tag = stringField(r, "tag");
  if (tag === NOT_STRING) problems = noted(problems, place, "tag", "must be a string");
  else if (tag === null || tag === "") out.tag = null;
  else if (tag !== undefined) {
    if (!TAG_PATTERN.test(tag)) problems = noted(problems, place, "tag", "must match [a-z0-9]{1,16}");
    else out.tag = tag;
  }

  const title = stringField(r, "title");
  if (title === NOT_STRING) problems = noted(problems, place, "title", "must be a string");
  else if (title === null) problems = noted(problems, place, "title", "is required");
  else if (title !== undefined) {
    if (title.trim().length < 1 || !withinChars(title, LIMITS.title)) problems = noted(problems, place, "title", `must be 1–${LIMITS.title} characters`);
    else if (unprintable(title)) problems = noted(problems, place, "title", NO_CONTROL);
    else out.title = title;
  } else if (!place.partial) problems = noted(problems, place, "title", "is required");

  const description = stringField(r, "description");
  if (description === NOT_STRING) problems = noted(problems, place, "description", "must be a string");
  else if (description === null) out.description = "";
  else if (description !== undefined) {
    if (!withinChars(description, LIMITS.description)) problems = noted(problems, place, "description", `must be at most ${LIMITS.description} characters`);
    else if (unprintable(description)) problems = noted(problems, place, "description", NO_CONTROL);
    else out.description = description;
  }

  const url = stringField(r, "url");
  if (url === NOT_STRING) problems = noted(problems, place, "url", "must be a string");
  else if (url === null) problems = noted(problems, place, "url", "is required");
  else if (url !== undefined) {
    const why = checkHttpUrl(url);
    if (why) problems = noted(problems, place, "url", why);
    else out.url = url;
  } else if (!place.partial) problems = noted(problems, place, "url", "is required");

  const picurl = stringField(r, "picurl");
  if (picurl === NOT_STRING) problems = noted(problems, place, "picurl", "must be a string");
  else if (picurl === null || picurl === "") out.picurl = null;
  else if (picurl !== undefined) {
    const why = checkHttpUrl(picurl);
    if (why) problems = noted(problems, place, "picurl", why);
    else out.picurl = picurl;
  }

  const k = r.keywords;
  if (k === null) out.keywords = [];
  else if (k !== undefined) {
    if (!Array.isArray(k) || k.some((w) => typeof w !== "string")) problems = noted(problems, place, "keywords", "must be an array of strings");
    else if (k.length > LIMITS.keywords) problems = noted(problems, place, "keywords", `must have at most ${LIMITS.keywords} words`);
    else {
      const words = keywordList(k as string[]);
      if (!words) problems = noted(problems, place, "keywords", `each word must be 1–${LIMITS.keyword} characters`);
      else if (words.some(unprintable)) problems = noted(problems, place, "keywords", NO_CONTROL);
      else out.keywords = words;
    }
  }

  if (r.deleted !== undefined) {
    if (typeof r.deleted !== "boolean") problems = noted(problems, place, "deleted", "must be true or false");
    else out.deleted = r.deleted;
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

  return problems ? { problems } : { value: out, problems: NO_PROBLEMS };
}

const TIME_FIELDS = ["created_at", "updated_at"] as const;
/** Shared by every valid record; never written to. */
const NO_PROBLEMS: Problem[] = Object.freeze([]) as unknown as Problem[];

/** Normalised content for comparison and storage; absent fields take their defaults. */
export function contentOf(a: ArticleInput): ArticleContent {
  return {
    code: a.code ?? null,
    tag: a.tag ?? null,
    title: a.title ?? "",
    description: a.description ?? "",
    url: a.url ?? "",
    picurl: a.picurl ?? null,
    keywords: a.keywords ?? [],
    deleted: a.deleted ?? false,
  };
}

export function sameContent(a: ArticleContent, b: ArticleContent): boolean {
  return (
    a.code === b.code &&
    a.tag === b.tag &&
    a.title === b.title &&
    a.description === b.description &&
    a.url === b.url &&
    a.picurl === b.picurl &&
    a.deleted === b.deleted &&
    a.keywords.length === b.keywords.length &&
    a.keywords.every((w, i) => w === b.keywords[i])
  );
}

/** Field order in documents and API answers. */
export function articleJson(a: Article): Article {
  return {
    id: a.id,
    code: a.code,
    tag: a.tag,
    title: a.title,
    description: a.description,
    url: a.url,
    picurl: a.picurl,
    keywords: a.keywords,
    deleted: a.deleted,
    rev: a.rev,
    created_at: a.created_at,
    updated_at: a.updated_at,
  };
}
