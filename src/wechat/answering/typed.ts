/**
 * A follower's text as it is read (responder.ts): without the white space and the invisible format
 * characters at its ends — a zero-width space, a left-to-right or right-to-left mark, a word joiner,
 * a byte-order mark — that a pasted text or a right-to-left keyboard leaves there: "2" and "换一个"
 * with one after them had been no pick and no "another", 谢谢 no thanks (a review). Inside the text
 * they are left as typed; the closed sets read it through fold(), which drops them.
 */
import { trimmedWhere } from "../../base/trimmed.ts";

const INVISIBLE = /^[\s\u00ad\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]$/u;

/** `text` without white space and invisible format characters at its ends. */
export const typedText = (text: string): string => trimmedWhere(text, INVISIBLE);

/**
 * What of a message is read to answer it: `typedText`, then its first READ_CHARS characters. The
 * ranking reads 600 (RANKING_LIMITS.questionChars), rules 512; the message log keeps it whole. A
 * character normalisation makes eighteen of (U+FDFA), 20,000 times, had held the event loop 110 ms
 * through the checks that read it whole (a review).
 */
export const READ_CHARS = 1024;
export function readText(text: string): string {
  const typed = typedText(text);
  if (typed.length <= READ_CHARS) return typed;
  // Not half a surrogate pair.
  const cut = /[\ud800-\udbff]/.test(typed[READ_CHARS - 1] as string) ? READ_CHARS - 1 : READ_CHARS;
  return typed.slice(0, cut);
}
