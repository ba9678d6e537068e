/**
 * Which passages of a candidate are scored exactly (docs/answers.md "Bounded"). Cutting a passage
 * into terms and counting them is what scoring costs (about 70 µs for 300 Han characters); a 64 KiB
 * body is ~75 passages, and forty such articles sharing the question's pairs made one question
 * cost ~90 ms on the worker (docs/performance.md, Session 16). So an article is scored on at most
 * SCORED_PASSAGES of its passages: all of them when it has no more (every article of the evaluation
 * sets: the longest has 17, so their scores are unchanged), else those where the question's words
 * weigh most, found by a plain substring search that counts nothing.
 */
import type { Span } from "./passages.ts";
import type { QueryTerm } from "./bm25.ts";
import { folded } from "./words.ts";

/** Passages of one article scored exactly; each is at most PASSAGE_CHARS characters, so at most 7,200 characters in all. */
export const SCORED_PASSAGES = 24;

/**
 * The passages of `text` (its `spans`, in order) to score for `q`, in order: all of them up to
 * SCORED_PASSAGES, else the SCORED_PASSAGES holding the most of the question's weight (the idf of
 * the terms found in each, as written after NFKC and lower case), the earlier first among equals.
 */
export function scoredSpans(text: string, spans: readonly Span[], q: readonly QueryTerm[]): readonly Span[] {
  if (spans.length <= SCORED_PASSAGES) return spans;
  // Only terms some article holds can be found. Porter's stem of a word is a prefix of it but for
  // a final y turned i ("polici" of "policy"): it is looked for without that last letter.
  const looked = q.filter((t) => t.known).map((t) => ({ needle: /^[a-z]{4,}$/.test(t.term) ? t.term.replace(/i$/, "") : t.term, idf: t.idf }));
  // Folded once for the whole text when that keeps its length (the passages' places with it), else passage by passage.
  const whole = folded(text);
  const fold = whole.length === text.length ? (s: Span) => whole.slice(s.start, s.end) : (s: Span) => folded(text.slice(s.start, s.end));
  return spans
    .map((span, i) => {
      const read = fold(span);
      let weight = 0;
      for (const t of looked) if (read.includes(t.needle)) weight += t.idf;
      return { span, i, weight };
    })
    .sort((a, b) => b.weight - a.weight || a.i - b.i)
    .slice(0, SCORED_PASSAGES)
    .sort((a, b) => a.i - b.i)
    .map((x) => x.span);
}
