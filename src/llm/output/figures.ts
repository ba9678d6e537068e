/**
 * The figures a text states, each as a value in one base unit, so that an answer's "7天", "七天",
 * "一周", "7 days" and "seven days" meet the article's "七天": Arabic and Chinese numerals (with
 * 万, 千, k, 半, 多 and the like), English number words before a unit, times of day ("9:30",
 * "9点半", "晚上9点" = 21:00, "9pm"), ranges said as neighbouring numerals (三四人: 3 and 4), dates ("2024-03-15", "2024年3月15日"), currency signs and
 * percentages. Durations are counted in minutes (a week is 10,080 of them, months in twelfths of a
 * year), lengths in millimetres, weights in grams, money in jiao.
 *
 * Every pattern is anchored at the start of a run (a lookbehind refuses to start inside one)
 * and bounded, so a text is read in time linear in its length.
 */

export interface Figure {
  /** The number in the unit's base, in one spelling: "7", "1.5", "20000". */
  value: string;
  /** The base unit ("minute", "month", "jiao", "%", "count"), or null for a bare number. */
  unit: string | null;
  /** The number as written, before any unit's conversion: "7" of 7天. */
  raw: string;
  /** As written, and where it starts in the text read. */
  text: string;
  at: number;
}

/** Units, each spelling to its base and how many of the base it is; longer spellings first where one starts another. */
const UNIT_NAMES: [string, string, number][] = [
  ["个工作日|工作日|business days?|working days?", "workday", 1],
  ["个小时|小时|钟头|hours?|hrs?|h", "minute", 60],
  ["分钟|minutes?|mins?", "minute", 1],
  ["秒钟|秒|seconds?|secs?", "second", 1],
  ["个星期|星期|礼拜|周|weeks?", "minute", 7 * 1440],
  ["fortnights?", "minute", 14 * 1440],
  ["个月|月|months?", "month", 1],
  ["年|years?", "month", 12],
  ["天|日|号|days?", "minute", 1440],
  ["点半", "half past", 1],
  ["点钟|点|o'clock|am|pm", "clock", 1],
  ["美元|美金|dollars?|usd", "usd", 1],
  ["元|块钱|块|圆|yuan|rmb|cny", "jiao", 10],
  ["角|毛", "jiao", 1],
  ["%|percent|per cent", "%", 1],
  ["折", "折", 1],
  ["倍|times", "times", 1],
  ["岁", "age", 1],
  ["公斤|千克|kg", "g", 1000],
  ["斤", "g", 500],
  ["克|g", "g", 1],
  ["公里|千米|km", "mm", 1_000_000],
  ["厘米|cm", "mm", 10],
  ["毫米|mm", "mm", 1],
  ["米|m", "mm", 1000],
  ["毫升|ml", "ml", 1],
  ["升|l", "ml", 1000],
  ["tb|gb|mb|kb", "bytes", 1],
  // Floors: 三楼 and 三层 are one place; a count of levels reads the same (停车场共8层).
  ["楼|层|floors?", "floor", 1],
  // Measure words: what is counted (可借图书5册, 三家分店, 每人限两晚) is a claim like a price.
  // Not those that count the answer's own parts (三种方式, 两项) or make words (五一节, 十一期间, 一部分).
  ["件|个|次|份|张|盒|瓶|袋|箱|台|位|人|名|本|册|卷|篇|页|条|套|单|笔|只|支|辆|间|座|栋|幢|所|家|堂|课|届|轮|场|趟|遍|顿|餐|晚|床|桌|颗|粒|包|杯|碗|剂|针|双|把|items?|pieces?|pcs|people|persons?|orders?", "count", 1],
];
const UNIT_OF = new Map<string, { base: string; times: number }>();
const unitAlternatives: string[] = [];
for (const [spellings, base, times] of UNIT_NAMES)
  for (const s of spellings.split("|")) {
    unitAlternatives.push(s);
    // "days?" is "day" and "days".
    const one = s.replace(/s\?$/, "");
    UNIT_OF.set(one, { base, times });
    if (one !== s) UNIT_OF.set(`${one}s`, { base, times });
  }
// Longest first, so that 个工作日 is not read as 个.
unitAlternatives.sort((a, b) => b.length - a.length);
const UNITS = unitAlternatives.join("|");

const unitOf = (u: string | undefined) => (u ? (UNIT_OF.get(u.toLowerCase().replace(/\s+/g, " ")) ?? null) : null);

