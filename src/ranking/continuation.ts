/**
 * Words that go on with the question before rather than ask one of their own: what limits it ("just
 * for one day", 就一天, "on sundays"), and another kind of the thing it asked of (三室的呢, "and the
 * van?"). Read with that question (wechat/answering/reading.ts), refused by teach alone
 * (server/teach.ts), left out of the report's asked again (store/log-kinds.ts).
 */
import { fold } from "./fold.ts";

/**
 * Words continuing a question rather than asking one: a limiting adverb (a verb between them too: 就拍半天) or a preposition before a
 * number, a day or a part of it, or whom it is for ("just for one day?", "only on weekends", "for
 * 2 people", "on sundays", "for kids", "for a puppy", "for a big dog", "on a saturday", "in the morning", 就一天, 只要半天, 在周末, 每周一) — not a subject of its own
 * that opens on the same words ("to cancel my order", "in stock?", "on-site parking", 到店自提,
 * 在线预约, 每天营业时间, 就诊流程, 单人间价格), nor words that ask (几点关门, "what about kids", 周末呢).
 * A walkthrough taught "just for one day", sent after a question about a friend's access, to the
 * access article, and the next follower asking whether a van could be hired "just for one day" got
 * that article alone.
 */
const WHEN_OR_WHOM = "(?:(?:the|a|an) )?(?:(?:small|big|large|medium|little|old|older|young|younger|second|whole|entire|full) )?(?:one|two|three|four|five|six|seven|eight|nine|ten|half|a few|[0-9]+\\w*|(?:mon|tues|wednes|thurs|fri|satur|sun)days?|mon|tue|wed|thu|fri|sat|sun|weekends?|weekdays?|tomorrow|today|tonight|mornings?|afternoons?|evenings?|nights?|kids?|children|a child|adults?|students?|seniors?|people|pets?|dogs?|cats?|pupp(?:y|ies)|me|us|him|her|them|my \\w+)";
/**
 * A length of time named by its unit alone ("for a week", "for the whole week", "by the hour": a car
 * hire's walkthrough) continues only where the message ends on it, or on a word limiting it: before
 * a noun the unit names a thing of its own ("for a day pass", "per hour price", "by the month
 * parking", "after hours call out fee": a review).
 */
/** The message ends here, or on a word limiting what came before. */
const ENDS = "(?= ?$| (?:only|please|pls|too|then|though|max|or so|or more|or less|or longer)\\b)";
const DURATION = `(?:(?:the|a|an) )?(?:(?:whole|entire|full) )?(?:hours?|days?|weeks?|fortnight|months?|years?)${ENDS}`;
/**
 * …and so does where it is done, a device or the website, at the message's end ("and on android?"
 * after connecting a bank had gone to the mobile app's article on the word: a bookkeeping app's
 * walkthrough); not "on the app store", a subject of its own.
 */
const PLATFORM = `(?:the )?(?:android|iphone|ipad|ios|mac|macos|osx|windows|linux|chromebook|desktop|mobile|web|website|app|phone|tablet|laptop|computer|pc)${ENDS}`;
const CONTINUES_LATIN = new RegExp(`^(?:and |but |or |plus )?(?:(?:just|only|even)\\b|(?:for|on|at|in|by|from|till|until|before|after|during|over|under|around|per|each|every|with|without|through|via) (?:${WHEN_OR_WHOM}\\b|${DURATION}|${PLATFORM}))`);
/**
 * …or, the whole message, when alone: a day or a part of it ("saturday?" after the clinic's hours had
 * listed the contact article first, whose body gives Saturday's hours too: the fresh follow-up set),
 * a day's part after it, or two days ("saturday morning?", "sat or sun?"). Not "night" alone, said for
 * good night, nor "sun" alone (a review). It stays on the article read, as "on sundays" does — also
 * when an article's head names the day: after the hours, "saturday?" asks the hours on Saturday,
 * though an article is titled "Saturday vaccination clinic" (a review; another found "sunday?" after
 * booking meant the "Sunday appointments" article: no set holds either).
 */
