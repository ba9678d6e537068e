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

/**
 * Where a message's questions part: sentence ends, commas, a space between Chinese characters (a
 * phone's comma: "物业费怎么交 能开发票吗"), and the words that add another question.
 */
const BETWEEN = /[？?。！!；;，,\n]+|(?<=\p{Script=Han})\s+(?=\p{Script=Han})|还有|另外|以及|顺便问一下|顺便问下|再问一下|\band also\b|\balso\b/giu;

/**
 * What asks a question: a question word or particle in it, an A-not-A end (要补钱不), an English
 * question's opening. Not a question mark after it: one sentence's clauses end with the sentence's.
 */
const ASKS_HAN = /[吗么嘛]|什么|怎|哪|多少|几|谁|为何|为啥|是否|有没有|不$/u;
const ASKS_LATIN = /^(?:how|what|when|where|why|who|which|whose|can|could|do|does|did|is|are|was|were|will|would|should|shall|may|have|has)\b/i;

export interface Part {
  text: string;
  /** It asks a question, not only tells what the others are about ("1990年，约翰逊率队击败了哪个教练…"). */
  asks: boolean;
}

/** The last MOST_PARTS parts of `text` that say something (two terms or more, and no thanks or greeting), in order; none when it is one question. */
export function partsOf(text: string): Part[] {
  const parts: Part[] = [];
  let from = 0;
  for (const m of [...text.matchAll(BETWEEN), null]) {
    const end = m ? (m.index as number) : text.length;
    const part = text.slice(from, end).trim();
    from = end + (m ? m[0].length : 0);
    if (!part || termsOf(part).length < 2 || courtesyOf(part) !== null) continue;
    parts.push({ text: part, asks: ASKS_HAN.test(part) || ASKS_LATIN.test(part) });
  }
  return parts.length >= 2 ? parts.slice(-MOST_PARTS) : [];
}
