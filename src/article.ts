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

/**
 * Validates one incoming article record, collecting every problem instead of stopping at the first.
 * `partial` is for revisions: absent fields are fine, present ones must be valid.
 */
export function validateArticle(
  raw: unknown,
  opts: { index?: number; section?: string; partial?: boolean } = {},
): { value?: ArticleInput; problems: Problem[] } {
  const problems: Problem[] = [];
  const at = (field: string, reason: string) =>
    problems.push({ ...(opts.section ? { section: opts.section } : {}), ...(opts.index !== undefined ? { index: opts.index } : {}), field, reason });

  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    at("(record)", "must be an object");
    return { problems };
  }
  const r = raw as Record<string, unknown>;
  const out: ArticleInput = {};

  for (const key of Object.keys(r)) if (!KNOWN_FIELDS.has(key)) at(key, "unknown field");

  const str = (field: string): string | undefined | null => {
    const v = r[field];
    if (v === undefined) return undefined;
    if (v === null) return null;
    if (typeof v !== "string") {
      at(field, "must be a string");
      return undefined;
    }
    return v;
  };

  const id = str("id");
  if (id === null) at("id", "must be a string");
  else if (id !== undefined) {
    if (!ID_PATTERN.test(id)) at("id", "must match [a-z0-9][a-z0-9_-]{0,63}");
    else out.id = id;
  }

  const code = str("code");
  if (code === null || code === "") out.code = null;
  else if (code !== undefined) {
    if (!CODE_PATTERN.test(code)) at("code", "must be 1–32 characters with no spaces or control characters");
    else if (RESERVED_CODES.has(code.toLowerCase())) at("code", `"${code}" is reserved for the help command`);
    else out.code = code;
  }

  const tag = str("tag");
  if (tag === null || tag === "") out.tag = null;
  else if (tag !== undefined) {
    if (!TAG_PATTERN.test(tag)) at("tag", "must match [a-z0-9]{1,16}");
    else out.tag = tag;
  }

  const title = str("title");
  if (title === null) at("title", "is required");
  else if (title !== undefined) {
    if (title.trim().length < 1 || !withinChars(title, LIMITS.title)) at("title", `must be 1–${LIMITS.title} characters`);
    else out.title = title;
  } else if (!opts.partial) at("title", "is required");

  const description = str("description");
  if (description === null) out.description = "";
  else if (description !== undefined) {
    if (!withinChars(description, LIMITS.description)) at("description", `must be at most ${LIMITS.description} characters`);
    else out.description = description;
  }

  const url = str("url");
  if (url === null) at("url", "is required");
  else if (url !== undefined) {
    const why = checkHttpUrl(url);
    if (why) at("url", why);
    else out.url = url;
  } else if (!opts.partial) at("url", "is required");

  const picurl = str("picurl");
  if (picurl === null || picurl === "") out.picurl = null;
  else if (picurl !== undefined) {
    const why = checkHttpUrl(picurl);
    if (why) at("picurl", why);
    else out.picurl = picurl;
  }

  if (r.keywords !== undefined) {
    const k = r.keywords;
    if (k === null) out.keywords = [];
    else if (!Array.isArray(k) || k.some((w) => typeof w !== "string")) at("keywords", "must be an array of strings");
    else if (k.length > LIMITS.keywords) at("keywords", `must have at most ${LIMITS.keywords} words`);
    else {
      const words = (k as string[]).map((w) => w.trim());
      const bad = words.find((w) => w.length === 0 || !withinChars(w, LIMITS.keyword));
      if (bad !== undefined) at("keywords", `each word must be 1–${LIMITS.keyword} characters`);
      else out.keywords = words;
    }
  }

  if (r.deleted !== undefined) {
    if (typeof r.deleted !== "boolean") at("deleted", "must be true or false");
    else out.deleted = r.deleted;
  }

  if (r.rev !== undefined) {
    if (typeof r.rev !== "number" || !Number.isSafeInteger(r.rev) || r.rev < 1) at("rev", "must be a positive integer");
    else out.rev = r.rev;
  }
  for (const f of ["created_at", "updated_at"] as const) {
    const v = str(f);
    if (v === null) at(f, "must be an ISO-8601 UTC time");
    else if (v !== undefined) {
      if (!ISO_UTC.test(v) || Number.isNaN(Date.parse(v))) at(f, "must be an ISO-8601 UTC time like 2026-11-21T10:00:00.000Z");
      else out[f] = v;
    }
  }

  return problems.length ? { problems } : { value: out, problems };
}

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

/** A whole article from a validated record, with contentOf's defaults spelled out: bulk writes make a million of these, so no intermediate objects. */
export function articleFrom(rec: ArticleInput & { id: string }, rev: number, createdAt: string, updatedAt: string): Article {
  return {
    id: rec.id,
    code: rec.code ?? null,
    tag: rec.tag ?? null,
    title: rec.title ?? "",
    description: rec.description ?? "",
    url: rec.url ?? "",
    picurl: rec.picurl ?? null,
    keywords: rec.keywords ?? [],
    deleted: rec.deleted ?? false,
    rev,
    created_at: createdAt,
    updated_at: updatedAt,
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
