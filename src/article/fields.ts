/**
 * The article's content fields, declared once: what import, add and revise may set, in the order
 * documents, rows and answers carry them. Validation, the document writer, both stores' row
 * mapping and column lists, the admin form and the client's columns all derive from this table.
 * A new field is an entry here, plus what genuinely differs per store (a migration on each).
 *
 * The server's own fields (id, rev, created_at, updated_at) are not here: each store keeps them by
 * rules of its own (revs continuing after a purge, times it fills in).
 */
import { bodyText } from "./body-text.ts";
import { charLength, checkHttpUrl, CODE_PATTERN, LIMITS, NO_CONTROL, questionForm, RESERVED_CODES, TAG_PATTERN, unprintable, withinChars } from "./text-rules.ts";

/**
 * How a field is kept: text (never null), text or null, a list of words or phrases (JSON text in
 * both stores), a flag (0/1 in SQLite, boolean in PostgreSQL).
 */
export type FieldKind = "text" | "nullable" | "words" | "flag";

/**
 * How a body is reduced to the text kept: bodyText(), unless the caller reduced it already, a
 * slice at a time (doc/bodies.ts), and says what it got.
 */
export type Reduce = (raw: string) => string;

/** A field's check: its value, or why it is refused. `absent` when the record leaves it out. */
type Check<T> = (raw: unknown, reduce?: Reduce) => { value: T } | { problem: string };

export interface ContentField<N extends string = string, T = unknown, K extends FieldKind = FieldKind> {
  readonly name: N;
  readonly kind: K;
  /** The value when a record leaves it out. */
  readonly empty: T;
  /** A new article without it is refused (title, url). */
  readonly required?: true;
  /** In the client's `ls` table (the others in `show`). */
  readonly listed?: true;
  /** Long text (the body): sent with one article and in documents, never in listings or news replies. */
  readonly long?: true;
  /** A list whose items may hold commas (questions): one item a line in a form field, not comma-separated. */
  readonly lines?: true;
  readonly check: Check<T>;
}

/** Text that must be there: a string that passes `check`. */
const text =
  (check: (v: string) => string | null): Check<string> =>
  (raw) => {
    if (raw === null) return { problem: "is required" };
    if (typeof raw !== "string") return { problem: "must be a string" };
    const why = check(raw);
    return why ? { problem: why } : { value: raw };
  };

/** Text or nothing: null and "" are nothing; any other string must pass `check`. */
const optionalText =
  (check: (v: string) => string | null): Check<string | null> =>
  (raw) => (raw === null || raw === "" ? { value: null } : text(check)(raw));

const keywordsCheck: Check<string[]> = (raw) => {
  if (raw === null) return { value: [] };
  if (!Array.isArray(raw) || raw.some((w) => typeof w !== "string")) return { problem: "must be an array of strings" };
  if (raw.length > LIMITS.keywords) return { problem: `must have at most ${LIMITS.keywords} words` };
  const words = new Array<string>(raw.length);
  for (let i = 0; i < raw.length; i++) {
    const t = (raw[i] as string).trim();
    if (t.length === 0 || !withinChars(t, LIMITS.keyword)) return { problem: `each word must be 1–${LIMITS.keyword} characters` };
    words[i] = t;
  }
  if (words.some(unprintable)) return { problem: NO_CONTROL };
  return { value: words };
};

/**
 * The questions an article answers, as followers write them: ranked with its title (docs/answers.md
 * "Teaching"). Each kept in questionForm; one the list holds already, in any case, is refused:
 * `set ID questions+=…` and `replyd teach` skip or refuse such a one before it gets here.
 */
const questionsCheck: Check<string[]> = (raw) => {
  if (raw === null) return { value: [] };
  if (!Array.isArray(raw) || raw.some((q) => typeof q !== "string")) return { problem: "must be an array of strings" };
  if (raw.length > LIMITS.questions) return { problem: `must have at most ${LIMITS.questions} questions (it has ${raw.length})` };
  const out = new Array<string>(raw.length);
  const seen = new Map<string, number>();
  for (let i = 0; i < raw.length; i++) {
    // Before white space is folded: a vertical tab folded into a space would hide a control character.
    if (unprintable(raw[i] as string)) return { problem: NO_CONTROL };
    const q = questionForm(raw[i] as string);
    if (q.length === 0 || !withinChars(q, LIMITS.question))
      return { problem: `each question must be 1–${LIMITS.question} characters (question ${i + 1} has ${charLength(q)})` };
    const key = q.toLowerCase();
    const first = seen.get(key);
    if (first !== undefined) return { problem: `question ${i + 1} repeats question ${first + 1} ("${q.slice(0, 40)}")` };
    seen.set(key, i);
    out[i] = q;
  }
  return { value: out };
};

const flag: Check<boolean> = (raw) => (typeof raw === "boolean" ? { value: raw } : { problem: "must be true or false" });

/** Absent or null: empty; else text that passes `check`. */
const textOrEmpty =
  (check: (v: string) => string | null): Check<string> =>
  (raw) => (raw === null ? { value: "" } : text(check)(raw));

// Lower-casing never shortens a string, so longer codes cannot be reserved; the margin is for safety.
const RESERVED_SPAN = 2 * Math.max(...[...RESERVED_CODES].map((c) => c.length));

