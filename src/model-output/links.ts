/**
 * Anything in a model's answer that a reader could follow or type into a browser, in any
 * spelling that survives normalising (normalise.ts folds `ｈｔｔｐ：／／` and removes `ht\u200btp`'s
 * joiner first): a scheme (`https://`, `hxxp://`, `javascript:`, `weixin://`, `geo:`), a
 * protocol-relative `//host`, a host name (`evil.example`, `evil . example`, `evil .example`,
 * `evil[.]example`, `evil 【.】 com`, `evil dot com`, `evil·com`, `xn--80ak6aa92e.com`, `例子.测试`),
 * or an IP address.
 *
 * A host is a label, a dot (or a spelling of one), and a top-level label: lower-case letters, two
 * or more (`.com`, `.example`), punycode (`xn--`), a known top-level name in any case (`.COM`), or
 * one of the Chinese top-level names (`.中国`, `.测试`). So `e.g.`, `1.5`, `v2.0`, `No.1`,
 * `Mr.Smith`, `退货.请联系` and `1.退货流程` are not hosts; `Node.js` is, and passes only when the
 * given articles write it (`report.pdf`: file names are not hosts). Found in one pass over
 * anchors, each widened to its token at most TOKEN_REACH each way; anchors inside a token found
 * already are skipped, so the cost is linear in the text.
 */

export interface Link {
  /** The link as written, trailing punctuation left out. */
  text: string;
  start: number;
  end: number;
}

/** How far a token reaches from its anchor either way: no address a reader types is longer. */
const TOKEN_REACH = 512;

/** Schemes that act without a `//`: scripts, data, mail and calls, maps, apps opened from a message. */
const BARE_SCHEMES =
  "javascript|vbscript|livescript|data|mailto|tel|sms|smsto|mms|callto|facetime|facetime-audio|sip|sips|xmpp|geo|maps|weixin|wechat|wxp|file|intent|about|blob|market|itms(?:-apps|-services)?|alipays?|taobao|tbopen|openapp|mqq(?:api|wpa)?|tg|whatsapp|skype|line|ftp|sftp|wss?|https?|hxxps?|magnet|weibo|sinaweibo|snssdk\\d*|dianping|imeituan|pinduoduo|baiduboxapp|zhihu|douyin|kwai|xhsdiscover|fb|twitter";

/** Top-level names in capitals or mixed case are hosts only when known (`.COM`); lower case always is. */
const KNOWN_TLDS = new Set(
  "com net org edu gov mil int info biz name pro io co me tv cc app dev xyz top vip club shop site online store tech ltd link live life world today cloud email group asia mobi tel travel jobs museum aero coop cat post wang ren ink fun icu work zip mov".split(" "),
);
/** Chinese top-level names: after a dot between Han words, these make a host (`例子.测试`); any other Han word is the next sentence. */
const HAN_TLDS = "中国|中國|公司|网络|網絡|测试|測試|商城|在线|在線|网址|網址|我爱你|集团|集團|游戏|遊戲|企业|企業|娱乐|娛樂|信息|手机|手機|移动|移動|联通|聯通|购物|購物|网店|網店|时尚|時尚|商标|商標|香港|台湾|台灣|新加坡|佛山|广东|廣東|世界|点看|點看|餐厅|餐廳|政务|政務|公益|慈善|健康|招聘|工行";
/** Extensions of files people name: after a dot they make a file name, not a host (`.zip` and `.mov` are real top-level names and stay hosts). */
const FILE_EXTS = new Set("pdf doc docx xls xlsx ppt pptx jpg jpeg png gif webp heic txt csv rtf md mp3 mp4 wav m4a apk ipa exe dmg pkg js ts json xml html htm css".split(" "));

/** After ". " a word is the next sentence, unless it is one of these ("evil. com"). */
const SPACED_TLDS = "com|net|org|cn|io|xyz|top|vip|shop|site|online|app|info|biz|club|ltd|cc|tv";

/** A dot: plain; spaced on both sides or before it only, or after it before a common top-level name ("end. Next" is a sentence); bracketed or spelled out; a middle dot. */
const DOT = String.raw`(?:\.(?:[ \t]{1,16}(?=(?:${SPACED_TLDS})(?![\p{L}\p{N}])))?|[ \t]{1,16}\.(?:[ \t]{1,16})?|[ \t]*[\[【(（<{〔［][ \t]*(?:\.|dot|点|點|。)[ \t]*[\]】)）>}〕］][ \t]*|[·‧・•∙⋅])`;

