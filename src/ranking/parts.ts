/**
 * A message of several questions, as anxious followers write them ("宿舍怎么申请，还有接机需要提前
 * 预约吗？另外开学第一周要做什么"): its parts, each ranked alone when the whole is answered by none
 * (wechat/answering/questions.ts) — together, every part's words count against every article, and
 * no article holds enough of the whole.
 */
import { termsOf } from "./words.ts";
import { courtesyOf } from "./courtesy.ts";
import { asksOfItByFrame } from "./frame-of-it.ts";

/**
 * At most this many parts are ranked, the last: a message is one follower's, not a list of
 * questions to work through, and it tells its circumstances first and asks last.
 */
export const MOST_PARTS = 4;

/**
 * Where a message's questions part: sentence ends, commas, the words that add another question, and
 * "and" before a question's opening ("when are rates due and how do i pay"). Not a space between
 * Chinese characters, though phones type one for a comma ("物业费怎么交 能开发票吗"), when the whole
 * message found no answer: parted there, two questions of our Chinese FAQ's tuning halves no article
 * answers got a single article (晚上喝会不会睡不着 一天喝多少合适), and none gained (Session 32). It
 * parts `spaced`, beside an answer the whole message was sure of: what a part adds is listed after it.
 */
const QUESTION_AFTER_AND = /\band (?=(?:how|what|when|where|why|who|which|can|could|do|does|is|are|will|should)\b)/;
const BETWEEN = new RegExp(`[？?。！!；;，,\\n]+|还有|另外|以及|顺便问一下|顺便问下|再问一下|\\band also\\b|\\balso\\b|${QUESTION_AFTER_AND.source}`, "giu");
const BETWEEN_SPACED = new RegExp(`${BETWEEN.source}|(?<=\\p{Script=Han})\\s+(?=\\p{Script=Han})`, "giu");

/**
 * What asks a question: a question word or particle in it (吗, 呢 at its end, 请问, 什么, 怎, 哪, 多少,
 * 几, 谁), an A-not-A form (能不能, 可不可以, 有没有, 要补钱不), an English question's opening or a need
 * said ("i need to cancel tomorrow, will i lose money": a salon's walkthrough got the fallback; our
 * English FAQ's tuning half one more right, nothing else moved, Session 43), or a question mark of
 * its own after it ("宿舍申请？还有接机预约？").
 */
const ASKS_HAN = /[吗么嘛]|呢$|请问|什么|怎|咋|啥|哪|多少|几|谁|为何|是否|(\p{Script=Han})[不没]\1|不$/u;
const ASKS_LATIN = /^(?:how|what|when|where|why|who|which|whose|can|could|do|does|did|is|are|was|were|will|would|should|shall|may|have|has|any|(?:i|we) (?:need|want|wanna|would like|d like|have) to|(?:i|we) (?:need|want)|need to|want to)\b/i;

/** Two terms or more, or one word of a script with spaces ("how do i pay": "pay"); not one Chinese character. */
const saysSomething = (terms: readonly string[]) => terms.length >= 2 || (terms.length === 1 && !/\p{Script=Han}/u.test(terms[0] as string));

export interface Part {
  text: string;
  /** It asks a question, not only tells the circumstances ("信号太差了 我家在三楼"). */
  asks: boolean;
}

/**
 * The last MOST_PARTS parts of `text` that say something (saysSomething, and no thanks or
 * greeting), in order; none when it is one question. `spaced`: a space between Chinese characters parts too.
 */
export function partsOf(text: string, spaced = false): Part[] {
  const parts: Part[] = [];
  let from = 0;
  for (const m of [...text.matchAll(spaced ? BETWEEN_SPACED : BETWEEN), null]) {
    const end = m ? (m.index as number) : text.length;
    const part = text.slice(from, end).trim();
    from = end + (m ? m[0].length : 0);
    if (!part || !saysSomething(termsOf(part)) || courtesyOf(part) !== null) continue;
    // A question's frame about the thing named before it ("…from walgreens to u? how long does it
    // take") asks of that part, not a question of its own: ranked alone, its "long" found the article
    // titled "how long do you hold it" (a pharmacy's walkthrough).
    parts.push({ text: part, asks: (ASKS_HAN.test(part) || ASKS_LATIN.test(part) || /[?？]/.test(m?.[0] ?? "")) && !asksOfItByFrame(part) });
  }
  return parts.length >= 2 ? parts.slice(-MOST_PARTS) : [];
}
