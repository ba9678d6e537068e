/**
 * An English word the account never uses, read as the two words it is made of when the account
 * uses both: a follower's "bloodwork" meets the lab article's "blood work", "carpark" a "car park",
 * "passcode" a "pass code". Only a question's words are split (articles are filed as written), only
 * where the whole word finds nothing, and only into two words that each find something — so an
 * account that writes "bloodwork" reads it whole, and a word the account has no use for stays the
 * rare word it is (its share counts against every article: score.ts queryTerms).
 */
import { termsOf } from "./words.ts";

export const COMPOUNDS = {
  /** Letters of each part ("carpet" is no car + pet; "carpark" is lost with it), and of a word tried at most. */
  part: 4,
  longest: 24,
  /** Words of one question tried at most: the cost of a question is bounded whatever it holds. */
  words: 8,
} as const;

const LATIN_WORD = new RegExp(`(?<![\\p{L}\\p{N}'’-])[A-Za-z]{${COMPOUNDS.part * 2},${COMPOUNDS.longest}}(?![\\p{L}\\p{N}'’-])`, "gu");

/** The one term `text` is read as when it is one word the account uses, else null. */
function usedTerm(text: string, df: (term: string) => number): string | null {
  const t = termsOf(text);
  return t.length === 1 && df(t[0] as string) > 0 ? (t[0] as string) : null;
}

/** `text` with each word no article holds written as the two it is made of, where articles hold both. */
export function splitCompounds(text: string, df: (term: string) => number): string {
  let tried = 0;
  return text.replace(LATIN_WORD, (word) => {
    if (tried >= COMPOUNDS.words) return word;
    const whole = termsOf(word);
    // A stop word or filler ("without", "anything") says nothing whole or split; a word in use is read as it is.
    if (whole.length !== 1 || df(whole[0] as string) > 0) return word;
    tried++;
    let best: { at: number; df: number } | null = null;
    for (let at = COMPOUNDS.part; at <= word.length - COMPOUNDS.part; at++) {
      const a = usedTerm(word.slice(0, at), df);
      const b = a === null ? null : usedTerm(word.slice(at), df);
      if (a === null || b === null) continue;
      // Of two ways to cut it, the one whose rarer part more articles hold: the commoner words.
      const least = Math.min(df(a), df(b));
      if (best === null || least > best.df) best = { at, df: least };
    }
    return best ? `${word.slice(0, best.at)} ${word.slice(best.at)}` : word;
  });
}
