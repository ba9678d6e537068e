/**
 * A pick from the list just sent ("第二个", "2", "the second one"), a code a welcome text told the
 * follower to send ("回复3"), a bare number, an explicit search ("s 营业时间"): what a message asks of
 * the replies before it, not of the articles (docs/answers.md "Follow-ups").
 */
import { fold } from "./fold.ts";

const ORDINALS: Record<string, number> = {
  first: 1, second: 2, third: 3, fourth: 4, fifth: 5, sixth: 6, seventh: 7, eighth: 8, ninth: 9, tenth: 10,
  eleventh: 11, twelfth: 12, thirteenth: 13, fourteenth: 14, fifteenth: 15, sixteenth: 16, seventeenth: 17, eighteenth: 18, nineteenth: 19, twentieth: 20,
};
const HAN_DIGITS: Record<string, number> = { 一: 1, 二: 2, 两: 2, 三: 3, 四: 4, 五: 5, 六: 6, 七: 7, 八: 8, 九: 9 };

/** 一 … 一百 (十二, 二十, 二十三; 两 for 二) as a number, or null. */
function hanNumber(s: string): number | null {
  if (/^\d+$/.test(s)) return Number(s);
  if (s === "一百") return 100;
  const m = /^([二两三四五六七八九])?(十)?([一二三四五六七八九])?$/u.exec(s);
  if (!m || (!m[1] && !m[2] && !m[3])) return null;
  // Without 十, one digit: 二 (the first group) or 一 (the last).
  if (!m[2]) return m[1] && m[3] ? null : (HAN_DIGITS[(m[1] || m[3]) as string] as number);
  return (m[1] ? (HAN_DIGITS[m[1]] as number) : 1) * 10 + (m[3] ? (HAN_DIGITS[m[3]] as number) : 0);
}

/**
 * "第二个", "第2篇", "第三条"; past the fifth with 个, 篇 or 项 ("第七个", "第12个", "第一百个": a tag's list holds up
 * to a hundred entries — 第六个 had been ranked and got the fallback, 第7个 the article whose body held a 7: a
 * B&B's walkthrough), not 条 nor nothing (第二十条 is a rule's article, 第七 a seventh of anything); "2", "#2",
 * "no. 2", "number 2", "option 2" (digits alone up to 5: a bare 7 is a code more often than a place);
 * "the second (one)", "2nd"; past the fifth with "one", "article" or "link" ("the seventh one", "the 12th
 * one": "the 24th?" asks of a date — a review).
 */
const PICKS: [RegExp, (m: string) => number | null][] = [
  [/^(?:我要|要|看|选)?第([一二两三四五])(?:个|篇|条|项)?(?:吧|呢|啊)?$/u, hanNumber],
  [/^(?:我要|要|看|选)?第([1-5])(?:个|篇|条|项)?(?:吧|呢|啊)?$/u, hanNumber],
  [/^(?:我要|要|看|选)?第([一二两三四五六七八九十百]{1,3}|[1-9][0-9]?|100)(?:个|篇|项)(?:吧|呢|啊)?$/u, hanNumber],
  [/^(?:no |number |option |#)?([1-5])$/, (m) => Number(m)],
  [/^(?:i want |give me |show me |open )?(?:the )?(first|second|third|fourth|fifth|1st|2nd|3rd|4th|5th)(?: one| article| link)?(?: please)?$/, (m) => ORDINALS[m] ?? Number.parseInt(m, 10)],
  [/^(?:i want |give me |show me |open )?(?:the )?([a-z]+|[1-9][0-9]?(?:st|nd|rd|th)|100th)(?: one| article| link)(?: please)?$/, (m) => ORDINALS[m] ?? (/^\d+(?:st|nd|rd|th)$/.test(m) ? Number.parseInt(m, 10) : null)],
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
  for (const [re, value] of PICKS) {
    const m = re.exec(f);
    const n = m ? value(m[1] as string) : null;
    if (n !== null && n >= 1) return n;
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
