/**
 * A follower's message or a taught question as the two are compared (wechat/answering/taught.ts,
 * the deleted articles' questions in store/model/deleted-questions.ts, a question appended that an
 * article holds already in server/append.ts): read as the ranking reads words (words.ts `folded`:
 * full width, case, traditional characters as simplified), white space folded — and gone between
 * Chinese characters, where it parts nothing ("猫咪 绝育 要空腹吗") —, the punctuation and
 * symbols at its ends ("~", an emoji) left out, and one sentence-final particle after a Chinese
 * character, as an exact rule reads it ("索道几点停啊" is "索道几点停" taught: a walkthrough's
 * follower added 啊 and got a list). An apostrophe inside a word, straight or a phone's curly one,
 * is left out: "Where’s my order??" is "wheres my order" taught (a walkthrough's shop got a list).
 */
import { END_PARTICLE } from "./end-particle.ts";
import { folded } from "./words.ts";
import { trimmedWhere } from "../base/trimmed.ts";

const MARK = /^[\s\p{P}\p{S}]$/u;
const APOSTROPHE = /(?<=\p{L})['’‘`´](?=\p{L})/gu;

/** `s` without the spaces, punctuation and symbols at its ends. */
const withoutEnds = (s: string): string => trimmedWhere(s, MARK);

export function taughtForm(text: string): string {
  const spaced = folded(text).replace(APOSTROPHE, "").trim().replace(/\s+/g, " ").replace(/(?<=\p{Script=Han}) (?=\p{Script=Han})/gu, "");
  const form = withoutEnds(spaced);
  const chars = [...form];
  const last = chars.length > 2 ? (chars[chars.length - 1] as string) : "";
  return END_PARTICLE.test(last) && /\p{Script=Han}/u.test(chars[chars.length - 2] as string) ? withoutEnds(chars.slice(0, -1).join("")) : form;
}

/**
 * The forms a message is looked up by among taught questions: as written, then — when it differs —
 * without the greeting it opens with (`bare`, courtesy.ts withoutOpening): taught with "Hi," or sent
 * with one, it is the same question (the ranking's taught candidate, wechat/answering/taught.ts).
 */
export function askedForms(text: string, bare: string): string[] {
  const [written, rest] = [taughtForm(text), taughtForm(bare)];
  return (rest === written ? [written] : [written, rest]).filter(Boolean);
}
