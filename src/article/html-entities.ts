/**
 * HTML character references (`&amp;`, `&#36864;`, `&#x6B3E;`) as the text they stand for, in one
 * pass: what a reference decodes to is never read again, so `&amp;lt;` is the text `&lt;`. Names
 * outside the short list operators' editors write stay as written.
 */

const NAMED: Record<string, string> = {
  amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " ", ensp: " ", emsp: " ", thinsp: " ",
  hellip: "…", mdash: "—", ndash: "–", lsquo: "‘", rsquo: "’", ldquo: "“", rdquo: "”", middot: "·",
  bull: "•", copy: "©", reg: "®", trade: "™", times: "×", divide: "÷", deg: "°", yen: "¥", euro: "€",
  pound: "£", cent: "¢", sect: "§", para: "¶", laquo: "«", raquo: "»", shy: "", colon: ":", semi: ";",
};

/** A code point a character reference may stand for: not a control character, a surrogate or past Unicode. */
const allowedCodePoint = (n: number) => n === 9 || n === 10 || (n >= 0x20 && n < 0x7f) || (n >= 0xa0 && n <= 0x10ffff && !(n >= 0xd800 && n <= 0xdfff));

const REFERENCE = /&(#[xX][0-9A-Fa-f]{1,6}|#[0-9]{1,7}|[A-Za-z]{2,8});/g;

/** `text` with its character references decoded; a reference to a control character or a surrogate is U+FFFD. */
export function decodeEntities(text: string): string {
  if (!text.includes("&")) return text;
  return text.replace(REFERENCE, (whole, ref: string) => {
    if (ref[0] === "#") {
      const n = ref[1] === "x" || ref[1] === "X" ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      return allowedCodePoint(n) ? String.fromCodePoint(n) : "\ufffd";
    }
    return NAMED[ref] ?? NAMED[ref.toLowerCase()] ?? whole;
  });
}
