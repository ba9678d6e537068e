/**
 * Anything in a model's answer that a reader could follow or type into a browser, in any
 * spelling that survives normalising (normalise.ts folds `ｈｔｔｐ：／／` and removes `ht\u200btp`'s
 * joiner first): a scheme (`https://`, `hxxp://`, `javascript:`, `weixin://`), a
 * protocol-relative `//host`, a host name (`evil.example`, `evil . example`, `evil[.]example`,
 * `xn--80ak6aa92e.com`, `例子.测试`), or an IP address.
 *
 * A host is a label, a dot, and a top-level label that starts with two letters (`.com`,
 * `.example`, `.测试`) or is punycode (`xn--`). So `e.g.`, `1.5`, `v2.0` and `No.1` are not hosts, and
 * `Node.js` or `report.pdf` are: the check lets those through only when the given articles hold
 * them. Found in one pass over anchors (a double slash, a scheme, a dot, an address), each
 * widened to its token at most TOKEN_REACH each way; anchors inside a token found already are
 * skipped, so the cost is linear in the text.
 */

export interface Link {
  /** The link as written, trailing punctuation left out. */
  text: string;
  start: number;
  end: number;
}

/** How far a token reaches from its anchor either way: no address a reader types is longer. */
const TOKEN_REACH = 512;

/** Schemes that act without a `//`: scripts, data, mail and calls, apps opened from a message. */
const BARE_SCHEMES =
  "javascript|vbscript|livescript|data|mailto|tel|sms|smsto|mms|weixin|wechat|wxp|file|intent|about|blob|market|itms(?:-apps|-services)?|alipays?|taobao|tbopen|openapp|mqq(?:api|wpa)?|tg|whatsapp|skype|line|ftp|sftp|wss?|https?|hxxps?|magnet|weibo|sinaweibo|snssdk\\d*|dianping|imeituan|pinduoduo|baiduboxapp|zhihu|douyin|kwai|xhsdiscover|fb|twitter";

const ANCHORS = new RegExp(
  [
    // A double slash, or its backslash spelling, which browsers take for one.
    String.raw`[\\/]{2}`,
    // A scheme that acts without slashes, written against what it opens.
    String.raw`(?<![A-Za-z0-9+.-])(?:${BARE_SCHEMES})\s*:(?=[^\s])`,
    // A dot between labels: plain, spaced on both sides, defanged, or the ideographic full stop between Latin labels.
    String.raw`(?<=[\p{L}\p{N}])(?:\.|[ \t]{1,3}\.[ \t]{1,3}|\[\.\]|\(\.\)|\{\.\}|\[dot\]|\(dot\))(?=(?:xn--|\p{L}{2}))`,
    String.raw`(?<=[A-Za-z0-9])。(?=[A-Za-z]{2})`,
    // An IPv4 address.
    String.raw`(?<![\d.])(?:\d{1,3}\.){3}\d{1,3}(?!\.?\d)`,
  ].join("|"),
  "giu",
);

/** Characters of a Latin address (its host, path, query), and of a label in another script. */
const LATIN = /[A-Za-z0-9._~:/\\?#@!$&*+=%-]/;
const WIDE = /[\p{L}\p{N}]/u;
const classOf = (c: string | undefined): RegExp | null => (c === undefined ? null : LATIN.test(c) ? LATIN : c.charCodeAt(0) > 0x7f && WIDE.test(c) ? WIDE : null);

/**
 * "1.退货流程": a number, a dot and words of another script number a list; it is no host (a
 * Latin name after the number is: `163.com`).
 */
function numberedLine(text: string, at: number, past: number): boolean {
  const after = text[past];
  if (text[at] !== "." || after === undefined || after.charCodeAt(0) < 0x80) return false;
  let i = at;
  while (i > 0 && at - i < 64 && /[0-9]/.test(text[i - 1] as string)) i--;
  return i < at && !/[\p{L}\p{N}-]/u.test(text[i - 1] ?? "");
}

/** Every link in `text`, in order. */
export function findLinks(text: string): Link[] {
  const found: Link[] = [];
  let covered = 0;
  for (const m of text.matchAll(ANCHORS)) {
    const at = m.index as number;
    const past = at + m[0].length;
    if (at < covered) continue;
    if (numberedLine(text, at, past)) continue;
    // Widened over the characters of the kind next to the anchor, on each side.
    let start = at;
    const left = classOf(text[at - 1]);
    if (left) while (start > Math.max(covered, at - TOKEN_REACH) && left.test(text[start - 1] as string)) start--;
    let end = past;
    const right = classOf(text[past]);
    if (right) while (end < Math.min(text.length, past + TOKEN_REACH) && (right.test(text[end] as string) || LATIN.test(text[end] as string))) end++;
    // Sentence punctuation after an address is the sentence's.
    while (end > past && /[.,;:!?'"*)]/.test(text[end - 1] as string)) end--;
    found.push({ text: text.slice(start, end), start, end });
    covered = end;
  }
  return found;
}

/** A link as compared: case folded, its spacing and defanged dots undone, its trailing slashes gone. */
export const linkKey = (link: string): string =>
  link
    .toLowerCase()
    .replace(/\[\.\]|\(\.\)|\{\.\}|\[dot\]|\(dot\)|。/g, ".")
    .replace(/\s+/g, "")
    .replace(/\/+$/, "");

/** The same address, with or without its scheme. */
export const sameAddress = (a: string, b: string): boolean => linkKey(a).replace(/^https?:\/\//, "") === linkKey(b).replace(/^https?:\/\//, "");
