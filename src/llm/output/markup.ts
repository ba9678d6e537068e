/**
 * Markdown and HTML in a model's answer reduced to the text a follower reads, in time linear in
 * the input whatever it holds: a model may write 100,000 `[` or `**x`, and a pattern that looks
 * for the closing mark from every opening one costs the square of that.
 *
 * - Lines: headings, quotes, rules, bullets, table rows and their separator lines, fenced code
 *   markers and footnote definitions lose their marks.
 * - Inline: images go; links become their text and target (the link check reads the target);
 *   footnote references go; emphasis, strike-through and code marks go.
 * - HTML: every tag and comment goes, and what script, style and the like hold; character
 *   references are decoded once.
 *
 * A WeChat text reply honours `<a href>` and `data-miniprogram-*` links, so `neutralise` (the
 * last step before a follower, after every decoding and folding) leaves no `<` that starts a tag:
 * what removing tags rebuilt (`<<a>a href=…>`) or a reference decoded into (`&lt;a`) becomes
 * `＜`, and an `&` that still starts a reference `＆`. Neither changes what is next to what, so
 * the result is its own fixed point: it holds no tag, hence no attribute, and no reference.
 */

/** How far a link's text or its target may reach: a link is a few words and an address. */
const LINK_SPAN = 512;

/** Elements whose content a reader never sees: dropped whole. */
const HIDDEN = new Set(["script", "style", "template", "noscript", "head", "svg", "math", "title", "iframe", "object", "textarea", "xmp", "select"]);
/** Elements that end a line. */
const BREAKS = new Set(["br", "p", "div", "li", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "table", "ul", "ol", "blockquote", "pre", "section"]);

const NAMED: Record<string, string> = {
  amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " ", ensp: " ", emsp: " ", thinsp: " ", hellip: "…", mdash: "—",
  ndash: "–", lsquo: "‘", rsquo: "’", ldquo: "“", rdquo: "”", middot: "·", bull: "•", times: "×", yen: "¥", period: ".", colon: ":",
  sol: "/", commat: "@", lowbar: "_", num: "#", percnt: "%", dollar: "$", lpar: "(", rpar: ")", lsqb: "[", rsqb: "]", excl: "!",
};

/** Character references decoded once; one standing for a control, a surrogate or past Unicode is dropped. */
export function decodeReferences(s: string): string {
  return s.replace(/&(#[xX][0-9A-Fa-f]{1,8}|#[0-9]{1,9}|[A-Za-z]{2,8});?/g, (whole, ref: string) => {
    if (ref[0] !== "#") return NAMED[ref] ?? NAMED[ref.toLowerCase()] ?? whole;
    const n = ref[1] === "x" || ref[1] === "X" ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
    const ok = n === 9 || n === 10 || (n >= 0x20 && n < 0x7f) || (n >= 0xa0 && n <= 0x10ffff && !(n >= 0xd800 && n <= 0xdfff));
    return ok ? String.fromCodePoint(n) : "";
  });
}

const TAG_NEXT = /[A-Za-z/!?]/;

/** Tags and comments removed, and the content of elements a reader never sees; words kept. One pass. */
export function stripTags(s: string): string {
  // ASCII folded only: a folded "İ" would be two units long and every index after it off by one.
  const lower = s.replace(/[A-Z]+/g, (m) => m.toLowerCase());
  let out = "";
  let from = 0;
  for (let i = s.indexOf("<"); i >= 0; i = s.indexOf("<", from > i ? from : i + 1)) {
    if (!TAG_NEXT.test(s[i + 1] ?? "")) continue;
    let end: number;
    let gap = "";
    if (lower.startsWith("<!--", i)) {
      const c = lower.indexOf("-->", i + 4);
      end = c < 0 ? s.length : c + 3;
    } else {
      const c = s.indexOf(">", i + 1);
      // No tag closes after here, nor after any later "<".
      if (c < 0) break;
      end = c + 1;
      const name = /^\/?([a-z][a-z0-9-]*)/.exec(lower.slice(i + 1, i + 34))?.[1] ?? "";
      if (BREAKS.has(name)) gap = "\n";
      if (HIDDEN.has(name) && s[i + 1] !== "/" && s[c - 1] !== "/") {
        const closing = lower.indexOf(`</${name}`, end);
        const closed = closing < 0 ? -1 : s.indexOf(">", closing);
        end = closed < 0 ? s.length : closed + 1;
      }
    }
    out += s.slice(from, i) + gap;
    from = end;
  }
  return out + s.slice(from);
}

/** For each position, where the next `ch` is (s.length when none): one pass from the end. */
function nextOf(s: string, ch: string): Int32Array {
  const next = new Int32Array(s.length + 1);
  next[s.length] = s.length;
  for (let i = s.length - 1; i >= 0; i--) next[i] = s[i] === ch ? i : (next[i + 1] as number);
  return next;
}

