/**
 * What a follow-up asks of the thing read — how long, how much, when, what to do: 多久, 多少钱, 什么时候,
 * 怎么办, "how long", "what time" — is its frame, not its subject. At its idf such a word outweighed the question it
 * follows, whose words count at CONTEXT.weight: "多久能上门" after 量房要钱吗 had got the building
 * period's article, titled 装修工期要多久, before the free measuring visit's; "要提前几天说" after 改期怎么弄,
 * the booking article; "how long until it's back" the same (docs/performance.md, Session 52).
 */
import { termsOf } from "./words.ts";

// Simplified and traditional, as a follower types them, and 怎么办 (what to do about it); not the 办 of
// 怎么办理 or 怎么办卡, the 号 of 几号线, nor the 几 of 好几天 or 前几天, which ask nothing (a review).
const FRAME =
  /多[长長][时時][间間]|多久|(?:[什甚][么麼麽]|啥)[时時](?:候|[间間])|(?<![好前这這那])[几幾](?:[点點][钟鐘]?|天|[号號](?![线線楼樓])|[个個]?月|周|年)|多少[钱錢]?|(?:怎[么麼]|咋)[办辦](?![理卡证證])|\bhow (?:long|much|many|often|soon)\b|\bwhat time\b|\bwhen\b/giu;

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
