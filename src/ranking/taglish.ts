/**
 * Tagalog's small words as Filipino followers type them between English ones ("pano mag cash in",
 * "open ba kayo pag sunday po", "di ko po natanggap ang otp"): in a Taglish text they are stop
 * words, as the English and Singapore ones are (words.ts). Alone they are not: "po", "sa" and "na"
 * are English abbreviations too ("PO boxes", the heart's "SA node", a song's "kal ho na ho" — each
 * lost its article when they were stop words everywhere, Session 32). So a text is Taglish when it
 * holds a word English never writes (pano, kayo, naman …) or two of the others.
 */

/** Tagalog words no English question writes. */
const SURE = new Set("opo pano paano magkano kayo yung ung naman nga ikaw siya namin natin nyo niyo kapag saan kailan bakit lang mga ako".split(" "));
/** Tagalog words that are also English abbreviations or other languages' words. */
const ALSO_ELSEWHERE = new Set("po ba ko mo ka na pa sa ang ng din rin pag kung ano ilan mag nag".split(" "));

/** The words `runs` (a text's runs of letters, lower case) are read without as Taglish, or null when it is not. */
export function taglishStops(runs: readonly string[]): ReadonlySet<string> | null {
  const others = new Set<string>();
  for (const r of runs) {
    if (SURE.has(r)) return TAGALOG;
    if (ALSO_ELSEWHERE.has(r)) others.add(r);
  }
  return others.size >= 2 ? TAGALOG : null;
}

const TAGALOG: ReadonlySet<string> = new Set([...SURE, ...ALSO_ELSEWHERE]);