/** A measure word that begins a word with what follows it: 五晚上 is Friday evening (周五晚上), 三家长 parents, no count. */
const WORD_AFTER: Readonly<Record<string, RegExp>> = { 晚: /^[上间饭餐会安点]/, 家: /^[长庭里]/, 场: /^[所地合]/, 课: /^[程堂]/, 间: /^[断隔]/ };
/** Whether `unit`, ending a match at `end` of `text`, begins a word there rather than counting (WORD_AFTER). */
const beginsWord = (unit: string | undefined, text: string, end: number): boolean => (unit ? (WORD_AFTER[unit]?.test(text.slice(end)) ?? false) : false);

const CN_DIGIT: Record<string, number> = { 零: 0, 〇: 0, 一: 1, 壹: 1, 幺: 1, 二: 2, 贰: 2, 两: 2, 俩: 2, 三: 3, 叁: 3, 仨: 3, 四: 4, 肆: 4, 五: 5, 伍: 5, 六: 6, 陆: 6, 七: 7, 柒: 7, 八: 8, 捌: 8, 九: 9, 玖: 9 };
const CN_SMALL: Record<string, number> = { 十: 10, 拾: 10, 廿: 20, 卅: 30, 百: 100, 佰: 100, 千: 1000, 仟: 1000 };
const CN_LARGE: Record<string, number> = { 万: 1e4, 亿: 1e8 };
export const CN_CHARS = "零〇一壹幺二贰两俩三叁仨四肆五伍六陆七柒八捌九玖十拾廿卅百佰千仟万亿";

/** A Chinese numeral's value: 十五 15, 二十四 24, 廿五 25, 一百二十 120, 两万 20000, 二零二四 2024; null when it is none. */
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
      const small = CN_SMALL[c] as number;
      // 廿 and 卅 are twenty and thirty themselves.
      section += small >= 20 && small < 100 ? small : (digit ?? 1) * small;
      digit = null;
    } else if (c in CN_LARGE) {
      total = (total + section + (digit ?? 0)) * (CN_LARGE[c] as number);
      section = 0;
      digit = null;
    } else return null;
  }
  return total + section + (digit ?? 0);
}

/** The unit below each: what a range said after a unit counts (一万五六). */
const NEXT_UNIT: Readonly<Record<string, string>> = { 万: "千", 千: "百", 百: "十", 佰: "拾", 仟: "佰" };

/**
 * Two neighbouring numerals side by side say "about": 三四人 is three or four people, 十五六天 15 or 16
 * days, 二三十 20 or 30 — not 34, 16, 30. The two readings, or null when `s` holds no such pair (a
 * third numeral beside them is digits read out, 一二三四 1234).
 */
export function chineseRange(s: string): [number, number] | null {
  const chars = [...s];
  const digit = (i: number) => (i >= 0 && i < chars.length ? CN_DIGIT[chars[i] as string] : undefined);
  for (let i = 0; i + 1 < chars.length; i++) {
    const [a, b] = [digit(i), digit(i + 1)];
    if (a === undefined || b === undefined || a === 0 || b !== a + 1 || digit(i - 1) !== undefined || digit(i + 2) !== undefined) continue;
    // After a unit, the pair counts the next unit down, as it is said: 一万五六 is 15,000 or 16,000, 三千五六 3,500 or 3,600.
    const implied = i + 2 === chars.length ? (NEXT_UNIT[chars[i - 1] as string] ?? "") : "";
    const read = (d: number) => chineseNumber([...chars.slice(0, i), chars[i + (d === a ? 0 : 1)], ...chars.slice(i + 2)].join("") + implied);
    const [lo, hi] = [read(a), read(b)];
    return lo !== null && hi !== null ? [lo, hi] : null;
  }
  return null;
}

const EN_NUMBER: Record<string, number> = {
  zero: 0, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, eleven: 11, twelve: 12, thirteen: 13,
  fourteen: 14, fifteen: 15, sixteen: 16, seventeen: 17, eighteen: 18, nineteen: 19, twenty: 20, thirty: 30, forty: 40, fifty: 50,
  sixty: 60, seventy: 70, eighty: 80, ninety: 90, hundred: 100,
};
const EN_WORDS = Object.keys(EN_NUMBER).sort((a, b) => b.length - a.length).join("|");

