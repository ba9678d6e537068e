/**
 * How a few Latin words are written and read as the ranking reads them (words.ts runsOf): the
 * country written "US", and words joined by a hyphen ("x-ray", "I-20"). Only the terms change:
 * words.ts `folded`, the key rules, taught questions and titles are compared by, reads every "us" alike.
 */

/**
 * "US" and "U.S." in capitals, the country, read as "usa": lower-cased it was "us", the word every
 * "contact us" holds, and "Do you ship to the US?" had been asked on "ship" — the UK delivery article
 * sent as sure (a walkthrough's shop). Only beside a word with a small letter or a Han character
 * ("work in US", "US签证"): in a line of capitals ("CONTACT US") it is the pronoun. Not the currency
 * ("US$", "US dollars", which a price list writes).
 */
const US = /(?<![\p{Script=Latin}\p{N}.])U\.?S\.?(?![\p{Script=Latin}\p{N}$])/gu;
const WORD_BEFORE = /(\p{L}+)[^\p{L}]*$/u;
const WORD_AFTER = /^[^\p{L}]*(\p{L}+)/u;
const SMALL = /[\p{Ll}\p{Script=Han}]/u;
const CURRENCY = /^(?:dollars?|cents?)$/i;

export const country = (text: string): string =>
  text.includes("US") || text.includes("U.S")
    ? text.replace(US, (m: string, at: number) => {
        const before = WORD_BEFORE.exec(text.slice(Math.max(0, at - 40), at))?.[1];
        const after = WORD_AFTER.exec(text.slice(at + m.length, at + m.length + 40))?.[1];
        if (after !== undefined && CURRENCY.test(after)) return m;
        return (before !== undefined && SMALL.test(before)) || (after !== undefined && SMALL.test(after)) ? "USA" : m;
      })
    : text;

/**
 * A single letter joined by a hyphen is one word with what follows ("x-ray" is xray, "e-mail"
 * email): read apart, "x-ray can do?" was asked on "x" and "rai", and an article mentioning a chest
 * X-ray referral held all of it. A letter joined to a number is that word and its parts ("I-20" is
 * i20 and 20, "F-1" f1, f and 1): "I-20" had been asked on "20" alone (its "i" a stop word), and an
 * article saying "up to 20 hours" held all of it (a walkthrough's language school); joined alone,
 * NQ's "ford f 150" no longer met "F-150". Not two letters to two ("wi-fi"): that cost our English
 * FAQ's held-out half and NQ a right answer first each, by the lengths it changed (Session 34).
 */
const HYPHENED = /(?<![a-z0-9])([a-z])-(?=[a-z])/g;
const LETTER_NUMBER = /(?<![a-z0-9])([a-z])-([0-9][a-z0-9]*)/g;

/**
 * "one" standing for what was named ("the Tanjong Pagar one?", "which one is nearest"): Porter reads
 * it as "on" and it found whatever article said "on" (a co-working space's walkthrough). Only
 * closing a message or a sentence, or after "which": "one day pass", "one-way", "one more" keep it.
 * Read so in articles too ("…pick one."). Session 35: every set the same but our English FAQ's
 * held-out half, one wrong list now the fallback, two lists reordered.
 */
// Bounded runs between "one" and the sentence's end: with open ones, "one" and 40,000 spaces took a second (a review).
// A line's end closes a sentence too ("how do i get a new one\nmy bin was stolen": Porter's "on" had stayed, a review).
const PRONOUN_ONE = /\b(?:(which)[ \t]{1,4}one\b|one(?=[ \t]{0,4}[?!.,;:)]{0,4}[ \t]{0,4}(?:$|\r?\n|[?!.][ \t\n])))/g;

/** Apple's "OS X" (and "OS-X") as one word, which abbreviations.ts reads as "mac" (a review: apart, "os" and "x"). */
const OS_X = /(?<![a-z0-9])os[ -]x(?![a-z0-9])/g;

/** `text` folded (words.ts), its hyphened words as they are read. */
export const joinedForms = (text: string): string => {
  const joined = text.replace(OS_X, "osx").replace(HYPHENED, "$1").replace(LETTER_NUMBER, "$1$2 $1 $2");
  return joined.includes("one") ? joined.replace(PRONOUN_ONE, (_m, which?: string) => which ?? "") : joined;
};
