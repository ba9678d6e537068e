/**
 * A title the question writes out whole (docs/answers.md "How articles are ranked"): most of the
 * CMRC 2018 dev questions the ranking once put second named their article's exact title beside a
 * longer one holding it ("前肛鳗的体长是多少？" against 异齿前肛鳗); such an article scores
 * RANKING.titleBoost more (bm25.ts); one of whose keywords it writes out, RANKING.keywordBoost.
 */
import { memoized } from "./memo.ts";
import { folded, termsOf } from "./words.ts";

/** Text as titles are looked for in a question: as its words are read (NFKC, lower case, one spelling of a word: words.ts), spaces folded. */
export const titleForm = (s: string) => folded(s).replace(/\s+/g, " ").trim();

/**
 * Whether `question` (in titleForm) writes out the article's title whole — "前肛鳗的体长是多少？"
 * names 前肛鳗, not 异齿前肛鳗 — its qualifier in brackets left off ("大曲车站 (秋田县)" is named
 * by "大曲车站"). A title of one character names nothing; a Latin one only as whole words.
 */
export function namesTitle(question: string, title: string): boolean {
  const t = titleForm(title.replace(/\s*[(（][^()（）]*[)）]\s*$/, ""));
  if ([...t].length < 2) return false;
  let at = question.indexOf(t);
  while (at >= 0) {
    const before = question[at - 1] ?? " ";
    const after = question[at + t.length] ?? " ";
    const latinEdge = (c: string, inner: string | undefined) => /[\p{L}\p{N}]/u.test(c) && /[a-z0-9]/.test(inner ?? "") && !/\p{Script=Han}/u.test(c);
    if (!latinEdge(before, t[0]) && !latinEdge(after, t[t.length - 1])) return true;
    at = question.indexOf(t, at + 1);
  }
  return false;
}

/** An article's keywords as the index's keyword text holds them (store/rows.ts keywordText: joined by U+001F, JSON-escaped where one held a quote or a backslash), as written. */
export function keywordsOf(stored: string): string[] {
  return stored ? stored.split("\u001f").map(unescaped) : [];
}

function unescaped(k: string): string {
  if (!k.includes("\\")) return k;
  try {
    return JSON.parse(`"${k}"`) as string;
  } catch {
    return k;
  }
}

/** A keyword that names something: a word the ranking reads, a pair of characters or a Latin word — not stop words or filler alone ("it", 怎么办 read as 办). */
const names = memoized(20_000, (keyword) => [...keyword].length >= 2 && termsOf(keyword).some((t) => [...t].length >= 2 || (/[\p{L}\p{N}]/u.test(t) && !/\p{Script=Han}/u.test(t))));

/** Whether `question` (in titleForm) writes out one of `keywords` (as stored: keywordsOf) whole — of two characters or more, holding a word the ranking reads. */
export function namesKeyword(question: string, keywords: string): boolean {
  for (const k of keywordsOf(keywords)) if (names(k) && namesTitle(question, k)) return true;
  return false;
}
