/**
 * "Another": the follower asks for the next articles not yet offered (docs/answers.md "Follow-ups") —
 * "换一个", "not that one", "不是这个" — alone, or with what they meant said after it. A request, not a
 * question: a closed set of whole messages in both languages, matched after the case, spaces and
 * punctuation are folded away — "换一个！" and "Another one?" alike, but not "another question about
 * refunds", which is a question.
 */
import { standsAlone } from "./courtesy.ts";
import { fold } from "./fold.ts";

/** The next articles, please: the whole message, folded (fold()). */
const ANOTHER = new Set(
  [
    "换一个", "换个", "换一篇", "换一条", "再换一个", "换一个吧", "还有别的吗", "还有吗", "还有其他的吗", "有别的吗", "别的呢", "其他的呢",
    "不是这个", "不是这篇", "不是这个意思", "不对", "下一个", "看看别的", "再来一个",
    // Saying the answer was wrong: 不对啊 had got the fallback, and teach then taught 不对啊 itself to the
    // hours, which every follower saying it next got (a housekeeping company's walkthrough).
    "错了", "答错了", "不是", "不是的", "答非所问", "不是我要的", "不是我想要的", "不是我问的", "文不对题",
    // Saying what was asked is not this (a housing fund's walkthrough: "不是问这个 我问的是离职后能不能自己继续交"
    // had been read as a follow-up and sent the rejected article alone).
    "不是问这个", "我不是问这个", "不是问这个的", "我不是问这个的", "不是问那个", "我不是问那个", "不是问这些", "问的不是这个", "我问的不是这个",
    "我问的不是这个问题", "不是这个问题", "不是说这个", "我不是说这个", "我说的不是这个",
    "wrong", "wrong one", "wrong answer", "thats wrong", "that's wrong", "not what i asked", "not what i meant", "not what i was asking", "thats not it", "that's not it", "not it",
    "not what i asked for", "not what i was looking for", "not what im looking for", "not what i'm looking for", "not my question",
    "doesnt answer my question", "doesn't answer my question", "didnt answer my question", "didn't answer my question", "you didnt answer my question", "you didn't answer my question",
    // 另一個, as a Hong Kong follower writes it (a fitness studio's walkthrough got the fallback), and 另外一个.
    "另一个", "另外一个", "另一篇",
    "another", "another one", "anotherone", "something else", "anything else", "not this one", "not that one", "not this", "not that",
    "other options", "others", "next", "next one", "show me another", "show another", "try another", "a different one", "different one",
    // None of those offered, or no help: "none of these" was read as a follow-up and got the food and drink
    // card, "that doesnt help" the same (a football club's walkthrough, Session 52).
    "none of these", "none of them", "none of those", "none", "neither", "neither of them", "neither of these", "not these",
    "doesnt help", "doesn't help", "that doesnt help", "that doesn't help", "this doesnt help", "this doesn't help", "didnt help", "didn't help", "that didnt help", "that didn't help",
    "not helpful", "thats not helpful", "that's not helpful", "no help", "not useful",
    // Not 没用 or 没有用 alone, which also say "have not used it" (没用，能退吗: a review).
    "都不是", "都不对", "这些都不是", "都不是我要的", "都没用", "这个没用", "没啥用", "没什么用", "没帮助", "没有帮助", "没帮上", "不是这些",
  ].map((s) => fold(s)),
);

/**
 * What a follower opens "another" with, folded: an interjection, and "that's", "this is", "it was"
 * ("no, that's not what i asked", "this is wrong") or 这, 那个, 你这 before what says it is wrong
 * (这不对, 你这个答非所问). A car hire's walkthrough: "thats not what i asked" was read as a follow-up
 * leaning on "that", and taught.
 */
const OPENS_ANOTHER = /^你?[这那]个?(?=不|错|答)|^(?:(?:no|nope|sorry|hmm|um|oh|well|but) )?(?:(?:that|this|it) (?:s|is|was) |(?:thats|its) )?/u;

export function asksAnother(text: string): boolean {
  const f = fold(text);
  // With a particle after it, as said: 不对啊, 换一个呀, 不是这个哦.
  const said = (s: string) => ANOTHER.has(s) || (/\p{Script=Han}[啊呀哦啦哈]$/u.test(s) && ANOTHER.has(s.slice(0, -1)));
  return said(f) || said(f.replace(OPENS_ANOTHER, ""));
}

/**
 * "Another" with what the follower means said after it, past a mark or (Chinese) a space: "not that
 * one, i use the website not the app", "不是这个，我问的是退款" — the words after it ("" when they add
 * nothing: "another one, thanks", "换一个，换一个"), or null when the message is no such thing. Read as "another" ranked with those words (wechat/answering/reading.ts):
 * read as a follow-up, "not that one, i use the website" had been offered the bank connection article
 * it rejected, first again (a bookkeeping app's walkthrough).
 */
const ANOTHER_THEN = /^([^,.;:!?，。！？；：、\n]{1,40})[,.;:!?，。！？；：、\n]+\s*(\S[^]*)$/u;
// A space after it, or emoji and WeChat's [表情] (不是问这个😅 我问的是…, 不是问这个[捂脸][捂脸]…: two reviews).
const ANOTHER_THEN_HAN = /^(\p{Script=Han}{1,12})(?:\s+|(?:(?:\p{Extended_Pictographic}|\[[^\]\s]{1,12}\])[\p{Extended_Pictographic}\p{Emoji_Modifier}\u200d\ufe0f]*\s*)+)(\S[^]*)$/u;
/**
 * …or with no mark, where what is meant is said so ("thats not what i asked i meant the pharmacy
 * counter", 不是这个我问的是二套房: a pharmacy's walkthrough read the first alone, and listed price
 * matching first). Matched where an apostrophe is gone ("i'm asking about" as "im asking about").
 */
const MEANT_LATIN = "i (?:meant|mean|was asking about|was asking|asked about|am asking about|was talking about)|im asking about|what i meant was";
const MEANT = new RegExp(`\\b(?:${MEANT_LATIN})\\b|我[问問]的是|我是[问問]|我[说說]的是|我想[问問]的是|我要[问問]的是|我是[说說]`, "giu");
/** "I meant" opening what is meant says nothing of it: the words after it are ranked ("meant" no article holds had counted against each). */
const SAYS_MEANT = new RegExp(`^(?:${MEANT_LATIN})\\s+`, "i");
/** The another-phrase and what follows it, split at a mark, a space or emoji after Chinese, or where what is meant is said: the first split whose head asks another. */
function splitAnother(t: string): [string, string] | null {
  for (const re of [ANOTHER_THEN, ANOTHER_THEN_HAN]) {
    const m = re.exec(t);
    if (m && asksAnother(m[1] as string)) return [m[1] as string, m[2] as string];
  }
  const plain = t.replace(/[\u2019']/g, "");
  for (const m of plain.slice(0, 200).matchAll(MEANT)) {
    const head = plain.slice(0, m.index).trim();
    if (head && asksAnother(head)) return [head, plain.slice(m.index)];
  }
  return null;
}
export function anotherThen(text: string): string | null {
  const split = splitAnother(text.trim());
  if (!split) return null;
  const rest = split[1].trim().replace(/^i[\u2019']m /i, "im ").replace(SAYS_MEANT, "");
  // Said again or closed with thanks, it adds nothing ("换一个，换一个", "another one, thanks").
  return asksAnother(rest) || standsAlone(rest) ? "" : rest;
}

/** "换一个", "another" — alone, or with what is meant after it ("not that one, i use the website"): read as another. */
export const asksForAnother = (text: string): boolean => asksAnother(text) || anotherThen(text) !== null;
