/**
 * A message of several questions, as anxious followers write them ("宿舍怎么申请，还有接机需要提前
 * 预约吗？另外开学第一周要做什么"): its parts, each ranked alone when the whole is answered by none
 * (wechat/answering/questions.ts) — together, every part's words count against every article, and
 * no article holds enough of the whole.
 */
import { termsOf } from "./words.ts";
import { courtesyOf } from "./courtesy.ts";

/**
 * At most this many parts are ranked, the last: a message is one follower's, not a list of
 * questions to work through, and it tells its circumstances first and asks last.
 */
export const MOST_PARTS = 4;

/** Where a message's questions part: sentence ends, commas, and the words that add another question. */
const BETWEEN = /[？?。！!；;，,\n]+|还有|另外|以及|顺便问一下|顺便问下|再问一下|\band also\b|\balso\b/giu;

/** The last MOST_PARTS parts of `text` that say something (two terms or more, and no thanks or greeting), in order; none when it is one question. */
export function partsOf(text: string): string[] {
  const parts = text
    .split(BETWEEN)
    .map((p) => p.trim())
    .filter((p) => p && termsOf(p).length >= 2 && courtesyOf(p) === null);
  return parts.length >= 2 ? parts.slice(-MOST_PARTS) : [];
}
