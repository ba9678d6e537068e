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
 * "ＡＢＣ１" is "abc1"), English plurals and -ing/-ed endings taken off (stem()).
 *
 * Filler words — the stop words of both languages and the question's own phrasing ("请问", "怎么",
 * "what is") — take no part: they are neither indexed nor looked up.
 */

import { canonicalTerms } from "./synonyms.ts";

const RUN = /\p{Script=Han}+|(?:(?!\p{Script=Han})[\p{L}\p{N}])+/gu;
const HAN = /^\p{Script=Han}/u;

/** Han characters and pairs that say nothing about a subject. */
const HAN_STOP = new Set(
  (
    "的 了 是 在 和 与 及 或 也 都 就 而 之 其 这 那 有 为 以 于 被 把 从 对 个 吗 呢 啊 吧 么 呀 哦 嘛 着 过 得 地 " +
    "什么 哪 哪个 哪些 哪里 谁 何 多少 几 怎么 怎样 如何 为什么 请问 请 是否 是什么 哪一 哪年 什 么样 怎 想 知道 问 一下 可以 能 会 " +
    "我 你 他 她 它 我们 你们 他们 您 这个 那个 这些 那些 一个 是不是 有没有 什么样 还 又 但 如果 因为 所以 应该"
  ).split(" "),
);

/** English stop words and question phrasing. */
const LATIN_STOP = new Set(
  (
    "a an the and or but if of to in on at by for with from as into about than then so is are was were be been being am do does did doing have has had " +
    "it its this that these those there here i me my we our you your he him his she her they them their what which who whom whose when where why how " +
    "can could would should will shall may might must not no yes any some all each both more most other such only own same too very just " +
    "please tell know want need get got s t"
  ).split(" "),
);

/** Plurals and -ing/-ed endings off, so that "refunds" finds "refund" and "returned" finds "return". */
export function stem(w: string): string {
  if (w.length <= 3 || /\d/.test(w)) return w;
  if (w.endsWith("ies") && w.length > 4) return w.slice(0, -3) + "y";
  if (w.endsWith("sses")) return w.slice(0, -2);
  if (w.endsWith("ss") || w.endsWith("us") || w.endsWith("is")) return w;
  if (w.endsWith("s")) return w.slice(0, -1);
  if (w.endsWith("ing") && w.length > 5) return undouble(w.slice(0, -3));
  if (w.endsWith("ed") && w.length > 4) return undouble(w.slice(0, -2));
  return w;
}

const undouble = (w: string) => (/([b-df-hj-np-tv-z])\1$/.test(w) && !/(ll|ss|zz)$/.test(w) ? w.slice(0, -1) : w);

/**
 * The terms of `text`, in order and repeated as they occur (counts matter to ranking), filler
 * words left out, the operator's synonyms applied (synonyms.ts: the one place they are).
 */
export function termsOf(text: string): string[] {
  const out: string[] = [];
  for (const m of text.normalize("NFKC").toLowerCase().matchAll(RUN)) {
    const run = m[0];
    if (!HAN.test(run)) {
      if (!LATIN_STOP.has(run)) out.push(stem(run));
      continue;
    }
    const chars = Array.from(run);
    for (let i = 0; i < chars.length; i++) {
      const c = chars[i] as string;
      if (!HAN_STOP.has(c)) out.push(c);
      if (i + 1 < chars.length) {
        const pair = c + (chars[i + 1] as string);
        if (!HAN_STOP.has(pair)) out.push(pair);
      }
    }
  }
  return canonicalTerms(out);
}

/** Each term with how often it occurs. */
export function termCounts(terms: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const t of terms) counts.set(t, (counts.get(t) ?? 0) + 1);
  return counts;
}
