import { folded, termsOf } from "../ranking/words.ts";

/**
 * A term of the ranking as the question wrote it: the ranking reads 營業 as 营业 (ranking/words.ts
 * `folded`), and an operator of a traditional-character account who asked 營業時間 should read 營業
 * among the terms `replyd ask` prints. The term as it is when the question does not hold it so
 * (a synonym's); a stem as the word it was read from (stemmedFrom).
 */
export function asTyped(term: string, question: string): string {
  // A Latin term is a whole word of the question, its stem or not ("chang" had been printed of "change").
  const word = stemmedFrom(term, question);
  if (word !== undefined) return word;
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

/**
 * The word of the question a stem was read from ("boy" of boi, "apply" of appl, "change" of chang):
 * a theatre's operator had been told "not held boi" and to make it a synonym. The first word whose
 * own terms hold it; none when no single word does.
 */
function stemmedFrom(term: string, question: string): string | undefined {
  if (/\p{Script=Han}/u.test(term)) return undefined;
  // Not across a hyphen: "wi-fi" is read as wi and fi, each printed so (a review).
  return question.match(/[\p{L}\p{N}'’]+/gu)?.find((w) => !/\p{Script=Han}/u.test(w) && termsOf(w).includes(term));
}
