/**
 * What a follow-up asks of the thing read — how long, how much, when, what to do: 多久, 多少钱, 什么时候,
 * 怎么办, "how long", "what time" — is its frame, not its subject. At its idf such a word outweighed the question it
 * follows, whose words count at CONTEXT.weight: "多久能上门" after 量房要钱吗 had got the building
 * period's article, titled 装修工期要多久, before the free measuring visit's; "要提前几天说" after 改期怎么弄,
 * the booking article; "how long until it's back" the same (docs/performance.md, Session 52).
 */
import { termsOf } from "./words.ts";

// Simplified and traditional, as a follower types them, and 怎么办 (what to do about it); not the 办 of
// 怎么办理 or 怎么办卡, the 号 of 几号线, nor the 几 of 好几天 or 前几天, which ask nothing (a review);
// how far ahead is (提前几天, 提前多久, 提早多久: a gym's walkthrough, Session 57).
const FRAME =
  /多[长長][时時][间間]|多久|(?:[什甚][么麼麽]|啥)[时時](?:候|[间間])|(?<![好这這那])(?<!(?<!提)前)[几幾](?:[点點][钟鐘]?|天|[号號](?![线線楼樓])|[个個]?月|周|年|[个個]?(?:小[时時]|[钟鐘]头|[钟鐘]頭)|分[钟鐘])|多少天|提[前早](?=多久|多[长長]|[几幾]|多少天)|多少[钱錢]?|(?:怎[么麼]|咋)[办辦](?![理卡证證])|\bhow (?:long|much|many|often|soon)\b|\bwhat time\b|\bwhen\b/giu;

/** The terms of `text` (words.ts termsOf) that only its frame words hold: those its other words do not hold too. */
export function frameTerms(text: string): ReadonlySet<string> {
  // Full width and runs of spaces as typed ("ｈｏｗ ｌｏｎｇ", "how  long") read as the ranking reads them.
  const typed = text.normalize("NFKC").replace(/\s+/g, " ");
  const without = typed.replace(FRAME, " ");
  if (without === typed) return NONE;
  const kept = new Set(termsOf(without));
  return new Set(termsOf(typed).filter((t) => !kept.has(t)));
}
const NONE: ReadonlySet<string> = new Set();

/**
 * Only words asking how long, how much, when or what to do ("how long", 多久, "what time"): every term
 * of it is a frame's, so it names no subject — taught, every follower sending it got this article
 * alone ("how long", taught with --as to the Wi-Fi: an airport's walkthrough, Session 52); after an
 * article read, it asks of that one (wechat/answering/reading.ts).
 */
export function frameOnly(text: string): boolean {
  const terms = termsOf(text);
  const frame = frameTerms(text);
  return terms.length > 0 && terms.every((t) => frame.has(t));
}

/**
 * Whether `passage` holds what a frame of `text` asks: a duration for how long (多久, 多长时间, "how
 * long": 15个工作日, 当场, "3 working days"), a time of day for when (几点, "what time": 9:00, 下午三点).
 * Not how much: a price is price.ts's to find. False for any other frame.
 */
export function answersFrame(text: string, passage: string): boolean {
  const typed = text.normalize("NFKC");
  if (HOW_LONG.test(typed)) return DURATION.test(passage);
  if (WHAT_TIME.test(typed)) return CLOCK.test(passage);
  return false;
}
// How far ahead too: 提前几天, 提前几个小时, 几分钟 ask a duration (a review: 要提前几天 had never been answered so).
const HOW_LONG = /多[长長][时時][间間]|多久|[几幾](?:天|[个個]?(?:小[时時]|[钟鐘][头頭])|分[钟鐘])|多少天|\bhow long\b/iu;
const WHAT_TIME = /[几幾][点點]|\bwhat time\b/iu;
// A duration: a count of working days, hours, weeks… — not a date or an age (2024年, 15日, 18周岁, 6月), nor "7 days a week" (a review).
const DURATION = /(?<!\d)\d{1,3}\s*(?:个|個)?\s*(?:工作日|自然日|天(?![津河])|小时|小時|分钟|分鐘|周(?!岁|歲|[一二三四五六日末])|星期(?![一二三四五六日天])|个月|個月|年(?![\d级級龄齡满滿底初])|月(?=内|以内|左右|后|後))|[一二两三四五六七八九十半]+\s*(?:个|個)?(?:工作日|天|小时|小時|分钟|分鐘|周(?!岁|歲)|星期|个月|個月|年(?![级級龄齡]))|当[场天]|當[場天]|即时|立等可取|\b\d+\s*(?:working |business )?(?:days?|hours?|minutes?|mins?|weeks?|months?|years?)\b(?!\s+(?:a|per|each)\s+(?:day|week|month|year)\b)|\bsame day\b|\bstraight away\b/iu;
// A time of day: 9:00, 三点 / 3点 beside a part of the day or 钟, 半, 前, 后, 到, 至, a range — not "以下3点" (three points) —, "9am".
const CLOCK = /\d{1,2}\s*[:：]\s*\d{2}|(?:上午|下午|晚上|早上|凌晨|中午|傍晚|夜里)\s*[\d一二三四五六七八九十两]{1,3}\s*[点點]|[\d一二三四五六七八九十两]{1,3}\s*[点點](?:钟|鐘|半|前|后|後|以前|以后|之前|之后|到|至|[-~～]|\d)|\b\d{1,2}\s*(?:am|pm)\b/iu;
