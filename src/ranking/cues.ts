/**
 * Whether a follower's message leans on what was said before it (docs/answers.md "Follow-ups"):
 * words that point back ("那运费呢", "can I undo it?", "会过期吗"), a few words continuing the question
 * before, a pronoun standing for the thing just read. "Another" is another.ts's, a pick from the list
 * just sent picks.ts's; thanks and greetings, which are no follow-up, courtesy.ts's.
 */

import { courtesyOf, standsAlone, withoutOpening } from "./courtesy.ts";
import { asksAnother } from "./another.ts";
import { bareNumber, picksEntry } from "./picks.ts";
import { fold } from "./fold.ts";
import { folded, termsOf } from "./words.ts";
import { RANKING_LIMITS } from "./rank.ts";
import { asksOfVariant, continuesQuestion } from "./continuation.ts";

/**
 * Words that lean on something said before: an ellipsis particle (那运费呢), a connective that
 * opens a message (and on Sundays?, 那…, 还有…), a pronoun standing for the earlier subject (can I
 * undo it?, 它, 这个, why is mine low?), "too" and "also" (周末也有吗; not 也许 "maybe", 也就是 "that
 * is", 也好, 再也 "never again"), "the same" as what is asked (学费一样吗; not 不一样 "different", nor
 * 一样东西 "one thing", nor 一样 closing a message after 跟, 和, 像, 同, 与 or 如 in its clause, which
 * name what it is compared with: 跟要飞起来一样). Grammar's closed classes, not the accounts' words; on the follow-up set's tuning
 * half (bench/followups.ts) 呢 opened or ended 19 of 64 follow-ups and none of 109 questions of
 * their own, "about", "too", "and", "it" 36 follow-ups and 5 questions. 也, 一样 and the possessive
 * pronouns were added later as the Chinese and English of what the other language's list held
 * (docs/performance.md Session 23). 另外 after a modal or before a verb of paying says "on top of
 * what was said" (水果要另外给钱不, 安装费要另外交吗): the second follow-up set's tuning half 0.567 →
 * 0.583, the fresh one 0.521 → 0.531, nothing else moved (Session 44). So does a verb done, its
 * object left out, then when or what next (关了之后…, 交完多久能用, 充了能退吗; not 吃完饭…, which
 * names it): 0.583 → 0.600 and 0.531 → 0.542, nothing else moved.
 */
/** How it is done, then a modal and a verb with no subject after it (网上能办吗, 现场能交吗; not 网上能办社保卡吗, nor 晚上能停车吗: a review). */
const LEANS_HAN_HOW = /^(?:网上|线上|在线|手机上|电话|现场|窗口)(?:能|可以)\S{0,3}$/u;
const LEANS_HAN = /(?:它们?|这个|那个|这种|这样|这些|那些|同样|(?<!不)一样(?=[吗么呢])|一样$(?<!不一样)(?<![跟和像同与如]\S{0,16}一样)|(?<!再)也(?!许|就是|好)|(?:要|需要|得|还|会)另外|(?<=\p{Script=Han})另外(?:收|加|给|付|交|算)(?:钱|费|吗|不|呢|$)|^\p{Script=Han}(?:了|完)(?:之后|以后|多久|能|可以|会|还|就|怎么|要))/u;
/**
 * …and a question with no subject, opening on a modal or a question word (会过期吗, 要带什么, 多久能出):
 * Chinese leaves out what was just said. Not 有没有 / 有: asking whether something exists names it.
 * Or a measure or a time of day asking how much, how long or when of it ("一周多少钱" after
 * 寒假班几号开始, which got the fallback read alone; "下午几点" — not "停车多少钱", which names its subject): the follow-up set's fresh pairs offered the right article for one
 * more question of their own (0.889 → 1.000), questions no article answers asked after another got
 * a single article less often (0.095 → 0.088), nothing else moved (Session 32); a message naming
 * an article in its head still moves there (reading.ts). A modal after how it is done
 * (网上能办吗, 现场能交吗) leans too (LEANS_HAN_HOW): "网上能办吗" after the flexible-employment question
 * had gone alone to the retirement article whose body says it (a service hall's walkthrough; no set
 * moved, Session 36). So does a verb alone asking how long or how much of it (放几天, 等多久, 寄几天):
 * "放几天" after 快递柜取件码丢了 had been read alone and got the delivery times (a courier's
 * walkthrough; no set moved, Session 43). Where, after a time only (晚上睡哪, 一晚住哪): a numeral
 * before a noun names a place (五号楼在哪, 二食堂在哪儿, 一卡通哪里: a review).
 */
