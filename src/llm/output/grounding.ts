/**
 * What an answer may state only when the given passages or the question state it too
 * (docs/answers.md "What the checks refuse"): contact details — phone numbers, e-mail addresses,
 * WeChat and other app IDs, handles, identifiers — references to QR codes, mini programs and the
 * like, and figures with their units (prices, durations, dates, counts). A model that writes
 * `请拨打 400-820-1234`, `添加客服微信 evil_refund_888` or `三十天无理由退货` where the article
 * says 七天 is refused, whatever it cites.
 *
 * Both sides are read the same way after normalising (normalise.ts folds full-width forms):
 * phone numbers compared by their digits, figures by value and unit (figures.ts: 七天 = 7天 =
 * 7 days). A bare number up to ten and a count of one or two are words more than claims ("两种
 * 方式", "step 2") and are not held to this.
 */
import { CN_CHARS, figures, type Figure } from "./figures.ts";
import { findLinks } from "./links.ts";
import { fold } from "./normalise.ts";

export type Ungrounded = { kind: "phone" | "email" | "handle" | "app_id" | "identifier" | "reference" | "figure"; text: string };

/**
 * Seven to fifteen digits, however spaced or dashed (each digit apart too: "4 0 0 8 …"), with a
 * country code or an area code in brackets; or seven and more Chinese digits read out one by one
 * ("四零零八二零…").
 */
