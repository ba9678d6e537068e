/** What an exact rule reads a message without (responder.ts `matching`). */
import { END_PARTICLE } from "../../ranking/end-particle.ts";

/**
 * A message without the marks a phone ends it with — sentence ends, "~", emoji, and one
 * sentence-final particle: an exact rule for 营业时间 matches 營業時間？, 營業時間呀 and "wifi!". Not "#", "+" or "%", which are words' ("C#", "C++",
 * "50%"); the patterns are not cut at all.
 */
export function withoutEnd(s: string): string {
  // From the end, a character at a time: a regex anchored at the end retries every start in a long run of "!".
  const chars = [...s];
  let end = chars.length;
  const marks = () => {
    while (end > 0 && END_MARK.test(chars[end - 1] as string)) end--;
  };
  marks();
  // One sentence-final particle too (營業時間呀, 营业时间呢), where two characters or more are left.
  if (end > 2 && END_PARTICLE.test(chars[end - 1] as string)) (end--, marks());
  return chars.slice(0, end).join("");
}
// An emoji's parts too: a skin tone (🙏🏻), the joiner of a family (👨‍👩‍👧), a flag's letters and tags (🇨🇳), a keycap (a review: "营业时间🙏🏻" had missed the rule "营业时间🙏" met).
const END_MARK = /^(?:\s|[.!?~…。！？～、，,;；:：]|\p{Extended_Pictographic}|\p{Emoji_Modifier}|\p{Regional_Indicator}|[\u{FE0F}\u{200D}\u{20E3}]|[\u{E0020}-\u{E007F}])$/u;
