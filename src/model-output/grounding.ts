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
import { figures, type Figure } from "./figures.ts";
import { fold } from "./normalise.ts";

export type Ungrounded = { kind: "phone" | "email" | "handle" | "app_id" | "identifier" | "reference" | "figure"; text: string };

/** Seven to fifteen digits, spaced or dashed in groups, with a country code or an area code in brackets. */
const PHONE = /(?<![\d.])(?:\+\d{1,3}[ -]?)?(?:\(\d{2,4}\)[ -]?)?\d{2,5}(?:[ -]\d{2,5}){1,4}(?![\d])|(?<![\d.])\+?\d{7,15}(?![\d])/g;
/** An ID after the name of the app it is for: 微信 evil_refund_888, QQ 12345678, Telegram: evil. */
const APP_ID =
  /(?<![A-Za-z])(?:微信号?|微信id|微信名|威信|薇信|v信|vx|wx|weixin|wechat(?: ?id)?|加v|qq号?|qq群号?|群号|tg|telegram|whatsapp|line|skype|抖音号?|快手号?|小红书号?|微博|钉钉号?)[ \t]*[:：]?[ \t]*(?<id>[A-Za-z0-9][A-Za-z0-9_.-]{3,31})(?![A-Za-z0-9_])/giu;
/** Letters with digits or underscores, six characters or more: an account, an order number, a code. */
const IDENTIFIER = /(?<![A-Za-z0-9_.-])(?=[A-Za-z0-9_-]*[A-Za-z])(?=[A-Za-z0-9_-]*[\d_])[A-Za-z0-9_][A-Za-z0-9_-]{5,}(?![A-Za-z0-9_-])/g;
/** Ways off the account: codes to scan, mini programs, groups, other accounts. */
const REFERENCE = /二维码|扫码|扫一扫|小程序|视频号|企业微信|微信群|加群|群聊|加微信|加好友|私信|qr ?code|mini[ -]?programs?|wechat group|group chat/giu;

/** Digits as a phone number is compared: no separators, no country code. */
const phoneKey = (s: string): string => s.replace(/\D/g, "").replace(/^(?:0086|86)(?=\d{9,})/, "");
const squeeze = (s: string): string => s.toLowerCase().replace(/\s+/g, "");
const digitCount = (s: string): number => s.replace(/\D/g, "").length;

/** What a text holds, read the way answers are checked against it. */
export interface Grounds {
  text: string;
  squeezed: string;
  phones: string[];
  figures: Set<string>;
  values: Set<string>;
}

/** Phones found and blanked out, so their digits are not read again as figures. */
function takePhones(text: string): { phones: { text: string; key: string }[]; rest: string } {
  const phones: { text: string; key: string }[] = [];
  const rest = text.replace(PHONE, (m) => {
    // A date is a figure (2024-03-15): read as one.
    if (digitCount(m) < 7 || /^\s*\d{4}[-/.]\d{1,2}[-/.]\d{1,2}\s*$/.test(m)) return m;
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
  return { text, squeezed: squeeze(text), phones: phones.map((p) => p.key), figures: new Set(found.map(figureKey)), values: new Set(found.map((f) => f.value)) };
}

/** Figures that are words more than claims. */
const incidental = (f: Figure): boolean => (f.unit === null && Number(f.value) <= 10 && Number.isInteger(Number(f.value))) || (f.unit === "count" && Number(f.value) <= 2);

/** The first thing `answer` states that `grounds` do not hold; null when every one is held. */
export function ungrounded(answer: string, grounds: Grounds): Ungrounded | null {
  const held = (s: string) => grounds.squeezed.includes(squeeze(s));
  const { phones, rest } = takePhones(answer);
  for (const p of phones) if (!grounds.phones.some((g) => g.includes(p.key))) return { kind: "phone", text: p.text };
  for (const m of rest.matchAll(/[A-Za-z0-9._%+-]{0,64}@[A-Za-z0-9_.-]{1,253}/g)) {
    const kind = m[0].startsWith("@") ? "handle" : "email";
    if (m[0].length > 1 && !held(m[0])) return { kind, text: m[0] };
  }
  for (const m of rest.matchAll(APP_ID)) if (!held(m.groups?.id as string)) return { kind: "app_id", text: m[0] };
  for (const m of rest.matchAll(IDENTIFIER)) if (!held(m[0])) return { kind: "identifier", text: m[0] };
  for (const m of rest.matchAll(REFERENCE)) if (!held(m[0])) return { kind: "reference", text: m[0] };
  for (const f of figures(rest)) {
    if (incidental(f)) continue;
    if (grounds.figures.has(figureKey(f)) || grounds.figures.has(`${f.value}|`) || (f.unit === null && grounds.values.has(f.value))) continue;
    return { kind: "figure", text: f.text };
  }
  return null;
}