const PHONE = new RegExp(
  [
    String.raw`(?<![\d.])(?:\+\d{1,3}[ -]?)?(?:[(（]\d{2,4}[)）][ -]?)?\d(?:[ \-.]?\d){5,14}(?![\d])`,
    String.raw`(?<![${CN_CHARS}])[零〇一二两三四五六七八九幺]{7,15}(?![${CN_CHARS}])`,
  ].join("|"),
  "g",
);
/** An ID after the name of the app it is for: 微信 evil_refund_888, QQ 12345678, Telegram: evil. */
const APP_ID =
  /(?<![A-Za-z])(?:微[ \t]*信号?|微信id|微信名|威信|薇信|加薇|v信|vx|wx|客服v|加v|v号|weixin|wechat(?: ?id)?|qq号?|qq群号?|群号|tg|telegram|whatsapp|line|skype|抖音号?|快手号?|小红书号?|微博|钉钉号?|淘宝|天猫|京东|拼多多|支付宝|闲鱼|搜索|搜一搜)[ \t]*[:：]?[ \t]*[「『“"']?(?<id>[A-Za-z0-9][A-Za-z0-9_.-]{3,31})(?![A-Za-z0-9_])/giu;
/** Letters with digits or underscores, six characters or more: an account, an order number, a code ("COVID-19" and "9am-5pm" are words: a hyphen parts them). */
const IDENTIFIER = /(?<![A-Za-z0-9_.])(?=[A-Za-z0-9_]*[A-Za-z])(?=[A-Za-z0-9_]*[\d_])[A-Za-z0-9_]{6,}(?![A-Za-z0-9_])/g;
/** Ways off the account: codes to scan, mini programs, groups, other accounts, shops and apps elsewhere (淘宝搜索 a shop's Chinese name). */
const REFERENCE = /二维码|扫码|扫一扫|小程序|公众号|服务号|视频号|企业微信|微信群|加群|群聊|加微信|加好友|私信|淘宝|天猫|京东|拼多多|闲鱼|抖音|快手|小红书|微博|qr ?code|mini[ -]?programs?|official account|wechat group|group chat|taobao|tmall|pinduoduo|douyin|xiaohongshu|weibo/giu;
/** A Latin word in a Chinese answer: a name, a handle, a shop to search for. */
const LATIN_WORD = /(?<![A-Za-z0-9_])[A-Za-z][A-Za-z0-9_]{3,}(?![A-Za-z0-9_])/g;
const HAN_CHAR = /\p{Script=Han}/u;

/** Digits as a phone number is compared: no separators, no country code. */
const CN_DIGITS: Record<string, string> = { 零: "0", 〇: "0", 一: "1", 幺: "1", 二: "2", 两: "2", 三: "3", 四: "4", 五: "5", 六: "6", 七: "7", 八: "8", 九: "9" };
const phoneKey = (s: string): string =>
  s
    .replace(/[零〇一二两三四五六七八九幺]/g, (c) => CN_DIGITS[c] as string)
    .replace(/\D/g, "")
    .replace(/^(?:0086|86)(?=\d{9,})/, "");
const squeeze = (s: string): string => s.toLowerCase().replace(/\s+/g, "");

/** What a text holds, read the way answers are checked against it. */
export interface Grounds {
  text: string;
  squeezed: string;
  phones: string[];
  /** Each figure as value and base unit; the numbers written bare; every number as written. */
  figures: Set<string>;
  bare: Set<string>;
  raws: Set<string>;
}

/** Phones found and blanked out, so their digits are not read again as figures. */
function takePhones(text: string): { phones: { text: string; key: string }[]; rest: string } {
  const phones: { text: string; key: string }[] = [];
  const rest = text.replace(PHONE, (m) => {
    // A date is a figure (2024-03-15): read as one.
    if (phoneKey(m).length < 7 || /^\s*\d{4}[-/.]\d{1,2}[-/.]\d{1,2}\s*$/.test(m)) return m;
    phones.push({ text: m.trim(), key: phoneKey(m) });
    return " ".repeat(m.length);
  });
  return { phones, rest };
}

const figureKey = (f: Figure) => `${f.value}|${f.unit ?? ""}`;

/** The passages and the question as answers are checked against them. */
export function groundsOf(texts: readonly string[]): Grounds {
  const text = fold(texts.join("\n")).text.toLowerCase();
  const { phones, rest } = takePhones(text);
  const found = figures(rest);
  return {
    text,
    squeezed: squeeze(text),
    phones: phones.map((p) => p.key),
    figures: new Set(found.map(figureKey)),
    bare: new Set(found.filter((f) => f.unit === null).map((f) => f.raw)),
    raws: new Set(found.map((f) => f.raw)),
  };
}

/** Figures that are words more than claims. */
const incidental = (f: Figure): boolean => (f.unit === null && Number(f.value) <= 10 && Number.isInteger(Number(f.value))) || (f.unit === "count" && Number(f.value) <= 2);

/** The first thing `answer` states that `grounds` do not hold; null when every one is held. */
export function ungrounded(answer: string, grounds: Grounds): Ungrounded | null {
  const held = (s: string) => grounds.squeezed.includes(squeeze(s));
  const { phones, rest } = takePhones(answer);
  // Links were checked on their own (links.ts): their words are not names.
  let withoutLinks = "";
  let from = 0;
  for (const l of findLinks(rest)) {
    withoutLinks += `${rest.slice(from, l.start)} `;
    from = l.end;
  }
  withoutLinks += rest.slice(from);
  for (const p of phones) if (!grounds.phones.some((g) => g.includes(p.key))) return { kind: "phone", text: p.text };
  for (const m of rest.matchAll(/[A-Za-z0-9._%+-]{0,64}@[A-Za-z0-9_.-]{1,253}/g)) {
    const kind = m[0].startsWith("@") ? "handle" : "email";
    if (m[0].length > 1 && !held(m[0])) return { kind, text: m[0] };
  }
  for (const m of rest.matchAll(APP_ID)) if (!held(m.groups?.id as string)) return { kind: "app_id", text: m[0] };
  for (const m of rest.matchAll(IDENTIFIER)) if (!held(m[0])) return { kind: "identifier", text: m[0] };
  // Read with the spaces between Han characters closed: "二 维码" is 二维码 to a reader.
  for (const m of rest.replace(/(?<=\p{Script=Han})\s+(?=\p{Script=Han})/gu, "").matchAll(REFERENCE)) if (!held(m[0])) return { kind: "reference", text: m[0] };
  // In a Chinese answer a Latin word the articles do not write is a name to search for or add (an acronym is a word: VIP, COVID).
  if (HAN_CHAR.test(rest)) for (const m of withoutLinks.matchAll(LATIN_WORD)) if (!held(m[0]) && !/^[A-Z]{2,6}$/.test(m[0])) return { kind: "identifier", text: m[0] };
  for (const f of figures(rest)) {
    if (incidental(f)) continue;
    // A short number glued to a word by a hyphen is part of a name: COVID-19, Win-10.
    if ((f.unit === null || f.unit === "count") && f.raw.length <= 3 && /[A-Za-z]-$/.test(rest.slice(Math.max(0, f.at - 2), f.at))) continue;
    // Held as the same value in the same unit; or the passages write the number bare; a bare number, the number with any unit.
    if (grounds.figures.has(figureKey(f)) || grounds.bare.has(f.raw) || (f.unit === null && grounds.raws.has(f.raw))) continue;
    return { kind: "figure", text: f.text };
  }
  return null;
}