const MULTIPLIER: Record<string, number> = { 万: 1e4, 千: 1e3, 百: 100, 亿: 1e8, k: 1e3, w: 1e4 };
const CURRENCY: Record<string, { base: string; times: number }> = {
  "¥": { base: "jiao", times: 10 },
  rmb: { base: "jiao", times: 10 },
  cny: { base: "jiao", times: 10 },
  $: { base: "usd", times: 1 },
  usd: { base: "usd", times: 1 },
  "€": { base: "eur", times: 1 },
  eur: { base: "eur", times: 1 },
  "£": { base: "gbp", times: 1 },
  gbp: { base: "gbp", times: 1 },
};
/** Words before a time of day that put it after noon. */
const AFTERNOON = /(?:下午|晚上|傍晚|夜里|夜间|中午)$/;

const NUMERAL = new RegExp(`[\\d${CN_CHARS}半]`, "u");

/** Words ending in s after a number that count no thing: verbs ("version 5 has"), and the answer's own parts ("three ways", "2 steps"). */
const NOT_COUNTED = "has|was|does|goes|says|gets|takes|makes|lets|needs|costs|plus|less|thus|always|ways|options|steps|things|reasons|kinds|types|questions|methods|parts|choices|tips|ideas|examples|times";

/**
 * An English plural noun after a number ("8 books", "nine seats"): a count, whatever is counted —
 * a bare number up to ten is a word ("step 2"), a number of things is a claim. Three letters or
 * more ending in s, in any case ("Five Books"); a unit of UNITS is read first.
 */
const NOUN = String.raw`(?!(?:${NOT_COUNTED})(?![A-Za-z]))[a-z]{2,}s(?![A-Za-z])`;

const show = (n: number): string => String(Math.round(n * 1e6) / 1e6);

const PATTERNS = new RegExp(
  [
    // A date: 2024-03-15, 2024/3/15, 2024年3月15日.
    String.raw`(?<date>(?<![\d.])\d{4}(?:[-/.]\d{1,2}[-/.]\d{1,2}|年\d{1,2}月\d{1,2}[日号]?)(?![\d.]))`,
    // A day of a month: 3月15日.
    String.raw`(?<mdate>(?<![\d.])\d{1,2}月\d{1,2}[日号])`,
    // A time of day: 9:30, 18:00.
    String.raw`(?<time>(?<![\d:])\d{1,2}:\d{2}(?![\d:]))`,
    // Arabic: an optional currency, the number (1,000.5), a multiplier, a unit. "No.100" is 100; the 5 of 1.5 is not.
    String.raw`(?<cur>[¥$€£]|(?<![A-Za-z])(?:rmb|cny|usd|eur|gbp)(?![A-Za-z]))?[ \t]?(?<num>(?<![\d,A-Za-z_]|\d\.)\d{1,15}(?:,\d{3})*(?:\.\d{1,6})?(?![\d]))(?<mul>[ \t]?[万千百亿]|[kKwW](?![A-Za-z]))?(?<more>[多余])?[ \t]?(?:(?<unit>(?:${UNITS})(?![A-Za-z]))|(?<noun>${NOUN}))?`,
    // Chinese: 百分之二十, or a numeral run (半 alone too) before a unit (a numeral alone is a word: 一起, 统一).
    String.raw`百分之(?<pct>[${CN_CHARS}]{1,12})`,
    // Not a weekday's or the lunar calendar's numeral (周五, 星期三, 礼拜天, 初五): a day, not an amount.
    String.raw`(?<![${CN_CHARS}半]|周|星期|礼拜|初)(?<cn>[${CN_CHARS}]{1,12}|半)(?<cnmore>[多余几])?(?<cnhalf>半)?(?<cnunit>个?半?(?:${UNITS}))`,
    // English words before a unit: seven days, twenty-four hours, a fortnight.
    String.raw`(?<![A-Za-z])(?<en>(?:${EN_WORDS})(?:[ -](?:${EN_WORDS}))?)[ -](?:(?<enunit>(?:${UNITS})(?![A-Za-z]))|(?<ennoun>${NOUN}))`,
    // Offers: 半价 and 对折 are 5折; 买一送一 (买1件赠1件) is its two numbers.
    String.raw`(?<halfprice>半价|对折)`,
    String.raw`买(?<buy>[\d${CN_CHARS}]{1,4})(?:件|个|份|杯|盒|瓶|张)?[送赠](?<give>[\d${CN_CHARS}]{1,4})(?:件|个|份|杯|盒|瓶|张)?`,
  ].join("|"),
  "giu",
);

/** A number of things ("8 books", "nine seats"). */
const counted = (n: number, written: string): Omit<Figure, "at"> => ({ value: show(n), unit: "count", raw: show(n), text: written });

