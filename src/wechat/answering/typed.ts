/**
 * A follower's text as it is read (responder.ts): without the white space and the invisible format
 * characters at its ends — a zero-width space, a left-to-right or right-to-left mark, a word joiner,
 * a byte-order mark — that a pasted text or a right-to-left keyboard leaves there: "2" and "换一个"
 * with one after them had been no pick and no "another", 谢谢 no thanks (a review). Inside the text
 * they are left as typed; the closed sets read it through fold(), which drops them.
 */
const INVISIBLE = /^[\s\u00ad\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]$/u;

/** `text` without white space and invisible format characters at its ends: a character at a time from each end (no pattern retrying every start of a long run). */
export function typedText(text: string): string {
  const chars = [...text];
  let start = 0;
  let end = chars.length;
  while (start < end && INVISIBLE.test(chars[start] as string)) start++;
  while (end > start && INVISIBLE.test(chars[end - 1] as string)) end--;
  return start === 0 && end === chars.length ? text : chars.slice(start, end).join("");
}
