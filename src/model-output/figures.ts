/**
 * The figures a text states, each as a value and a unit in one spelling, so that an answer's
 * "7天", "七天", "7 days" and "seven days" meet the article's "七天": Arabic and Chinese numerals
 * (with 万, 千, k and the like), English number words before a unit, times of day ("9:30",
 * "9点半"), dates ("2024-03-15", "2024年3月15日"), currency signs and percentages.
 *
 * Every pattern is anchored at the start of a run (a lookbehind refuses to start inside one)
 * and bounded, so a text is read in time linear in its length.
 */

export interface Figure {
  /** The number, in one spelling: "7", "1.5", "20000". */
  value: string;
  /** The unit in one spelling ("day", "yuan", "%", "count"), or null for a bare number. */
  unit: string | null;
  /** As written. */
  text: string;
}

/** Units, each spelling to its one name; longer spellings first where one starts another. */
const UNIT_NAMES: [string, string][] = [
  ["个工作日|工作日|business days?|working days?", "workday"],
  ["个小时|小时|钟头|hours?|hrs?|h", "hour"],
  ["分钟|minutes?|mins?", "minute"],
  ["秒钟|秒|seconds?|secs?", "second"],
  ["个星期|星期|礼拜|周|weeks?", "week"],
  ["个月|月|months?", "month"],
  ["年|years?", "year"],
  ["天|日|号|days?", "day"],
  ["点半", "half past"],
  ["点钟|点|o'clock|am|pm", "clock"],
  ["美元|美金|dollars?|usd", "usd"],
  ["元|块钱|块|圆|yuan|rmb|cny", "yuan"],
  ["角|毛", "jiao"],
  ["%|percent|per cent", "%"],
  ["折", "折"],
  ["倍|times", "times"],
  ["岁", "age"],
  ["公斤|千克|kg", "kg"],
  ["斤", "斤"],
  ["克|g", "g"],
  ["公里|千米|km", "km"],
  ["厘米|cm", "cm"],
  ["毫米|mm", "mm"],
  ["米|m", "m"],
  ["毫升|ml", "ml"],
  ["升|l", "l"],
  ["tb|gb|mb|kb", "bytes"],
  ["件|个|次|份|张|盒|瓶|袋|箱|台|位|人|名|本|条|套|单|笔|只|支|items?|pieces?|pcs|people|persons?|orders?", "count"],
];
const UNIT_OF = new Map<string, string>();
const unitAlternatives: string[] = [];
for (const [spellings, name] of UNIT_NAMES)
  for (const s of spellings.split("|")) {
    unitAlternatives.push(s);
    // "days?" is "day" and "days".
    const base = s.replace(/s\?$/, "");
    UNIT_OF.set(base, name);
    if (base !== s) UNIT_OF.set(`${base}s`, name);
  }
// Longest first, so that 个工作日 is not read as 个.
unitAlternatives.sort((a, b) => b.length - a.length);
const UNITS = unitAlternatives.join("|");

const unitName = (u: string | undefined): string | null => {
  if (!u) return null;
  const k = u.toLowerCase().replace(/\s+/g, " ");
  return UNIT_OF.get(k) ?? null;
};

const CN_DIGIT: Record<string, number> = { 零: 0, 〇: 0, 一: 1, 壹: 1, 二: 2, 贰: 2, 两: 2, 三: 3, 叁: 3, 四: 4, 肆: 4, 五: 5, 伍: 5, 六: 6, 陆: 6, 七: 7, 柒: 7, 八: 8, 捌: 8, 九: 9, 玖: 9 };
const CN_SMALL: Record<string, number> = { 十: 10, 拾: 10, 百: 100, 佰: 100, 千: 1000, 仟: 1000 };
const CN_LARGE: Record<string, number> = { 万: 1e4, 亿: 1e8 };
const CN_CHARS = "零〇一壹二贰两三叁四肆五伍六陆七柒八捌九玖十拾百佰千仟万亿";

/** A Chinese numeral's value: 十五 15, 二十四 24, 一百二十 120, 两万 20000, 二零二四 2024; null when it is none. */
export function chineseNumber(s: string): number | null {
  if (!s) return null;
  // Digits one by one, as years and numbers are read out: 二零二四.
  if (![...s].some((c) => c in CN_SMALL || c in CN_LARGE)) {
    let n = 0;
    for (const c of s) {
      const d = CN_DIGIT[c];
      if (d === undefined) return null;
      n = n * 10 + d;
    }
    return n;
  }
  let total = 0;
  let section = 0;
  let digit: number | null = null;
  for (const c of s) {
    if (c in CN_DIGIT) digit = CN_DIGIT[c] as number;
    else if (c in CN_SMALL) {
      section += (digit ?? 1) * (CN_SMALL[c] as number);
      digit = null;
    } else if (c in CN_LARGE) {
      total = (total + section + (digit ?? 0)) * (CN_LARGE[c] as number);
      section = 0;
      digit = null;
    } else return null;
  }
  return total + section + (digit ?? 0);
}

