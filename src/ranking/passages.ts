/**
 * An article's body cut into passages: whole sentences gathered up to about PASSAGE_CHARS, so that
 * the passage a follower is shown reads as it was written. Passages of 150, 200, 250 and 300
 * characters were compared on CMRC 2018 dev: the longer the passage, the more often the one shown
 * holds the answer (0.82, 0.85, 0.90, 0.92 with the rest unchanged) while the right article stays
 * first as often; 300 characters still fit a news reply's description and, cut down around the
 * sentence that matched, three of them fit one text reply (docs/performance.md, Session 14).
 */

/** A passage's place in its body: [start, end) in UTF-16 units. */
export interface Span {
  start: number;
  end: number;
}

export const PASSAGE_CHARS = 300;

/** Sentence ends: Chinese and Latin full stops, question and exclamation marks, semicolons, line breaks, with closing quotes. */
const SENTENCE_END = /(?:[。！？!?；;]+|\.(?=\s)|\n)[”’"'」』）)\]]*\s*/g;

/** The sentences of `text` as spans that together cover it. */
export function sentences(text: string, from = 0, to = text.length): Span[] {
  const out: Span[] = [];
  const part = text.slice(from, to);
  let last = 0;
  for (const m of part.matchAll(SENTENCE_END)) {
    const end = (m.index as number) + m[0].length;
    if (end > last) out.push({ start: from + last, end: from + end });
    last = end;
  }
  if (last < part.length) out.push({ start: from + last, end: to });
  return out;
}

/**
 * Passages of `body`. A paragraph break (a blank line) ends a passage that is already half full;
 * a shorter one (a heading, a one-line lead-in) goes on into the next paragraph, and a heading that
 * would end a passage opens the next one, with what it titles. A sentence longer
 * than a passage is cut at its last comma or space before the limit (or at the limit): no passage
 * is much longer than PASSAGE_CHARS.
 */
export function passagesOf(body: string, size = PASSAGE_CHARS): Span[] {
  const out: Span[] = [];
  let cur: Span | null = null;
  // Where the paragraph last added to `cur` starts, when it is a heading; whether the one before it was as short a line.
  let heading: number | null = null;
  let shortBefore = false;
  for (const para of paragraphs(body)) {
    if (cur && body.slice(cur.start, cur.end).trimEnd().length >= size / 2) {
      // A heading ending a passage opens the next: it titles what follows ("多久到账" then its answer
      // had been a card showing the heading alone: a service hall's walkthrough). Not a line of a run
      // of short lines, one a paragraph: a list's last item (a review).
      const split: number | null = heading !== null && heading > cur.start && !shortBefore ? heading : null;
      out.push(split === null ? cur : { start: cur.start, end: split });
      cur = split === null ? null : { start: split, end: cur.end };
    }
    const short = isHeading(body.slice(para.start, para.end));
    shortBefore = heading !== null && short;
    heading = short ? para.start : null;
    for (const s of sentences(body, para.start, para.end)) {
      for (const piece of pieces(body, s, size)) {
        if (cur && piece.end - cur.start > size) {
          out.push(cur);
          cur = null;
        }
        cur = cur ? { start: cur.start, end: piece.end } : piece;
      }
    }
  }
  if (cur) out.push(cur);
  // Blank passages (only white space) say nothing.
  return out.filter((p) => /[\p{L}\p{N}]/u.test(body.slice(p.start, p.end)));
}

const BREAK = /\n[ \t\r\f\v]*\n\s*/g;

/**
 * A paragraph that titles what follows: a line of at most 40 characters with no sentence mark
 * ("多久到账", "Fees:", "二、办理材料", "1. Fees") — not a bullet's item ("· 户口本") nor a telephone
 * number's line ("咨询电话：0571-12345678": a review).
 */
export const isHeading = (para: string): boolean => {
  const t = para.trim();
  return t.length > 0 && t.length <= 40 && !t.includes("\n") && !/^[-•·*]/.test(t) && !/\d{7,}|\d{3,4}-\d{7,8}/.test(t) && !/[。！？!?；;.]/.test(withoutNumber(t));
};

/** A heading without the number it is listed by ("二、", "1.", "3)"). */
export const withoutNumber = (line: string): string => line.replace(/^(?:\d+[.、)）]|[一二三四五六七八九十]+、)\s*/, "");

/** The paragraphs of `text`, the blank lines after each included: together they cover it. */
function paragraphs(text: string): Span[] {
  const out: Span[] = [];
  let start = 0;
  for (const m of text.matchAll(BREAK)) {
    const end = (m.index as number) + m[0].length;
    out.push({ start, end });
    start = end;
  }
  if (start < text.length) out.push({ start, end: text.length });
  return out;
}

function pieces(text: string, s: Span, size: number): Span[] {
  const out: Span[] = [];
  let start = s.start;
  while (s.end - start > size) {
    const window = text.slice(start, start + size);
    const cut = Math.max(window.lastIndexOf("，"), window.lastIndexOf(","), window.lastIndexOf(" "), window.lastIndexOf("、"));
    let end = start + (cut > size / 3 ? cut + 1 : size);
    // Never between the two halves of a character outside the BMP.
    if (end < s.end && isHighSurrogate(text.charCodeAt(end - 1))) end--;
    out.push({ start, end });
    start = end;
  }
  out.push({ start, end: s.end });
  return out;
}

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;
