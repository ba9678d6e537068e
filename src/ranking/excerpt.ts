/** What of a passage a follower is shown: cut down for a list entry, or from its answering paragraph on a card (docs/answers.md "What followers get"). */
import { passageScore, type QueryTerm } from "./bm25.ts";
import { sentences, type Span } from "./passages.ts";
import { utf8Prefix } from "../base/utf8.ts";
import { once } from "../base/once.ts";
import { termsOf } from "./words.ts";
import { PRICE, withoutPriceWords } from "./price.ts";

/** A passage's sentences, and which of them answers: read once for the excerpt and the card (rank.ts). */
export interface Answering {
  parts: Span[];
  at: number;
}

/**
 * The sentence of the passage at `span` that holds most of the question — each of its words once,
 * the first such sentence on a tie (every sentence as if of the average length: not which is
 * shortest; not which repeats a word most: "签订《装修管理协议》，缴纳装修保证金…装修垃圾清运费" said 装修
 * three times and had been shown under 装修要办什么手续, not "办理装修申报，需携带：…" — a property
 * manager's walkthrough; Session 35: CMRC's passage shown 0.858 → 0.865); asked what it costs (`priced`), one
 * with a price before any without (a list's entry had cut "收费：换领每证20元" off after 要钱吗: a
 * service hall's walkthrough).
 */
export function answeringSentence(text: string, span: Span, q: readonly QueryTerm[], priced = false): Answering {
  const parts = sentences(text, span.start, span.end);
  // Asked what it costs: the sentences holding a price are told apart by what is priced, not by the asking words.
  const what = priced ? withoutPriceWords(q) : q;
  const scores = parts.map((s) => passageScore(what, new Map([...new Set(termsOf(text.slice(s.start, s.end)))].map((t) => [t, 1])), 1, 1));
  const withPrice = priced ? parts.map((s) => PRICE.test(text.slice(s.start, s.end))) : [];
  const first = (i: number) => withPrice[i] === true;
  let at = 0;
  for (let i = 1; i < parts.length; i++) if ((first(i) && !first(at)) || (first(i) === first(at) && (scores[i] as number) > (scores[at] as number))) at = i;
  return { parts, at };
}

/** The passage's sentences, its first the one shown first (an opening: shown-passage.ts) — none scored. */
export const openingSentence = (text: string, span: Span): Answering => ({ parts: sentences(text, span.start, span.end), at: 0 });

/** A passage cut down to `maxBytes` of UTF-8 around its answering sentence, with "…" where it was cut. */
export function excerpt(text: string, span: Span, q: readonly QueryTerm[], maxBytes: number, priced = false, answering = once(() => answeringSentence(text, span, q, priced))): string {
  const whole = text.slice(span.start, span.end).trim();
  if (Buffer.byteLength(whole) <= maxBytes) return whole;
  const { parts, at } = answering();
  let lo = at;
  let hi = at;
  const size = (a: number, b: number) => Buffer.byteLength(text.slice((parts[a] as Span).start, (parts[b] as Span).end).trim()) + 6;
  for (;;) {
    if (hi + 1 < parts.length && size(lo, hi + 1) <= maxBytes) hi++;
    else if (lo > 0 && size(lo - 1, hi) <= maxBytes) lo--;
    else break;
  }
  const kept = text.slice((parts[lo] as Span).start, (parts[hi] as Span).end).trim();
  const out = Buffer.byteLength(kept) + 6 > maxBytes ? utf8Prefix(kept, maxBytes - 6) : kept;
  return `${lo > 0 ? "…" : ""}${out}${hi < parts.length - 1 || out !== kept ? "…" : ""}`;
}

const PARAGRAPH_BREAK = /\n[ \t\r\f\v]*\n\s*/g;
const HAS_BREAK = /\n[ \t\r\f\v]*\n/;
const SENTENCE_MARK = /[。！？!?；;.]/;
/** A paragraph that leads into what follows: it ends with a colon, or is an item of a list ("1.", "2、", "•", "一、"). */
const LEADS_IN = /[:：]\s*$/;
const ITEM = /^\s*(?:\d{1,2}[.、)）]|[-•·*]|[一二三四五六七八九十]+、)/;

/**
 * The passage a card shows, from the paragraph holding its answering sentence: a short paragraph of
 * text before it (passages.ts joins one to the next) is left out; a heading (no sentence mark), a
 * paragraph that leads into it (ending with a colon) and the list's earlier items are kept. A phone
 * shows a card's first lines: 猫吐血了 got the vomiting article opening on "偶尔吐一次…观察一天" (watch
 * at home), its "吐血…要马上来医院" a paragraph further (a pet hospital's walkthrough); written as a
 * list, "出现下面任何一种情况，要马上来医院：" stays above its items (a review).
 */
export function cardPassage(text: string, span: Span, q: readonly QueryTerm[], priced = false, answering = once(() => answeringSentence(text, span, q, priced))): string {
  const whole = text.slice(span.start, span.end);
  if (!HAS_BREAK.test(whole)) return whole.trim();
  const { parts, at } = answering();
  const answers = (parts[at] as Span).start;
  // Where each paragraph before the answering one starts.
  const starts = [span.start, ...[...text.slice(span.start, answers).matchAll(PARAGRAPH_BREAK)].map((m) => span.start + (m.index as number) + m[0].length)];
  let k = 0;
  for (let i = 1; i < starts.length; i++) if (SENTENCE_MARK.test(text.slice(starts[k] as number, starts[i] as number))) k = i;
  // Back over the paragraphs that lead into it: a list's items, and what introduces them.
  while (k > 0) {
    const before = text.slice(starts[k - 1] as number, starts[k] as number).trim();
    const here = text.slice(starts[k] as number, span.end).trimStart();
    if (!(LEADS_IN.test(before) || (ITEM.test(before) && ITEM.test(here)))) break;
    k--;
  }
  return text.slice(starts[k] as number, span.end).trim();
}