const ANCHORS = new RegExp(
  [
    // A double slash, or its backslash spelling, which browsers take for one.
    String.raw`[\\/]{2}`,
    // A scheme that acts without slashes, written against what it opens.
    String.raw`(?<![A-Za-z0-9+.-])(?:${BARE_SCHEMES})\s*:(?=[^\s])`,
    // A dot between labels, in any of its spellings, before something that may be a top-level name (checked below).
    String.raw`(?<=[\p{L}\p{N}])${DOT}(?=(?:xn--|\p{L}{2}))`,
    // "dot" or 点 spelled out between Latin labels.
    String.raw`(?<=[A-Za-z0-9])[ \t]*(?:\bdot\b|点|點)[ \t]*(?=[A-Za-z]{2})`,
    // The ideographic full stop between Latin labels.
    String.raw`(?<=[A-Za-z0-9])[。｡](?=[A-Za-z]{2})`,
    // An IPv4 address.
    String.raw`(?<![\d.])(?:\d{1,3}\.){3}\d{1,3}(?!\.?\d)`,
  ].join("|"),
  "giu",
);

const LABEL_AFTER = /^(?:xn--[a-z0-9-]+|[\p{L}\p{N}-]+)/iu;
const HAN = /\p{Script=Han}/u;

/** Whether the label after a dot anchor makes a host: see the header. */
function topLevel(text: string, past: number, anchor: string): boolean {
  const label = LABEL_AFTER.exec(text.slice(past, past + 64))?.[0] ?? "";
  if (/^xn--/i.test(label)) return true;
  if (HAN.test(label[0] ?? "")) return new RegExp(`^(?:${HAN_TLDS})(?![\\p{L}\\p{N}])`, "u").test(label);
  const letters = /^[A-Za-z]+/.exec(label)?.[0] ?? "";
  if (letters.length < 2) return false;
  const lower = letters.toLowerCase();
  if (/^\s*\.\s*$/.test(anchor) || anchor === ".") {
    if (FILE_EXTS.has(lower) && letters.length === label.length) return false;
  }
  return letters === lower || KNOWN_TLDS.has(lower) || letters.length === 2;
}

/** What a dot anchor starts with (the other anchors are a scheme, a double slash or an address). */
const DOT_ANCHOR = /^(?:[\s.·‧・•∙⋅。｡\[【(（<{〔［]|dot|点|點)/i;

/** Characters of a Latin address (its host, path, query), and of a label in another script. */
const LATIN = /[A-Za-z0-9._~:/\\?#@!$&*+=%-]/;
const WIDE = /[\p{L}\p{N}]/u;
const classOf = (c: string | undefined): RegExp | null => (c === undefined ? null : LATIN.test(c) ? LATIN : c.charCodeAt(0) > 0x7f && WIDE.test(c) ? WIDE : null);

/** Every link in `text`, in order. */
export function findLinks(text: string): Link[] {
  const found: Link[] = [];
  let covered = 0;
  for (const m of text.matchAll(ANCHORS)) {
    const at = m.index as number;
    const past = at + m[0].length;
    if (at < covered) continue;
    // A dot's label after it must be a top-level name (the other anchors are links whatever follows).
    if (DOT_ANCHOR.test(m[0]) && !topLevel(text, past, m[0])) continue;
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

/** A link as compared: case folded, every spelling of a dot a dot, its spacing and trailing slashes gone. */
export const linkKey = (link: string): string =>
  link
    .toLowerCase()
    .replace(/[ \t]*[\[【(（<{〔［][ \t]*(?:\.|dot|点|點|。)[ \t]*[\]】)）>}〕］][ \t]*|[ \t]+(?:dot|点|點)[ \t]+|[·‧・•∙⋅。｡]/g, ".")
    .replace(/\s+/g, "")
    .replace(/\/+$/, "");

/** Host and path of a link, without its scheme (`https://`, `//`): what two spellings of one address share. */
export function hostPath(link: string): { host: string; path: string } {
  const k = linkKey(link).replace(/^[a-z][a-z0-9+.-]*:\/\/|^\/\//, "");
  const slash = k.indexOf("/");
  return slash < 0 ? { host: k, path: "" } : { host: k.slice(0, slash), path: k.slice(slash) };
}

/** The same address, with or without its scheme. */
export const sameAddress = (a: string, b: string): boolean => {
  const x = hostPath(a);
  const y = hostPath(b);
  return x.host === y.host && x.path === y.path;
};

/**
 * Whether `link` is one the given texts write: the same host, and no path, the same path, or a
 * path one of theirs continues (`help.example.com/faq` for `help.example.com/faq/returns`) — never
 * a piece of a longer name (`refund.com` is not `myshop-refund.com`).
 */
export function heldBy(link: string, held: readonly { host: string; path: string }[]): boolean {
  const l = hostPath(link);
  return held.some((h) => h.host === l.host && (l.path === "" || h.path === l.path || h.path.startsWith(`${l.path}/`)));
}