/** A value in `unit` as the base counts it; a time of day after noon when the text says so. */
function figure(n: number, unit: string | undefined, written: string, before: string): Omit<Figure, "at"> {
  let u = unitOf(unit);
  let value = n;
  if (u?.base === "half past") (value += 0.5), (u = { base: "clock", times: 1 });
  if (u?.base === "clock" && value < 12 && (unit?.toLowerCase() === "pm" || AFTERNOON.test(before))) value += 12;
  return { value: show(u ? value * u.times : value), unit: u?.base ?? null, raw: show(n), text: written };
}

/** Every figure `text` states, in order. */
export function figures(text: string): Figure[] {
  const found: Omit<Figure, "at">[] = [];
  const out: Figure[] = [];
  for (const m of text.matchAll(PATTERNS)) {
    const start = found.length;
    const g = m.groups as Record<string, string | undefined>;
    const written = m[0].trim();
    const before = text.slice(Math.max(0, (m.index as number) - 3), m.index as number);
    if (g.date) {
      const [y, mo, d] = g.date.split(/[-/.年月日号]/).filter(Boolean).map(Number) as [number, number, number];
      found.push({ value: show(y), unit: "year", raw: show(y), text: written }, { value: show(mo), unit: "month of year", raw: show(mo), text: written }, { value: show(d), unit: "day of month", raw: show(d), text: written });
    } else if (g.mdate) {
      const [mo, d] = g.mdate.split(/[月日号]/).filter(Boolean).map(Number) as [number, number];
      found.push({ value: show(mo), unit: "month of year", raw: show(mo), text: written }, { value: show(d), unit: "day of month", raw: show(d), text: written });
    } else if (g.time) {
      const [h, min] = g.time.split(":").map(Number) as [number, number];
      const v = h + min / 60 + (h < 12 && AFTERNOON.test(before) ? 12 : 0);
      found.push({ value: show(v), unit: "clock", raw: show(v), text: written });
    } else if (g.num) {
      if (beginsWord(g.unit, text, (m.index as number) + m[0].length)) continue;
      let n = Number(g.num.replace(/,/g, ""));
      const mul = g.mul?.trim().toLowerCase();
      if (mul) n *= MULTIPLIER[mul] as number;
      const cur = g.cur ? (CURRENCY[g.cur.toLowerCase()] ?? null) : null;
      if (cur) found.push({ value: show(n * cur.times), unit: cur.base, raw: show(n), text: written });
      else if (g.noun) found.push(counted(n, written));
      else found.push(figure(n, g.unit, written, before));
    } else if (g.pct) {
      const n = chineseNumber(g.pct);
      if (n !== null) found.push({ value: show(n), unit: "%", raw: show(n), text: written });
    } else if (g.cn) {
      const unit = (g.cnunit ?? "").replace(/^个?半?/, "");
      if (beginsWord(unit, text, (m.index as number) + m[0].length)) continue;
      const single = g.cn === "半" ? 0.5 : chineseNumber(g.cn);
      const values = chineseRange(g.cn) ?? (single === null ? [] : [single]);
      // 一个半月, 两年半: a half more.
      const half = g.cnhalf || /^个?半/.test(g.cnunit ?? "") ? 0.5 : 0;
      for (const n of values) found.push(figure(n + half, unit || g.cnunit, written, before));
    } else if (g.en) {
      const n = g.en
        .toLowerCase()
        .split(/[ -]/)
        .reduce((sum, w) => (w === "hundred" ? Math.max(sum, 1) * 100 : sum + (EN_NUMBER[w] ?? 0)), 0);
      found.push(g.ennoun ? counted(n, written) : figure(n, g.enunit, written, before));
    } else if (g.halfprice) found.push({ value: "5", unit: "折", raw: "5", text: written });
    else if (g.buy && g.give) {
      const number = (x: string) => (/^\d+$/.test(x) ? Number(x) : chineseNumber(x));
      const [b, k] = [number(g.buy), number(g.give)];
      if (b !== null && k !== null) found.push({ value: `${show(b)}+${show(k)}`, unit: "offer", raw: `${show(b)}+${show(k)}`, text: written });
    }
    // Where the number starts: past any currency sign or space the match began with.
    const at = (m.index as number) + Math.max(0, m[0].search(NUMERAL));
    for (let i = start; i < found.length; i++) out.push({ ...(found[i] as Omit<Figure, "at">), at });
  }
  return out;
}
