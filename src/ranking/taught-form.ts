/**
 * A follower's message or a taught question as the two are compared (wechat/answering/taught.ts,
 * the deleted articles' questions in store/model/deleted-questions.ts, a question appended that an
 * article holds already in server/append.ts): read as the ranking reads words (words.ts `folded`:
 * full width, case, traditional characters as simplified), white space folded — and gone between
 * Chinese characters, where it parts nothing ("猫咪 绝育 要空腹吗") —, and the punctuation and
 * symbols at its ends ("~", an emoji) left out.
 */
import { folded } from "./words.ts";

export const taughtForm = (text: string): string =>
  folded(text)
    .trim()
    .replace(/\s+/g, " ")
    .replace(/(?<=\p{Script=Han}) (?=\p{Script=Han})/gu, "")
    .replace(/^[\s\p{P}\p{S}]+|[\s\p{P}\p{S}]+$/gu, "");
