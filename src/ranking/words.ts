/**
 * The words that answers are ranked on (docs/answers.md "How articles are ranked").
 *
 * Chinese is written without spaces, so a run of Han characters gives its single characters and
 * every pair of neighbours: "退款期限" → 退 款 期 限 退款 款期 期限. Measured on CMRC 2018 dev
 * (docs/performance.md, Session 14) this ranked the right article first and showed the passage that
 * holds the answer more often than jieba's dictionary words (@node-rs/jieba and jieba-wasm alike),
 * Intl.Segmenter's words, bigrams alone, or jieba's words with the pairs added; and it needs no
 * dictionary, so an account's own names ("回南天", a product's name) are never cut wrong.
 * Other scripts: runs of letters and digits, folded to lower case (NFKC first, so full-width
 * "ＡＢＣ１" is "abc1"), English words to their stem (stem.ts).
 *
 * Filler takes no part: it is neither indexed nor looked up. The stop words of both languages
 * (stop-words.ts) and a pair of two Han stop characters (的还, 还能), and the phrasing of questions found in the evaluation data (filler-words.ts, made by
 * bench/eval/filler.ts): "how", "does", 什么时候, 多少钱, 哪个. In a Han run a filler word is cut
 * out whole and the pairs reaching into it go with it: "回扣怎么做账" gives 回扣 and 做账, not the
 * 扣怎 and 么做 that no article means.
 */

import { TRADITIONAL_PAIRS } from "./traditional-chars.ts";
import { memoized } from "./memo.ts";
import { stemWord } from "./stem.ts";
import { taglishStops } from "./taglish.ts";
import { canonicalTerms, groupedTerms, synonymCover } from "./synonyms.ts";
import { country, joinedForms } from "./latin-forms.ts";
import { daysWithin, hanWeekdays, weekdayAt, weekendOf } from "./weekdays.ts";
import { joinedSplitVerbs } from "./split-verbs.ts";
import { expanded } from "./abbreviations.ts";
import { CONTRACTED, FILLER_FIRST, FILLER_H, FILLER_L, FILLER_MAX, HAN_STOP, LATIN_STOP, TYPED_FOR_I } from "./stop-words.ts";

/**
 * Two spellings of one word in everyday Chinese, read as one (the second): the older 帐 of 账户, 账号,
 * 账单 and of 结账, 转账, 到账 — DuReader's pages write 帐户 and 帐号 79 times to 账户 and 账号's 348.
 * Each is replaced by one of its own length, so a text's places do not move; an article's text and a
 * question are read alike. Only spellings whose pair is that word wherever it stands (a 帐 ending one
 * is not the start of 帐篷, "tent"); not 登陆 for 登录 (登陆 is also "land", "launch on"), nor 定单 (指定单品)
 * or 笔划 (这笔划算), whose pairs straddle other words (docs/performance.md Session 25).
 */
const SPELLINGS: Readonly<Record<string, string>> = {
  帐户: "账户", 帐号: "账号", 帐单: "账单", 结帐: "结账", 转帐: "转账", 到帐: "到账", 记帐: "记账", 对帐: "对账",
};
const SPELLING = new RegExp(Object.keys(SPELLINGS).map((w) => (w.endsWith("帐") ? `${w}(?!篷)` : w)).join("|"), "gu");

/**
 * Traditional characters read as their simplified ones (traditional-chars.ts, from OpenCC's tables):
 * a Hong Kong or Taiwan follower's 貓咪絕育要幾錢 meets an article's 猫咪绝育, and a traditional
 * account's articles a follower's simplified question. Each is one of its own length, as SPELLINGS'.
 */
const TRADITIONAL = new Map<string, string>();
for (let i = 0; i + 1 < TRADITIONAL_PAIRS.length; i += 2) TRADITIONAL.set(TRADITIONAL_PAIRS[i] as string, TRADITIONAL_PAIRS[i + 1] as string);
const TRADITIONAL_CHAR = new RegExp(`[${[...TRADITIONAL.keys()].join("")}]`, "gu");

/** A text as its words are read: NFKC, lower case, simplified characters, one spelling of each word in SPELLINGS, one apostrophe. */
export const folded = (text: string): string =>
  text
    .normalize("NFKC")
    .toLowerCase()
    .replace(TRADITIONAL_CHAR, (c) => TRADITIONAL.get(c) as string)
    .replace(SPELLING, (w) => SPELLINGS[w] as string)
    // An iPhone's apostrophe (’) is the keyboard's: "what’s on" meets a rule for "what's on" (a walkthrough).
    .replace(/[\u2018\u2019\u02bc]/g, "'");

