/**
 * HTML character references (`&amp;`, `&#36864;`, `&#x6B3E;`, `&rarr;`) as the text they stand for, in
 * one pass: what a reference decodes to is never read again, so `&amp;lt;` is the text `&lt;`. Every
 * name HTML defines (character-entities: the WHATWG table; a bike share's help-centre export had shown
 * followers "Leeds Station &rarr; Kirkstall Abbey" when only a short list was known); a name HTML does not
 * define stays as written.
 */
import { characterEntities } from "character-entities";

/** Where replyd reads a reference otherwise than HTML: spaces of every width as a space, a soft hyphen as nothing. */
const NAMED: Record<string, string> = { nbsp: " ", ensp: " ", emsp: " ", thinsp: " ", shy: "" };

/** A code point a character reference may stand for: not a control character, a surrogate or past Unicode. */
const allowedCodePoint = (n: number) => n === 9 || n === 10 || (n >= 0x20 && n < 0x7f) || (n >= 0xa0 && n <= 0x10ffff && !(n >= 0xd800 && n <= 0xdfff));

/** The longest name HTML defines is 31 letters and digits (CounterClockwiseContourIntegral). */
const REFERENCE = /&(#[xX][0-9A-Fa-f]{1,6}|#[0-9]{1,7}|[A-Za-z][A-Za-z0-9]{1,31});/g;

const ENTITIES: Readonly<Record<string, string>> = characterEntities;
// Every other name for a space of some width as a space, for nothing visible as nothing (&NonBreakingSpace;, &ZeroWidthSpace;: a review).
const plain = (value: string) => value.replace(/[\u00a0\u2000-\u200a\u202f\u205f]/g, " ").replace(/[\u200b-\u200d\u2060\ufeff]/g, "");
const named = (name: string): string | undefined => (Object.hasOwn(NAMED, name) ? NAMED[name] : Object.hasOwn(ENTITIES, name) ? plain(ENTITIES[name] as string) : undefined);

/** `text` with its character references decoded; a reference to a control character or a surrogate is U+FFFD. */
export function decodeEntities(text: string): string {
  if (!text.includes("&")) return text;
  return text.replace(REFERENCE, (whole, ref: string) => {
    if (ref[0] === "#") {
      const n = ref[1] === "x" || ref[1] === "X" ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      return allowedCodePoint(n) ? String.fromCodePoint(n) : "\ufffd";
    }
    // Exactly as HTML names it, else as an editor may have capitalised it (&NBSP;, &Hellip;).
    return named(ref) ?? named(ref.toLowerCase()) ?? whole;
  });
}
