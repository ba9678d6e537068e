/**
 * An article's body as it is kept: plain text. Operators paste bodies from their CMS or the
 * platform's editor, as HTML more often than not; replyd keeps the words and the paragraphs, not
 * the markup, so that passages can be cut and shown to followers as they read.
 *
 * Text counts as HTML when it holds a tag (`<p>`, `</div>`, `<br/>`, `<!-- -->`); anything else is
 * kept exactly as given, `<` and `&` included ("a < b", "AT&T" are words). Reducing HTML drops the
 * tags, the contents of script, style and the like, and comments; decodes character references;
 * turns block elements and `<br>` into line breaks, a paragraph's end into a blank line; and
 * collapses the white space HTML ignores.
 *
 * Reduced text is reduced again to itself (a backup restored keeps its bodies byte for byte): a
 * decoded `&lt;` that would start a tag again is left as `&lt;`.
 *
 * Linear in the input, whatever it holds (a million "<a" without a ">" included): bodies arrive by
 * the million in an import.
 */

/** A tag, a comment, or a declaration: `<` then a letter, `/`, `!` or `?`. */
const TAG_START = /<[A-Za-z/!?]/;
/** Elements whose content is not text a reader sees: dropped whole. */
const HIDDEN = new Set(["script", "style", "template", "noscript", "head", "svg", "math", "title", "iframe", "object"]);
const NAME_CHAR = /[A-Za-z0-9-]/;

/** Elements that start and end a line. */
const LINE = new Set(["address", "article", "aside", "blockquote", "caption", "dd", "details", "div", "dl", "dt", "fieldset", "figcaption", "figure", "footer", "form", "header", "hr", "legend", "li", "main", "nav", "ol", "pre", "section", "summary", "table", "tbody", "td", "tfoot", "th", "thead", "tr", "ul"]);
/** Elements that are paragraphs of their own: a blank line before and after. */
const PARAGRAPH = new Set(["p", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "pre", "table", "ul", "ol", "dl", "section", "article"]);

const NAMED: Record<string, string> = {
  amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " ", ensp: " ", emsp: " ", thinsp: " ",
  hellip: "…", mdash: "—", ndash: "–", lsquo: "‘", rsquo: "’", ldquo: "“", rdquo: "”", middot: "·",
  bull: "•", copy: "©", reg: "®", trade: "™", times: "×", divide: "÷", deg: "°", yen: "¥", euro: "€",
  pound: "£", cent: "¢", sect: "§", para: "¶", laquo: "«", raquo: "»", shy: "",
};

/** A code point a character reference may stand for: not a control character, a surrogate or past Unicode. */
const allowedCodePoint = (n: number) => n === 9 || n === 10 || (n >= 0x20 && n < 0x7f) || (n >= 0xa0 && n <= 0x10ffff && !(n >= 0xd800 && n <= 0xdfff));

function decodeEntities(text: string): string {
  return text.replace(/&(#[xX][0-9A-Fa-f]{1,6}|#[0-9]{1,7}|[A-Za-z]{2,8});/g, (whole, ref: string, offset: number, all: string) => {
    let out: string | undefined;
    if (ref[0] === "#") {
      const n = ref[1] === "x" || ref[1] === "X" ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      out = allowedCodePoint(n) ? String.fromCodePoint(n) : "\ufffd";
    } else out = NAMED[ref] ?? NAMED[ref.toLowerCase()];
    if (out === undefined) return whole;
    // A "<" that would make the kept text read as HTML again stays a reference (see the header).
    if (out === "<" && TAG_START.test("<" + (all[offset + whole.length] ?? ""))) return whole;
    return out;
  });
}

/** Whether `text` is HTML to reduce: it holds a tag, a comment or a declaration. */
export const looksLikeHtml = (text: string): boolean => {
  const i = text.search(TAG_START);
  return i >= 0 && text.indexOf(">", i) > i;
};

/**
 * Where the tag starting at `lt` ends (just past its `>`), with quoted attribute values skipped;
 * -1 when it never does.
 */
function tagEnd(html: string, lt: number): number {
  for (let i = lt + 1; i < html.length; i++) {
    const c = html[i];
    if (c === ">") return i + 1;
    if (c === '"' || c === "'") {
      const close = html.indexOf(c, i + 1);
      if (close < 0) return -1;
      i = close;
    }
  }
  return -1;
}

/** HTML as the text a reader sees: words, line breaks and paragraphs. One pass, linear in the input. */
export function htmlToText(html: string): string {
  const out: string[] = [];
  // Breaks are collected and written once before the next words: a run of closing tags makes one break.
  let pending = 0;
  let pre = 0;
  const text = (raw: string) => {
    const decoded = decodeEntities(raw);
    let shown: string;
    if (pre > 0) shown = decoded;
    else {
      // Outside <pre>, HTML's white space is one space; at a line's start it is dropped.
      const flat = decoded.replace(/[ \t\r\n\f]+/g, " ");
      const atLineStart = pending > 0 || out.length === 0 || (out[out.length - 1] as string).endsWith("\n");
      shown = atLineStart && flat.startsWith(" ") ? flat.slice(1) : flat;
    }
    if (!shown) return;
    if (pending) {
      if (out.length) out.push(pending >= 2 ? "\n\n" : "\n");
      pending = 0;
    }
    out.push(shown);
  };
  // Past a tag that never ends, every "<" is text: no later one can end either (linear, whatever the input).
  let tagsEnd = html.length;
  let i = 0;
  while (i < html.length) {
    const lt = html.indexOf("<", i);
    if (lt < 0 || lt >= tagsEnd) {
      text(html.slice(i));
      break;
    }
    const next = html[lt + 1] ?? "";
    if (!/[A-Za-z/!?]/.test(next)) {
      text(html.slice(i, lt + 1));
      i = lt + 1;
      continue;
    }
    if (lt > i) text(html.slice(i, lt));
    if (html.startsWith("<!--", lt)) {
      const close = html.indexOf("-->", lt + 4);
      i = close < 0 ? html.length : close + 3;
      continue;
    }
    const end = next === "!" || next === "?" ? html.indexOf(">", lt) + 1 : tagEnd(html, lt);
    if (end <= 0) {
      tagsEnd = lt;
      i = lt;
      continue;
    }
    i = end;
    if (next === "!" || next === "?") continue;
    const closing = next === "/";
    let n = lt + (closing ? 2 : 1);
    while (n < end && NAME_CHAR.test(html[n] as string)) n++;
    const name = html.slice(lt + (closing ? 2 : 1), n).toLowerCase();
    if (!closing && HIDDEN.has(name)) {
      // Its content, to its own end tag (or the end), is not text.
      const close = new RegExp(`</${name}\\s*>`, "gi");
      close.lastIndex = end;
      i = close.exec(html) ? close.lastIndex : html.length;
      continue;
    }
    if (name === "br") pending = Math.max(pending, 1);
    else if (name === "pre") pre = Math.max(0, pre + (closing ? -1 : 1));
    if (PARAGRAPH.has(name)) pending = 2;
    else if (LINE.has(name)) pending = Math.max(pending, 1);
  }
  // Spaces before a line break, and blank lines beyond one, say nothing.
  return out
    .join("")
    .split("\n")
    .map((line) => line.trimEnd())
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

/** A body as it is kept: HTML reduced to text, line ends as "\n"; plain text otherwise unchanged. */
export function bodyText(raw: string): string {
  const text = raw.includes("\r") ? raw.replace(/\r\n?/g, "\n") : raw;
  return looksLikeHtml(text) ? htmlToText(text) : text;
}