const RUN = /\p{Script=Han}+|(?:(?!\p{Script=Han})[\p{L}\p{N}])+/gu;
/** The runs of words and of Han characters a text is read in: folded, with Latin words as latin-forms.ts writes them ("US", "x-ray", "I-20"). */
const runsOf = (text: string) => {
  const read = joinedForms(folded(country(text)));
  return { read, runs: [...read.matchAll(RUN)] };
};
const APOSTROPHE = /['\u2018\u2019]/u;
const HAN = /^\p{Script=Han}/u;
/** Zhuyin letters, which Taiwan's phones type for a particle (破掉了ㄌ, 好ㄉ): no word of any article, it had counted against every one. */
const ZHUYIN = /^\p{Script=Bopomofo}+$/u;

/**
 * The terms of `text`, in order and repeated as they occur (counts matter to ranking), filler
 * words left out, the operator's synonyms applied (synonyms.ts: the one place they are).
 */
export function termsOf(text: string): string[] {
  return canonicalTerms(ownTerms(text));
}

/**
 * The terms of an article's text (its head, a passage): termsOf's, the days inside a span it writes
 * ("Mon–Fri", 周一至周五: weekdays.ts daysWithin), and the weekend's after Saturday's and Sunday's
 * (weekdays.ts), so that a follower's 周末 or "weekend" finds the hours an article writes 周六、周日 or
 * "Sat … Sun …", and their Wednesday the prices of "Monday to Thursday". Not a question's: its 周六 is that day, not a weekend article's (a review
 * found "kids club on saturday" listing weekend breaks and Sunday school).
 */
export function articleTermsOf(text: string): string[] {
  // The days inside a span it writes ("Monday to Thursday", 周一至周五) are its terms too (weekdays.ts daysWithin).
  const own = [...ownTerms(text), ...daysWithin(text)];
  // After the text's own terms, not among them: an operator's synonym phrase ("sunday service") is
  // matched on the terms as written, and one naming the weekend (周末, 双休日) meets these too. Every
  // passage of every candidate is read so: nothing is made for a text that names no weekend day.
  let weekend: string[] | null = null;
  for (const t of own) {
    const w = weekendOf(t);
    if (w !== undefined) (weekend ??= []).push(...weekendTerms(w));
  }
  return canonicalTerms(weekend ? [...own, ...weekend] : own);
}

/** The weekend as its terms are read (周末: 周, 周末, 末 — what a synonym phrase 周末 is matched on), once each. */
const weekendTerms = memoized(4, (weekend): string[] => (/\p{Script=Han}/u.test(weekend) ? ownTerms(weekend) : [weekend]));

/**
 * The terms of `text` with each of the operator's synonym phrases as its group's term alone: what
 * two phrasings that say the same share ("转人工", "转客服"), where termsOf keeps each one's words.
 */
export function meaningTerms(text: string): string[] {
  return groupedTerms(ownTerms(text));
}

/** Two Latin words or more besides "im" or "ive", and no small letter: a message typed in capitals. */
const shouted = (text: string): boolean => {
  const words = text.normalize("NFKC").match(/[A-Za-z]+/g) ?? [];
  return words.filter((w) => !TYPED_FOR_I.has(w.toLowerCase())).length >= 2 && !words.some((w) => /[a-z]/.test(w));
};

/**
 * The runs `text` is read in, each Latin one as the word it is ranked on (its stem) or null where it
 * says nothing (a stop word, Taglish's small words in a Taglish text, filler): what termsOf and
 * placesOf both read.
 */
function readRuns(text: string): { run: string; word: string | null }[] {
  const { read, runs: matches } = runsOf(text);
  const runs = matches.map((m) => m[0]);
  const taglish = taglishStops(runs);
  // A piece of a contraction, split by its apostrophe: "don" of "don't", "re" of "they're".
  const contracted = (i: number) => {
    const at = matches[i]?.index ?? 0;
    const run = runs[i] as string;
    if (CONTRACTED.endings.has(run)) return APOSTROPHE.test(read[at - 1] ?? "");
    return CONTRACTED.negations.has(run) && APOSTROPHE.test(read[at + run.length] ?? "") && runs[i + 1] === "t";
  };
  // "im" or "ive" is "I'm" or "I've" unless written in capitals somewhere in the text (IM, IVE) —
  // not in a message all in capitals ("IM LOCKED OUT OF MY ACCOUNT": a review).
  // Read once a text, not once a run ("ive " 7,500 times: 9 s, a review).
  const asI = new Map<string, boolean>();
  let loud: boolean | undefined;
  const typedForI = (run: string) => {
    if (!TYPED_FOR_I.has(run)) return false;
    let known = asI.get(run);
    if (known === undefined) {
      loud ??= shouted(text);
      known = loud || !new RegExp(`(?<![A-Za-z0-9])${run.toUpperCase()}(?![A-Za-z0-9])`).test(text.normalize("NFKC"));
      asI.set(run, known);
    }
    return known;
  };
  return runs.map((run, i) => {
    // A Han run as its words are read: each weekday 周X (weekdays.ts), 洗个车 as 洗车 (split-verbs.ts); the text itself is left as written.
    if (HAN.test(run)) return { run: joinedSplitVerbs(hanWeekdays(run)), word: null };
    if (LATIN_STOP.has(run) || taglish?.has(run) || ZHUYIN.test(run) || contracted(i) || typedForI(run)) return { run, word: null };
    const w = stemWord(weekdayAt(runs, i) ?? expanded(run) ?? run);
    return { run, word: FILLER_L.has(w) ? null : w };
  });
}

/** A pair that says nothing: a stop word, or two stop characters side by side (的还, 还能 of "一年前的还能开吗"). */
const stopPair = (a: string, b: string): boolean => HAN_STOP.has(a + b) || (HAN_STOP.has(a) && HAN_STOP.has(b));

/** The terms of `text` before the operator's synonyms. */
function ownTerms(text: string): string[] {
  const out: string[] = [];
  for (const { run, word } of readRuns(text)) {
    if (!HAN.test(run)) {
      if (word !== null) out.push(word);
      continue;
    }
    const chars = Array.from(run);
    const filler = fillerMarks(chars);
    for (let i = 0; i < chars.length; i++) {
      const c = chars[i] as string;
      if (!HAN_STOP.has(c) && !filler?.[i]) out.push(c);
      if (i + 1 < chars.length) {
        const next = chars[i + 1] as string;
        if (!stopPair(c, next) && !filler?.[i] && !filler?.[i + 1]) out.push(c + next);
      }
    }
  }
  return out;
}

/**
 * The places of `text` that say what it asks, for the share of a question an article holds
 * (score.ts): each word of other scripts, held when the article holds it; each Han character
 * outside filler, held when the article holds a pair of the question's that it is part of — or the
 * character itself, where it stands alone between filler. Pairs that straddle two words
 * ("手机上看" gives 机上 and 上看) are no place of their own: they would count a question's
 * sentence against every article, however well it answers.
 */
export function placesOf(text: string): { term: string; by: string[] }[] {
  // The terms as termsOf() reads them before synonyms, and for each place where its own term and
  // its pairs stand among them: an operator's synonym covering one of those holds the place too.
  const raw: string[] = [];
  const places: { term: string; by: string[]; at: number[] }[] = [];
  for (const { run, word } of readRuns(text)) {
    if (!HAN.test(run)) {
      if (word === null) continue;
      raw.push(word);
      places.push({ term: word, by: [word], at: [raw.length - 1] });
      continue;
    }
    const chars = Array.from(run);
    const filler = fillerMarks(chars);
    const pair = (i: number) => {
      if (i < 0 || i + 1 >= chars.length || filler?.[i] || filler?.[i + 1]) return null;
      return stopPair(chars[i] as string, chars[i + 1] as string) ? null : (chars[i] as string) + (chars[i + 1] as string);
    };
    const charAt: (number | undefined)[] = [];
    const pairAt: (number | undefined)[] = [];
    for (let i = 0; i < chars.length; i++) {
      const c = chars[i] as string;
      if (!HAN_STOP.has(c) && !filler?.[i]) charAt[i] = raw.push(c) - 1;
      const p = pair(i);
      if (p !== null) pairAt[i] = raw.push(p) - 1;
    }
    for (let i = 0; i < chars.length; i++) {
      const c = chars[i] as string;
      if (filler?.[i] || HAN_STOP.has(c)) continue;
      const by = [pair(i - 1), pair(i)].filter((p): p is string => p !== null);
      const at = [charAt[i], pairAt[i - 1], pairAt[i]].filter((k): k is number => k !== undefined);
      places.push({ term: c, by: by.length ? by : [c], at });
    }
  }
  const cover = synonymCover(raw);
  return places.map(({ term, by, at }) => {
    const groups = cover ? at.map((k) => cover[k]).filter((g): g is string => g !== undefined) : [];
    return { term, by: groups.length ? [...new Set([...by, ...groups])] : by };
  });
}

/**
 * Which characters of a Han run belong to filler: the longest filler word at each place, left to
 * right; null when none does (most runs: no character a filler word starts with).
 */
function fillerMarks(chars: readonly string[]): boolean[] | null {
  let marks: boolean[] | null = null;
  for (let i = 0; i < chars.length; ) {
    if (!FILLER_FIRST.has(chars[i] as string)) {
      i++;
      continue;
    }
    let n = Math.min(FILLER_MAX, chars.length - i);
    while (n > 0 && !FILLER_H.has(chars.slice(i, i + n).join(""))) n--;
    if (n === 0) {
      i++;
      continue;
    }
    marks ??= chars.map(() => false);
    for (let k = i; k < i + n; k++) marks[k] = true;
    i += n;
  }
  return marks;
}

/** Each term with how often it occurs; with `wanted`, only those of them. */
export function termCounts(terms: readonly string[], wanted?: ReadonlySet<string>): Map<string, number> {
  const counts = new Map<string, number>();
  for (const t of terms) if (wanted === undefined || wanted.has(t)) counts.set(t, (counts.get(t) ?? 0) + 1);
  return counts;
}
