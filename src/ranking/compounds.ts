/**
 * An English word the account never uses, read as the two words it is made of when one article
 * holds both: a follower's "bloodwork" meets the lab article's "blood work", "halfpipe" a "half
 * pipe". Only a question's words are split (articles are filed as written), only where the whole
 * word finds nothing, and only into two words one article holds together — so an account that
 * writes "bloodwork" reads it whole, "notebook" is not a book's article and a notes' (a review), and
 * a word the account has no use for stays the rare word it is (its share counts against every
 * article: score.ts queryTerms).
 */
import { termsOf } from "./words.ts";

export const COMPOUNDS = {
  /** Letters of each part ("carpet" is no car + pet; "carpark" is lost with it), and of a word tried at most. */
  part: 4,
  longest: 24,
  /** Words of one question looked at at most, held or not: the cost of a question is bounded whatever it holds. */
  words: 8,
} as const;

/**
 * Runs of `min` to `max` Latin letters, full-width ones too, not joined to other letters, digits, an
 * apostrophe or a hyphen (a Chinese character beside one is no part of it: "bloodwork多少钱").
 */
export const latinWords = (min: number, max: number): RegExp =>
  new RegExp(`(?<![A-Za-z0-9Ａ-Ｚａ-ｚ０-９'’‘´-])[A-Za-zＡ-Ｚａ-ｚ]{${min},${max}}(?![A-Za-z0-9Ａ-Ｚａ-ｚ０-９'’‘´-])`, "gu");
const LATIN_WORD = latinWords(COMPOUNDS.part * 2, COMPOUNDS.longest);

/** What splitting reads of the account: how many articles hold a term, and whether one holds two. */
export interface CompoundSource {
  df(term: string): number;
  together(a: string, b: string): boolean;
}

/** The one term `text` is read as when it is one word the account uses, else null. */
export function usedTerm(text: string, source: CompoundSource): string | null {
  const t = termsOf(text);
  return t.length === 1 && source.df(t[0] as string) > 0 ? (t[0] as string) : null;
}

/** `word` is read as one term no article holds: not a stop word or filler ("without", "anything"), which says nothing whole or split, nor a word in use. */
export function heldByNone(word: string, source: CompoundSource): boolean {
  const whole = termsOf(word);
  return whole.length === 1 && source.df(whole[0] as string) === 0;
}

/** `text` with each word no article holds written as the two it is made of, where one article holds both; and the words so split, as written. */
export function splitCompounds(text: string, source: CompoundSource): { text: string; split: string[] } {
  let looked = 0;
  const split: string[] = [];
  const out = text.replace(LATIN_WORD, (written) => {
    if (looked >= COMPOUNDS.words) return written;
    looked++;
    const word = written.normalize("NFKC");
    if (!heldByNone(word, source)) return written;
    let best: { at: number; df: number } | null = null;
    for (let at = COMPOUNDS.part; at <= word.length - COMPOUNDS.part; at++) {
      const a = usedTerm(word.slice(0, at), source);
      const b = a === null ? null : usedTerm(word.slice(at), source);
      if (a === null || b === null || !source.together(a, b)) continue;
      // Of two ways to cut it, the one whose rarer part more articles hold: the commoner words.
      const least = Math.min(source.df(a), source.df(b));
      if (best === null || least > best.df) best = { at, df: least };
    }
    if (best === null) return written;
    split.push(written);
    return `${word.slice(0, best.at)} ${word.slice(best.at)}`;
  });
  return { text: out, split };
}