const codeCheck = optionalText((v) =>
  !CODE_PATTERN.test(v)
    ? "must be 1–32 characters with no spaces or control characters"
    : v.length <= RESERVED_SPAN && RESERVED_CODES.has(v.toLowerCase())
      ? `"${v}" is reserved for the help command`
      : null,
);

const field = <const N extends string, T, const K extends FieldKind, const L extends { long?: true } = {}>(f: ContentField<N, T, K> & L) => f;

export const CONTENT = [
  field({
    name: "code",
    kind: "nullable",
    empty: null as string | null,
    listed: true,
    // Kept as a follower's typing is read (NFKC: full width as ASCII, "ＦＶ７" as "FV7"): a code written in
    // full width had been reachable by no follower — the store folds the case of ASCII letters only (a review).
    check: (raw) => codeCheck(typeof raw === "string" ? raw.normalize("NFKC") : raw),
  }),
  field({ name: "tag", kind: "nullable", empty: null as string | null, listed: true, check: optionalText(tagProblem) }),
  field({
    name: "title",
    kind: "text",
    empty: "" as string,
    required: true,
    listed: true,
    // How long it is, said: a help centre's 73-character title had been refused with the limit alone (a walkthrough).
    check: text((v) => (v.trim().length < 1 ? `must be 1–${LIMITS.title} characters` : !withinChars(v, LIMITS.title) ? `must be 1–${LIMITS.title} characters; it is ${charLength(v)}` : unprintable(v) ? NO_CONTROL : null)),
  }),
  field({
    name: "description",
    kind: "text",
    empty: "" as string,
    check: textOrEmpty((v) => (!withinChars(v, LIMITS.description) ? `must be at most ${LIMITS.description} characters; it is ${charLength(v)}` : unprintable(v) ? NO_CONTROL : null)),
  }),
  field({ name: "url", kind: "text", empty: "" as string, required: true, check: text(checkHttpUrl) }),
  field({ name: "picurl", kind: "nullable", empty: null as string | null, check: optionalText(checkHttpUrl) }),
  field({ name: "keywords", kind: "words", empty: [] as string[], check: keywordsCheck }),
  field({ name: "questions", kind: "words", empty: [] as string[], lines: true, check: questionsCheck }),
  field({
    name: "body",
    kind: "text",
    empty: "" as string,
    long: true,
    // HTML is reduced to text before the limit is applied: the limit is on what is kept. What is
    // sent is bounded first, in documents as in a file part: reducing it is work on the event loop.
    check: (raw, reduce = bodyText) => {
      if (raw === null) return { value: "" };
      if (typeof raw !== "string") return { problem: "must be a string" };
      if (raw.length > LIMITS.bodyPart || Buffer.byteLength(raw, "utf8") > LIMITS.bodyPart)
        return { problem: `must be at most 1 MiB of UTF-8 (${LIMITS.bodyPart} bytes) as sent, before its HTML is reduced; it is ${Buffer.byteLength(raw, "utf8")} bytes` };
      const kept = reduce(raw);
      if (unprintable(kept)) return { problem: NO_CONTROL };
      const bytes = Buffer.byteLength(kept, "utf8");
      if (bytes > LIMITS.body) return { problem: `must be at most 64 KiB of UTF-8 (${LIMITS.body} bytes) as text; it is ${bytes} bytes${kept === raw ? "" : " once its HTML is reduced"}` };
      return { value: kept };
    },
  }),
  field({ name: "deleted", kind: "flag", empty: false as boolean, listed: true, check: flag }),
] as const;

export type ContentName = (typeof CONTENT)[number]["name"];
/** The long fields (body): what a listing leaves out. */
export type LongName = Extract<(typeof CONTENT)[number], { long: true }>["name"];
export const LONG_FIELDS = CONTENT.filter((f) => "long" in f && f.long).map((f) => f.name) as readonly LongName[];
/** The content field names, in order. */
export const CONTENT_FIELDS = CONTENT.map((f) => f.name) as readonly ContentName[];

type ValueOf<F> = F extends ContentField<string, infer T, FieldKind> ? T : never;
/** The operator-controlled part of an article: what import, add and revise may set. */
export type ArticleContent = { [F in (typeof CONTENT)[number] as F["name"]]: ValueOf<F> };

/**
 * Why `v` is no tag key, and what to write instead: in lower case, when that is one ("Billing"); else
 * a key of the operator's choosing with the name as its description — a Chinese 缴费, or a help
 * centre's section name, "App & account" (a bike share's export had been told only the pattern).
 */
function tagProblem(v: string): string | null {
  if (TAG_PATTERN.test(v)) return null;
  if (TAG_PATTERN.test(v.toLowerCase())) return `must match [a-z0-9]{1,16}: "${v.toLowerCase()}", in lower case`;
  const name = v.slice(0, 32);
  // As JSON writes it: a name holding " or \ is the example's too (a review).
  return `must match [a-z0-9]{1,16}: a short Latin key of your choosing, a different one for each tag (such as t1, t2 or pay); its name ${JSON.stringify(name)} goes in the tag's description ("tags": {"t1": ${JSON.stringify(name)}}), which a follower sends to have the tag listed`;
}
