/**
 * The short-word index. The trigram index cannot find words shorter than three characters, and
 * two-character words are the common case in Chinese ("春节", "退款"). Titles and keywords are
 * also indexed as their character bigrams (and single non-ASCII characters, so that one Chinese
 * character finds something): a word of one or two characters is then one token's lookup, not a
 * scan. A single Latin letter or digit is not indexed: as a search word it says nothing.
 *
 * Tokens are runs of letters and digits (as SQLite's unicode61 tokenizer reads them), lower-cased;
 * bigrams do not span spaces or punctuation.
 */

const RUN = /[\p{L}\p{N}]+/gu;

function addGrams(run: string, into: Set<string>): void {
  const chars = Array.from(run);
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i] as string;
    if (c.charCodeAt(0) > 0x7f) into.add(c);
    if (i + 1 < chars.length) into.add(c + (chars[i + 1] as string));
  }
}

/** The tokens of `text` for the short-word index, space-separated (each at most once). */
export function gramsOf(text: string): string {
  const grams = new Set<string>();
  for (const run of text.toLowerCase().match(RUN) ?? []) addGrams(run, grams);
  return [...grams].join(" ");
}

/** The tokens an article must have for `term` to occur in its title or keywords (none: not searchable this way). */
export function termGrams(term: string): string[] {
  const grams = new Set<string>();
  for (const run of term.toLowerCase().match(RUN) ?? []) addGrams(run, grams);
  return [...grams];
}