const DAY = "(?:(?:mon|tues|wednes|thurs|fri|satur|sun)days?|mon|tue|tues|wed|thu|thur|thurs|fri|sat|weekends?|weekdays?|tomorrow|tmrw|tmr|today|tonight)";
const DAY_PART = "(?:mornings?|afternoons?|evenings?|nights)";
const ONE_DAY = `(?:the )?(?:${DAY}(?: (?:morning|afternoon|evening|night))?|${DAY_PART})`;
const WHEN_ALONE = new RegExp(`^(?:and |or |but |plus )?(?:this |next )?${ONE_DAY}(?: (?:or|and|n) ${ONE_DAY}|(?: (?:or|and|n))? sun)?(?: (?:pls|please|too|then))?$`);
/** The whole message is a day or a part of it, no preposition before it (WHEN_ALONE). */
export const dayAlone = (text: string): boolean => WHEN_ALONE.test(fold(text.replace(/[\u2019']/g, "")));
const COUNTED = "[一二两三四五六七八九十半几每0-9]";
// A character between them too — 要, 是, 在 or a verb (就要一天, 就拍半天, 只住一晚: a wedding studio's walkthrough taught 就拍半天 to the outdoor shoots).
const CONTINUES_HAN = new RegExp(`^(?:(?:就|只|仅|才|单)\\p{Script=Han}?${COUNTED}|(?:在|从|到|每)(?:周|星期|礼拜|${COUNTED}))`, "u");
const ASKS_LATIN = /\b(?:what|whats|how|when|where|which|who|whom|whose|why|can|could|will|would|should|may|might|is|are|do|does|did)\b/;
const ASKS_HAN = /[吗嘛么呢吧]|什么|啥|怎|多少|几(?:点|号|时)|哪|谁|为何|为啥|咋|如何|是否|能否|可否|[能会要行有是可](?:不|没)[能会要行有是可以]/u;
/** "Is that all right?" after the circumstance: 就住两周可以吗 continues as 就住两周 does (a postpartum centre's walkthrough: taught, it then answered followers asking of the deposit). */
const ALL_RIGHT_HAN = /(?:可以吗|可以不|可不可以|行吗|行不行|好吗|成吗)[啊呀吧呢]?$/u;
export function continuesQuestion(text: string): boolean {
  const f = fold(text.replace(/[\u2019']/g, ""));
  const han = f.replace(/ /g, "").replace(ALL_RIGHT_HAN, "");
  return /\p{Script=Han}/u.test(f) ? CONTINUES_HAN.test(han) && !ASKS_HAN.test(han) : (CONTINUES_LATIN.test(f) || WHEN_ALONE.test(f)) && !ASKS_LATIN.test(f);
}

/**
 * …and, without the 呢 spoken Chinese drops, a kind counted (20斤的, 3岁的, 两个人的, 十斤以上的): "20斤的"
 * after 公狗绝育价格 had been read alone and got the fallback, "20斤的呢" the dog's article (a pet
 * hospital's walkthrough).
 */
const COUNTED_KIND = "[0-9一二两三四五六七八九十半几]+\\p{Script=Han}{1,3}(?:以上|以下|左右)?的[啊呀]?";
/**
 * Asking of another kind of the thing read, named by what sets it apart: 三室的呢 after 两室的多少钱,
 * 主任的呢 after 挂号费多少钱, 长期放鞋的呢 (a modifier and 的, then the ellipsis 呢): the subject stays
 * the one asked of — the reading together leads with the article read when it ranks close
 * (reading.ts), unless an article's head names the words (外地的呢 after 本地医保 moves to 异地医保).
 */
const VARIANT_HAN = new RegExp(`^(?:那|那么)?(?:\\p{Script=Han}{1,6}的呢|${COUNTED_KIND})$`, "u");
/**
 * …or in English a connective and a noun of one or two words, no question word nor pronoun among them
 * ("and the van?" after the deposit for a car, "what about the luton", "how about a 7 seater"): a car
 * hire's walkthrough, where the mileage led "and the van?" read with the deposit question. No
 * evaluation set moved.
 */
const VARIANT_LATIN = /^(?:and|what about|how about) (?:the |a |an |for )?([a-z0-9]+(?: [a-z0-9]+)?)$/;
/** No thing named: a pronoun, or a word said to the answer ("and you?", "and then", "and thanks": a review). */
const PRONOUN = /\b(?:it|its|this|that|these|those|they|them|one|ones|you|u|ya|me|i|us|we|him|her|mine|yours|then|so|now|if|thanks|thank|thx|ty|yes|no|ok|okay|also|too|again|there|here|later|more|else)\b/;
export function asksOfVariant(text: string): boolean {
  const f = fold(text);
  const named = VARIANT_LATIN.exec(f)?.[1];
  return VARIANT_HAN.test(f.replace(/ /g, "")) || (named !== undefined && !ASKS_LATIN.test(named) && !PRONOUN.test(named));
}
