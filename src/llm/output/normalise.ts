/**
 * A model's text made safe to read and comparable before any check looks at it: cut to what
 * could ever be shown, the characters a reader does not see removed (`ht\u200btp` is `http`),
 * and, for the checks only, compatibility forms folded (NFKC: `ｈｔｔｐ：／／` is `http://`, `①`
 * is `1`). A follower is shown the text unfolded — Chinese punctuation (`，`, `：`, `（`) stays as
 * written — but only once the folded text passed every check; `fold` keeps, for each folded
 * character, where it came from, so that what a check finds can be cut from what is shown.
 *
 * A follower sees at most 2,048 bytes and markup only shortens text, so nothing past RAW_CHARS
 * of what a model wrote can reach anyone: every check runs on that cut, in time linear in it.
 */

/** What is read of a model's answer: a few times what any reply can hold. */
export const RAW_CHARS = 8192;

/**
 * Invisible or reordering characters: every format character (zero-width space and joiners, the
 * bidi marks, embeddings, overrides and isolates, U+061C, the BOM, tag characters), controls
 * but line feed and tab, variation selectors, fillers that render as nothing, interlinear
 * annotation marks, noncharacters, and lone surrogates (a `u` pattern sees only unpaired ones).
 */
const INVISIBLE =
  /[\p{Cf}\u0000-\u0008\u000b-\u001f\u007f-\u009f\u034f\u115f\u1160\u17b4\u17b5\u180b-\u180f\u2800\u3164\uffa0\ufe00-\ufe0f\ufff9-\ufffb\ufdd0-\ufdef\ufffe\uffff\u{e0000}-\u{e0fff}\u{1bca0}-\u{1bca3}\ud800-\udfff]/gu;

/** Line ends of every kind as `\n`. */
const LINE_ENDS = /\r\n?|[\u2028\u2029\u0085]/g;

/** `s` cut to at most `chars` UTF-16 units, never between the halves of a pair. */
export function cutChars(s: string, chars: number): string {
  if (s.length <= chars) return s;
  const end = /[\ud800-\udbff]/.test(s[chars - 1] as string) ? chars - 1 : chars;
  return s.slice(0, end);
}

/** Invisible characters removed, line ends made `\n`. Linear. */
export const visible = (s: string): string => s.replace(LINE_ENDS, "\n").replace(INVISIBLE, "");

/** What a model wrote as the checks first read it: its first RAW_CHARS, made visible. */
export const seen = (raw: string): string => visible(cutChars(raw, RAW_CHARS));

export interface Folded {
  /** Each character folded (NFKC), invisible ones removed. */
  text: string;
  /** For each unit of `text`, and one past its end, the index in the unfolded text it came from. */
  at: Int32Array;
}

/** `s` with compatibility forms folded, character by character so that each keeps its place. Linear. */
export function fold(s: string): Folded {
  const parts: string[] = [];
  const at: number[] = [];
  let i = 0;
  for (const ch of s) {
    const f = ch.charCodeAt(0) < 0x80 ? ch : ch.normalize("NFKC").replace(INVISIBLE, "");
    parts.push(f);
    for (let k = 0; k < f.length; k++) at.push(i);
    i += ch.length;
  }
  at.push(s.length);
  return { text: parts.join(""), at: Int32Array.from(at) };
}
