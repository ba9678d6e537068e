/**
 * A whole message as the closed sets of cues.ts and courtesy.ts match it: lower case, full-width
 * folded (NFKC), simplified characters (words.ts folded()), spaces and punctuation gone.
 */
import { folded } from "./words.ts";

/** The last text fold() read, and what it made: a message is asked about by up to five predicates in turn. */
let lastFold = { text: "", f: "" };

/** Lower case, full-width folded (NFKC), spaces and punctuation gone. */
export function fold(text: string): string {
  if (lastFold.text === text) return lastFold.f;
  // As the ranking reads words (words.ts): 謝謝, 第二個 and 換一個 are 谢谢, 第二个 and 换一个.
  // An emoji's joiners and presentation selectors (❤️ is ❤ and U+FE0F) go with it: "…the best ❤️" had kept one.
  // So do the invisible format characters a pasted or right-to-left text carries (U+200B, U+200E, U+2060, a soft
  // hyphen: \p{Cf}, the joiner among them): "2" and "换一个" with one after them had been no pick and no "another" (a review).
  const f = folded(text).replace(/[\s\p{P}\p{S}\p{Cf}\ufe0e\ufe0f\u20e3]+/gu, " ").trim().replace(/ +/g, " ");
  lastFold = { text, f };
  return f;
}

/** fold(), an apostrophe dropped first so that a contraction reads as one word ("wasn't" as wasnt, not "wasn t"), however typed (' ’ ‘ ´). */
export const foldJoined = (text: string): string => fold(text.replace(/[\u2018\u2019\u00b4']/g, ""));
