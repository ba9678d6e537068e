/**
 * A pick from the list just sent ("第二个", "2", "the second one"), a code a welcome text told the
 * follower to send ("回复3"), a bare number, an explicit search ("s 营业时间"): what a message asks of
 * the replies before it, not of the articles (docs/answers.md "Follow-ups").
 */
import { fold } from "./fold.ts";

const NUMBERS: Record<string, number> = {
  一: 1, 二: 2, 两: 2, 三: 3, 四: 4, 五: 5,
  first: 1, "1st": 1, second: 2, "2nd": 2, third: 3, "3rd": 3, fourth: 4, "4th": 4, fifth: 5, "5th": 5,
};

/** "第二个", "第2篇"; "2", "#2", "no. 2", "number 2", "option 2"; "the second (one)", "2nd". */
const PICKS = [
  /^(?:我要|要|看|选)?第([一二两三四五1-5])(?:个|篇|条|项)?(?:吧|呢|啊)?$/u,
  /^(?:no |number |option |#)?([1-5])$/,
  /^(?:i want |give me |show me |open )?(?:the )?(first|second|third|fourth|fifth|1st|2nd|3rd|4th|5th)(?: one| article| link)?(?: please)?$/,
];

/** The words a welcome text and a follower say "send this" with (回复3, "reply 3"), as a pattern's source. */
export const TELLS_TO_SEND = "(?:回复|回覆|reply|send)";
// One run of spaces, then a colon and another: two runs side by side ("\\s*[:：]?\\s*") split 60,000 spaces every way, 2.4 s (a review).
const TOLD = new RegExp(`^${TELLS_TO_SEND}\\s*(?:[:：]\\s*)?(\\S{1,32})$`, "i");

/**
 * What "回复3", "回覆 h", "reply 3" tells the account the follower was told to send ("回复3 预约挂号" in
 * the welcome text): the word after it, or null when the message is no such thing.
 */
export const toldToSend = (text: string): string | null => TOLD.exec(text)?.[1] ?? null;

/**
 * Digits alone, as typed (full width too), with spaces, a "#" or end marks around them — or after
 * "回复", as a welcome text says it: a code tried, a pick, never a question (teach took "回复9").
 */
export const bareNumber = (text: string): boolean => /^[\s#＃]*[0-9０-９]+[\s.。!！?？]*$/u.test(toldToSend(text.trim()) ?? text);

/** The place (from 1) of the entry a message picks from a list, or null when it picks none. */
export function picksEntry(text: string): number | null {
  const f = fold(text);
  for (const re of PICKS) {
    const m = re.exec(f);
    if (m) return NUMBERS[m[1] as string] ?? Number(m[1]);
  }
  return null;
}

/** The words of an explicit search ("s 营业时间" → "营业时间"), or null when the text is none. */
export const searchedWords = (text: string): string | null => /^s\s+(.+)$/is.exec(text)?.[1] ?? null;

/**
 * A code as a follower may type it, copied from a welcome text or a keyboard: a keycap's marks gone
 * (8️⃣), one pair of quotes or brackets around it gone (“8”, 【8】, 「8」, (8)), a # before digits gone
 * (#8). A review: each had been ranked, and "【8】" found the article titled "Many 8".
 */
const AROUND = /^[“"'‘「『【\[（(《〈<]\s*([^\s“"'‘「『【\[（(《〈<”"'’」』】\]）)》〉>]{1,32})\s*[”"'’」』】\]）)》〉>]$/u;
export function codeTyped(text: string): string {
  const t = text.replace(/[\ufe0f\u20e3]/g, "");
  return (AROUND.exec(t)?.[1] ?? t).replace(/^[#＃]\s*(?=[0-9０-９]+$)/u, "");
}
