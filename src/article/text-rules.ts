/**
 * The rules an article's text follows, shared by the field table (article/fields.ts) and the rest
 * of the code: what ids, tags and codes look like, the limits, what counts as unprintable, what an
 * http(s) URL is.
 */
export const ID_PATTERN = /^[a-z0-9][a-z0-9_-]{0,63}$/;
export const TAG_PATTERN = /^[a-z0-9]{1,16}$/;
/** Codes are typed by followers: any printable characters without spaces, 1–32 of them. */
export const CODE_PATTERN = /^[^\s\p{C}]{1,32}$/u;
/**
 * What a follower types for help (wechat/answering/lists.ts HELP_WORDS); a code equal to one of
 * these could never be reached. 帮助 as a Chinese account's followers type it (a dental chain's
 * walkthrough: the fallback).
 */
export const RESERVED_CODES = new Set(["h", "help", "?", "帮助", "幫助"]);

export const LIMITS = {
  title: 64,
  description: 512,
  url: 2048,
  keywords: 32,
  keyword: 32,
  /** Questions an article answers, as followers write them (issue 34 D), and characters of each. */
  questions: 50,
  question: 200,
  /** Bytes of UTF-8, of the body as kept (HTML reduced). */
  body: 64 * 1024,
  /**
   * Bytes of a body as sent (a file part for one article, or in a document), before its HTML is
   * reduced: the form's fields hold 64 KiB together, and one body may hold that much once reduced.
   */
  bodyPart: 1024 * 1024,
} as const;

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
export const withinChars = (s: string, max: number) => s.length <= max || (s.length <= 2 * max && charLength(s) <= max);

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

/**
 * A question as kept (an article's `questions`, one taught from the inbox): trimmed, each run of
 * white space one space — a question is one line, and the form separates questions by line ends.
 */
export const questionForm = (q: string) => q.trim().replace(/\s+/g, " ");