/** Links become `text target`, images and footnote references go; everything else is kept. Each `[` costs a few lookups. */
export function inlineLinks(s: string): string {
  if (!s.includes("[")) return s;
  const close = nextOf(s, "]");
  const paren = nextOf(s, ")");
  const line = nextOf(s, "\n");
  let out = "";
  let from = 0;
  for (let i = s.indexOf("["); i >= 0; i = s.indexOf("[", Math.max(from, i + 1))) {
    const j = close[i + 1] as number;
    if (j >= s.length || j - i > LINK_SPAN || (line[i] as number) < j) continue;
    const image = s[i - 1] === "!" && i - 1 >= from;
    const start = image ? i - 1 : i;
    if (s[i + 1] === "^") {
      // A footnote reference "[^2]" is how some models cite: it stays a citation, "[2]", when it is a number.
      const n = s.slice(i + 2, j);
      out += s.slice(from, start) + (/^\d{1,2}$/.test(n) ? `[${n}]` : "");
      from = j + 1;
      continue;
    }
    if (s[j + 1] !== "(") continue;
    const k = paren[j + 2] as number;
    if (k >= s.length || k - j > LINK_SPAN || (line[j] as number) < k) continue;
    const target = s
      .slice(j + 2, k)
      .trim()
      .replace(/^<|>$/g, "")
      .replace(/\s+"[^"]*"$/, "");
    out += s.slice(from, start) + (image ? "" : `${s.slice(i + 1, j)} ${target}`);
    from = k + 1;
  }
  return out + s.slice(from);
}

/** One line's block marks removed; null when the line is only a mark (a rule, a table's separator, a code fence). */
function blockLine(line: string): string | null {
  const bare = line.replace(/\s+/g, "");
  if (/^(?:```|~~~)/.test(line.trimStart())) return null;
  if (/^(?:-{3,}|\*{3,}|_{3,})$/.test(bare)) return null;
  if (bare.includes("|") && /^\|?:?-+:?(?:\|:?-+:?)*\|?$/.test(bare)) return null;
  let l = line
    .replace(/^ {0,3}(?:>\s?)+/, "")
    .replace(/^ {0,3}#{1,6}(?:\s+|$)/, "")
    .replace(/^(\s*)[*+]\s+/, "$1- ")
    .replace(/^\s*\[\^[^\]\s]{1,32}\]:\s*/, "");
  const t = l.trim();
  // A table row: its cells, a space apart.
  if (t.startsWith("|") || (t.endsWith("|") && t.includes("|", 1)))
    l = t
      .split("|")
      .map((c) => c.trim())
      .filter(Boolean)
      .join(" ");
  return l;
}

/**
 * Emphasis, strike-through and code marks; a lone `*` is kept between two words or two spaces ("2*3",
 * "a * b"); underscores only where they open or close emphasis, not inside a word or an address —
 * a WeChat article's long link, `s?__biz=…`, had lost them and was no given article's (a review).
 */
const EMPHASIS = /\*{2,}|(?<=^|[\s(（\[【"'“‘\p{Script=Han}])_{2,}(?=\S)|(?<=\S)_{2,}(?![A-Za-z0-9_=&])|~{2,}|`+|(?<=^|[\s\p{P}])\*(?=\S)|(?<=\S)\*(?=$|[\s\p{P}])/gmu;

/** Rounds of removing tags and decoding references: each undoes one level of `<<a>a>` or `&amp;lt;`; what is left past them is neutralised. */
export const MARKUP_ROUNDS = 4;

/** `step` applied to `s` until nothing changes, MARKUP_ROUNDS times at most. */
export function settled(s: string, step: (s: string) => string): string {
  let text = s;
  for (let round = 0; round < MARKUP_ROUNDS; round++) {
    const next = step(text);
    if (next === text) break;
    text = next;
  }
  return text;
}

/** Markdown and HTML as the plain text a reader sees. Linear in its input (MARKUP_ROUNDS passes at most). */
export function plainText(md: string): string {
  const lines = md.split("\n").map(blockLine).filter((l): l is string => l !== null);
  // Removing a tag can join the pieces of another (`<<b>script>`), decoding can make one (`&lt;a`): again, until nothing changes.
  return settled(inlineLinks(lines.join("\n")).replace(EMPHASIS, ""), (text) => decodeReferences(stripTags(text)));
}

/** Nothing left that a reader's app could take for a tag or a reference. The last step: nothing folds the text after it. */
export const neutralise = (s: string): string =>
  s.replace(/<(?=[A-Za-z/!?])/g, "＜").replace(/&(?=#?[A-Za-z0-9]{1,32};|lt|gt|amp|quot|apos|#\d|#x[0-9a-f])/gi, "＆");

/** Brackets a removed link left empty: "详见（）" — left as a space, so that what stood either side is never joined. */
export const dropEmptyBrackets = (s: string): string => s.replace(/[(（][ \t]*[)）]/g, " ");

/**
 * White space tidied: runs of spaces as one, none at a line's end, at most one blank line.
 * Runs are made single first: a pattern for spaces at a line's end tried from inside a run of
 * 60,000 of them costs the square of that.
 */
export const tidy = (s: string): string =>
  s
    .replace(/[ \t]{2,}|\t/g, " ")
    .replace(/ (?=\n|$|[，。！？；：、）】」』])|(?<=\n) /g, "")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