const EN_NUMBER: Record<string, number> = {
  zero: 0, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, eleven: 11, twelve: 12, thirteen: 13,
  fourteen: 14, fifteen: 15, sixteen: 16, seventeen: 17, eighteen: 18, nineteen: 19, twenty: 20, thirty: 30, forty: 40, fifty: 50,
  sixty: 60, seventy: 70, eighty: 80, ninety: 90, hundred: 100,
};
const EN_WORDS = Object.keys(EN_NUMBER).sort((a, b) => b.length - a.length).join("|");

const MULTIPLIER: Record<string, number> = { 万: 1e4, 千: 1e3, 百: 100, 亿: 1e8, k: 1e3, w: 1e4 };
const CURRENCY: Record<string, string> = { "¥": "yuan", rmb: "yuan", cny: "yuan", $: "usd", usd: "usd", "€": "eur", eur: "eur", "£": "gbp", gbp: "gbp" };

const show = (n: number): string => String(Math.round(n * 1e6) / 1e6);

const PATTERNS = new RegExp(
  [
    // A date: 2024-03-15, 2024/3/15, 2024年3月15日.
    String.raw`(?<date>(?<![\d.])\d{4}(?:[-/.]\d{1,2}[-/.]\d{1,2}|年\d{1,2}月\d{1,2}[日号]?)(?![\d.]))`,
    // A time of day: 9:30, 18:00.
    String.raw`(?<time>(?<![\d:])\d{1,2}:\d{2}(?![\d:]))`,
    // Arabic: an optional currency, the number (1,000.5), a multiplier, a unit.
    String.raw`(?<cur>[¥$€£]|(?<![A-Za-z])(?:rmb|cny|usd|eur|gbp)(?![A-Za-z]))?[ \t]?(?<num>(?<![\d.,A-Za-z_])\d{1,15}(?:,\d{3})*(?:\.\d{1,6})?(?![\d]))(?<mul>[ \t]?[万千百亿]|[kKwW](?![A-Za-z]))?[ \t]?(?<unit>(?:${UNITS})(?![A-Za-z]))?`,
    // Chinese: 百分之二十, or a numeral run before a unit (a numeral alone is a word: 一起, 统一).
    String.raw`百分之(?<pct>[${CN_CHARS}]{1,12})`,
    String.raw`(?<![${CN_CHARS}])(?<cn>[${CN_CHARS}]{1,12})(?<cnhalf>半)?(?<cnunit>${UNITS})`,
    // English words before a unit: seven days, twenty-four hours.
    String.raw`(?<![A-Za-z])(?<en>(?:${EN_WORDS})(?:[ -](?:${EN_WORDS}))?)[ -](?<enunit>(?:${UNITS})(?![A-Za-z]))`,
  ].join("|"),
  "giu",
);

/** Every figure `text` states, in order. */
export function figures(text: string): Figure[] {
  const out: Figure[] = [];
  for (const m of text.matchAll(PATTERNS)) {
    const g = m.groups as Record<string, string | undefined>;
    const written = m[0].trim();
    if (g.date) {
      const [y, mo, d] = g.date.split(/[-/.年月日号]/).filter(Boolean).map(Number) as [number, number, number];
      out.push({ value: show(y), unit: "year", text: written }, { value: show(mo), unit: "month", text: written }, { value: show(d), unit: "day", text: written });
    } else if (g.time) {
      const [h, min] = g.time.split(":").map(Number) as [number, number];
      out.push({ value: show(h + min / 60), unit: "clock", text: written });
    } else if (g.num) {
      let n = Number(g.num.replace(/,/g, ""));
      const mul = g.mul?.trim().toLowerCase();
      if (mul) n *= MULTIPLIER[mul] as number;
      let unit = unitName(g.unit);
      if (unit === "half past") (n += 0.5), (unit = "clock");
      if (unit === "clock" && g.unit?.toLowerCase() === "pm" && n < 12) n += 12;
      const cur = g.cur ? (CURRENCY[g.cur.toLowerCase()] ?? null) : null;
      out.push({ value: show(n), unit: cur ?? unit, text: written });
    } else if (g.pct) {
      const n = chineseNumber(g.pct);
      if (n !== null) out.push({ value: show(n), unit: "%", text: written });
    } else if (g.cn) {
      let n = chineseNumber(g.cn);
      if (n === null) continue;
      let unit = unitName(g.cnunit);
      if (g.cnhalf) n += 0.5;
      if (unit === "half past") (n += 0.5), (unit = "clock");
      out.push({ value: show(n), unit, text: written });
    } else if (g.en) {
      const n = g.en
        .toLowerCase()
        .split(/[ -]/)
        .reduce((sum, w) => (w === "hundred" ? Math.max(sum, 1) * 100 : sum + (EN_NUMBER[w] ?? 0)), 0);
      out.push({ value: show(n), unit: unitName(g.enunit), text: written });
    }
  }
  return out;
}
