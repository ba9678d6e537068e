import { folded } from "../ranking/words.ts";

/**
 * A term of the ranking as the question wrote it: the ranking reads 營業 as 营业 (ranking/words.ts
 * `folded`), and an operator of a traditional-character account who asked 營業時間 should read 營業
 * among the terms `replyd ask` prints. The term as it is when the question does not hold it so
 * (a synonym's, a stem).
 */
export function asTyped(term: string, question: string): string {
  const chars = [...question];
  // Each character of the question folded on its own, with where it starts in the folded text.
  let text = "";
  const starts: number[] = [];
  for (const c of chars) {
    starts.push(text.length);
    text += folded(c);
  }
  const at = text.indexOf(term);
  if (at < 0) return term;
  starts.push(text.length);
  const first = starts.indexOf(at);
  const end = starts.indexOf(at + term.length);
  // A term starting or ending inside one character's folding ("㎏" is "kg") is shown as the ranking reads it.
  return first < 0 || end < 0 ? term : chars.slice(first, end).join("");
}
