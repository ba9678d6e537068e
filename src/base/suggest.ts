/** The closest of the names one could have meant, for "did you mean …?" (options, commands, fields, a document's fields). */

/** Edit distance: the names compared are short. */
function distance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) cur[j] = Math.min((prev[j] as number) + 1, (cur[j - 1] as number) + 1, (prev[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[b.length] as number;
}

/** The known name nearest `typed`, if near enough to be a slip (two edits, or a quarter of a long name); else null. */
export function nearest(typed: string, known: readonly string[]): string | null {
  const near = known.map((k) => ({ k, d: distance(typed, k) })).sort((a, b) => a.d - b.d)[0];
  return near && near.d <= Math.max(2, Math.floor(typed.length / 4)) ? near.k : null;
}

/** "; did you mean X?" when one is near, else "". */
export const didYouMean = (typed: string, known: readonly string[]): string => {
  const k = nearest(typed, known);
  return k ? `; did you mean ${k}?` : "";
};

/** A document's field it does not know, with the one it may have meant ("keyword" for keywords); a name past 64 characters is no slip. */
export const unknownField = (typed: string, known: Iterable<string>): string => `unknown field${typed.length <= 64 ? didYouMean(typed, [...known]) : ""}`;