const LEANS_HAN_AT = /^(?:那|还有|另外|如果|要是|也(?!许)|能|可以|要|需要|会(?!员)|多少|多久|几|什么时候|用什么|是不是|在哪|去哪|到哪|哪里|哪儿)|呢$|^(?:[一二两三四五六七八九十半每单整全]|上午|下午|晚上|中午|早上|周末|平时)\S{0,3}(?:多少钱|多少|多久|几点|几天|几号|几次|几餐|几顿|几回|几遍)[吗啊呀]?$|^(?:[一二两三四五六七八九十半每单整全](?:天|晚|夜|周|个月|月|年)|上午|下午|晚上|中午|早上|周末|平时)\S{0,3}(?:哪里|哪儿|哪)[吗啊呀]?$|^\p{Script=Han}(?:多少|多久|几天|几个月|几年|几次|几小时)[吗啊呀]?$/u;
const LEANS_LATIN = /^(?:and|but|so|then|also|or|what about|how about|what if|still (?:not|no|nothing|none|doesn'?t|does not|dont|don'?t|isn'?t|is not|won'?t|cant|can'?t|the same|broken|waiting(?! for)))\b|\b(?:then|same|yours(?! truly)|ours|theirs)\b|(?<!\b(?:a|the|coal|gold|land|salt|tin|copper) )\bmine\b|\b(?:before|after|beforehand|afterwards?)$/;

/**
 * "One" standing for what was asked ("when is the next one" after captioned shows had been read alone
 * and got the parking card, sure, on its "next to": a theatre's walkthrough) — in a few words only:
 * a longer message names what its "one" is ("my ticket got wet, can i get a new one": a review).
 */
const ONE_OF_IT = /\b(?:the|a) (?:next|other|last|earlier|later|older|cheaper|bigger|smaller) ones?\b/;

/**
 * A word that stands for what was asked before, or adds to it: a pronoun, "also", and "too" or
 * "either" closing their clause ("can my wife come too?", "…too 🙂", "they say nothing in spam
 * either") — not "too" before what it intensifies ("200 is slightly too short", "too heavy to drag").
 */
const POINTS_BACK = /\b(?:it|its|they|them|their|that|this|these|those|also)\b|\b(?:too|either)(?=\s*(?:$|[^\p{L}\p{N}\s])|\s+(?:and|but|or|so|thanks?|thx|ty|pls|please|lol|x+)\b)/gu;
/** A demonstrative before a time is that time ("opening earlier this summer", "open this saturday"), not what was asked. */
const A_TIME = /(?:this|that|these|those)\s+(?:morning|afternoon|evening|night|week|weekend|month|year|summer|winter|spring|autumn|fall|season|term|semester|christmas|easter|monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b/y;
/**
 * Where a clause ends: punctuation, a line, an emoji, or and / or / but / so before what opens a
 * clause ("i'm 72 and live alone" is one clause; "…bus shelter and can someone clean it" two).
 */
const CLAUSE_END = /[,.;:!?、—\n]|\s-\s|\p{Extended_Pictographic}|\b(?:or|but|and|so)(?=\s+(?:i|we|you|he|she|it|they|is|are|can|could|do|does|will|would|that|this|there|how|what|when|where|why)\b)/gu;
/** A clause about the follower or their family ("i'm 72 and live alone", "my daughter is 8") tells their circumstances, not a subject a word could point to; nor does thanks or an acknowledgement ("hmm ok"). */
const ABOUT_THEM = /^\s*(?:i|i'm|im|i've|ive|we|we're|my|our|me|us|she|he|her|his)\b/;
/** Words (not numbers) an earlier clause needs to name what such a word stands for: one is a word said before the question ("ok, is it free?", "hmm, how much is it"). */
const NAMED_BEFORE = 2;

/**
 * A word that points back (POINTS_BACK) leans on the question before unless the clauses of the
 * message before its own, not about the follower (ABOUT_THEM), name NAMED_BEFORE words of a subject
 * (termsOf, numbers aside): then it points to those ("graffiti on the bus shelter on station road,
 * pls can someone clean it"; "can we get married at the town hall or is that a different office";
 * "invoice emails arent arriving for some of my customers, they say nothing in spam either"). Words
 * in its own clause do not say so ("can I undo it?", "can someone come and fix it tonight?"), nor a
 * clause about the follower ("I'm 72 and live alone, can I get it?"). Read over the first
 * RANKING_LIMITS.questionChars characters, as the question is ranked, in one pass: each clause's
 * words are read once (a review found a message of 60,000 characters holding the loop for 14 s).
 * Session 49: questions no article answers asked after another were refused in conversation more
 * often on every set (performance.md), and no follow-up pair of any set was lost.
 */
function pointsBack(text: string): boolean {
  const t = folded(text.slice(0, RANKING_LIMITS.questionChars));
  const ends = [...t.matchAll(CLAUSE_END)].map((c) => [c.index as number, (c.index as number) + c[0].length] as const);
  let named = 0;
  let read = 0;
  let next = 0;
  for (const m of t.matchAll(POINTS_BACK)) {
    A_TIME.lastIndex = m.index as number;
    if (A_TIME.test(t)) continue;
    // The clauses ended before this word, not read yet.
    for (; next < ends.length && (ends[next] as readonly [number, number])[0] < (m.index as number); next++) {
      const [end, after] = ends[next] as readonly [number, number];
      const clause = t.slice(read, end);
      if (!ABOUT_THEM.test(clause) && courtesyOf(clause) === null) named += new Set(termsOf(clause).filter((w) => !/^\d+$/.test(w))).size;
      read = after;
    }
    if (named < NAMED_BEFORE) return true;
  }
  return false;
}

/**
 * An English question of filler alone asking how much, how long, when or where ("how much?", "when
 * is it"): it asks it of what was said — alone it asks nothing (a walkthrough's "how much" after
 * the telemedicine list got the fallback). Not "no", "why?" or "can": said to an answer, they are
 * no request for it again. Chinese asks so with 多少, 多久, 几, 什么时候, which LEANS_HAN_AT holds.
 */
const ASKS_OF_IT = /^(?:how (?:much|many|long|often|far)|what time|when|where)\b/;
/** …and with a unit it counts in ("how many days?" after a wrong transfer, whose article says "within 7 days": read alone, the fallback), as the words are read (stems). */
const UNITS = new Set(["mani", "long", "often", "far", "minut", "hour", "dai", "week", "month", "year", "time", "peso", "dollar", "pound", "euro", "yuan"]);

/** The message leans on what was said before it (LEANS_*, pointsBack, ASKS_OF_IT): read with it even when its own words find nothing there. */
export function leansOnBefore(text: string): boolean {
  const f = fold(text);
  const joined = f.replace(/ /g, "");
  return LEANS_HAN_AT.test(joined) || asksOfVariant(text) || LEANS_HAN_HOW.test(joined) || (/\p{Script=Han}/u.test(f) && LEANS_HAN.test(f)) || LEANS_LATIN.test(f) || (ONE_OF_IT.test(f) && fewWords(f, 0, FOLLOW_UP_WORDS.latin)) || pointsBack(text) || (ASKS_OF_IT.test(f) && termsOf(text.slice(0, RANKING_LIMITS.questionChars)).every((t) => UNITS.has(t)));
}

/** A message in a few words: six Chinese characters, four Latin words ("And how do I cancel my membership?" names what it asks: a review), counted as folded (full-width letters too); or at most `han` and `latin`. */
export const fewWords = (text: string, han = 6, latin = 4): boolean => {
  const f = fold(text);
  const hans = f.match(/\p{Script=Han}/gu)?.length ?? 0;
  const latins = f.match(/[\p{L}\p{N}]+/gu)?.filter((w) => !/\p{Script=Han}/u.test(w)).length ?? 0;
  return hans + latins <= (hans ? han : latin);
};

/** A message that opens as a follow-up does, on another side of what was asked: "那…", "and …", "what about …" (not 还有, which asks whether there is: 还有名额吗). */
const FOLLOWS_ON = /^(?:那(?![个些里边儿么])|(?:and|but|what about|how about)\b)/;
export const followsOn = (text: string): boolean => FOLLOWS_ON.test(fold(text));

/** A message short enough to lean on the one before it for what it asks of: eight Chinese characters, six Latin words ("what time does it close"). */
export const FOLLOW_UP_WORDS = { han: 8, latin: 6 } as const;

/**
 * A few words leaning on the question before (cues.ts leansOnBefore) or continuing it
 * (continuesQuestion: "just for the weekend", taught alone to the car rates, had answered a van's
 * question with them — a car hire's walkthrough); eight Chinese characters, six Latin words, read without the thanks or greeting they open with: read with another question, a
 * question taught those very words names no subject of theirs (wechat/answering/reading.ts, questions.ts).
 */
export function leansFewWords(text: string): boolean {
  const asked = withoutOpening(text);
  return fewWords(asked, FOLLOW_UP_WORDS.han, FOLLOW_UP_WORDS.latin) && (leansOnBefore(asked) || continuesQuestion(asked));
}

/**
 * A pronoun for the thing just read as what the message is about, its subject ("is it free?", "does
 * it need booking", "they open late?", 它要钱吗, 这个多少钱): the follower asks a property of that
 * article's thing. Not as an object ("can I pause it?" after cancelling asks about pausing, which
 * another article is about; 可以把它暂停吗). This, that, 这个 and 那个 only where they stand alone,
 * not before a noun ("is that wifi free?", 这个wifi免费吗, 这个月开吗 name their thing): in English
 * with at most one word after them ("is this free?"), in Chinese before what is asked of a thing
 * (要, 多少, 免费, 能, 可以, 是, 怎么 …); 那个 said to hesitate (那个，停车要钱吗) has a pause after it.
 */
/** 这个, 那个, 这些, 那些 standing for a thing: before what is asked of it (not before a noun: 这个wifi, 那个停车场). */
const HAN_DEMONSTRATIVE = "(?:这个|那个|这些|那些)(?=[要多免能可是怎几有收贵便还也在需用包会好算])";
const REFERS_HAN = new RegExp(`^(?:它们?|${HAN_DEMONSTRATIVE})`, "u");
const REFERS_LATIN = /^(?:(?:is|are|was|were|does|do|did|will|would|can|could|has|have) )?(?:(?:it|its|they)\b(?! (?:i|you|we)\b)|(?:this|that|these|those)(?: [\p{L}\p{N}]+)?$)/u;

/** The message asks of what was just read, naming it only by a pronoun as its subject (REFERS_*). */
export function refersBack(text: string): boolean {
  const f = fold(text);
  return REFERS_LATIN.test(f) || (/\p{Script=Han}/u.test(f) && REFERS_HAN.test(f.replace(/ /g, "")));
}

/**
 * The message names a thing only by a pronoun standing for it, anywhere in it ("can I book it?",
 * "where do i pick it up", "what time does it close", 它几点关门, 那个要预约吗): it, its, they, them,
 * their, 它; 这个 and 那个 only before what is asked of a thing (not 那个停车场, which names it). Not a
 * question opening on a question word or a modal (几点关门, 能开发票吗): Chinese leaves the subject out
 * of questions of their own too.
 */
const PRONOUN_LATIN = /\b(?:it|its|they|them|their)\b/;
const PRONOUN_HAN = new RegExp(`它|${HAN_DEMONSTRATIVE}`, "u");
export function namesByPronoun(text: string): boolean {
  const f = fold(text);
  return PRONOUN_LATIN.test(f) || (/\p{Script=Han}/u.test(f) && PRONOUN_HAN.test(f.replace(/ /g, "")));
}

/** A few words asking of the thing read, named only by a pronoun as their subject: "is it free?", 这个要预约吗 (reading.ts keeps them on it; teach refuses them when their words name no one article). */
export const asksOfItAlone = (text: string): boolean => refersBack(text) && fewWords(text);

/**
 * What followers say between questions ("谢谢", "thx", "换一个", "2"): no phrasing of a question an
 * article answers — not taught (server/teach.ts), not listed among the questions nothing answered
 * (the report), however it was answered.
 */
export const saidBetweenQuestions = (text: string): boolean => standsAlone(text) || asksAnother(text) || picksEntry(text) !== null || bareNumber(text);
