/** A passage cut down to fit a list entry (docs/answers.md "What followers get"). */
import { passageScore, type QueryTerm } from "./bm25.ts";
import { sentences, type Span } from "./passages.ts";
import { utf8Prefix } from "../base/utf8.ts";
import { termCounts, termsOf } from "./words.ts";
import { PRICE } from "./price.ts";

/**
 * A passage cut down to `maxBytes` of UTF-8 around its sentence that holds most of the question,
 * with "…" where it was cut; asked what something costs (`priced`), around its sentence with a
 * price, when it has one (a list's entry had cut "收费：换领每证20元" off after 要钱吗: a service hall's walkthrough).
 */
export function excerpt(text: string, span: Span, q: readonly QueryTerm[], maxBytes: number, priced = false): string {
  const whole = text.slice(span.start, span.end).trim();
  if (Buffer.byteLength(whole) <= maxBytes) return whole;
  const parts = sentences(text, span.start, span.end);
  const at = bestSentence(text, parts, q, priced);
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

/** Which of `parts` holds most of the question (every sentence as if of the average length: not which is shortest); asked what it costs, one with a price before any without. */
function bestSentence(text: string, parts: readonly Span[], q: readonly QueryTerm[], priced: boolean): number {
  const scores = parts.map((s) => passageScore(q, termCounts(termsOf(text.slice(s.start, s.end))), 1, 1));
  const withPrice = priced ? parts.map((s) => PRICE.test(text.slice(s.start, s.end))) : [];
  const first = (i: number) => withPrice[i] === true;
  let at = 0;
  for (let i = 1; i < parts.length; i++) if ((first(i) && !first(at)) || (first(i) === first(at) && (scores[i] as number) > (scores[at] as number))) at = i;
  return at;
}

const PARAGRAPH_BREAK = /\n[ \t\r\f\v]*\n\s*/g;
const SENTENCE_MARK = /[。！？!?；;.]/;

/**
 * The passage a card shows, from the paragraph holding its sentence that answers: a short paragraph
 * of text before it (passages.ts joins one to the next) is left out, a heading (no sentence mark) is
 * kept. A phone shows a card's first lines: 猫吐血了 got the vomiting article opening on "偶尔吐一次…
 * 观察一天" (watch at home), its "吐血…要马上来医院" a paragraph further (a pet hospital's walkthrough).
 */
export function cardPassage(text: string, span: Span, q: readonly QueryTerm[], priced = false): string {
  const parts = sentences(text, span.start, span.end);
  if (parts.length < 2) return text.slice(span.start, span.end).trim();
  const answering = (parts[bestSentence(text, parts, q, priced)] as Span).start;
  let from = span.start;
  for (const m of text.slice(span.start, answering).matchAll(PARAGRAPH_BREAK)) {
    const at = span.start + (m.index as number) + m[0].length;
    if (SENTENCE_MARK.test(text.slice(from, at))) from = at;
  }
  return text.slice(from, span.end).trim();
}
