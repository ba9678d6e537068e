/** The texts an account answers with: the operator's own, else replyd's (docs/wechat.md "Default texts"). */
import type { TextKey } from "../../doc/rule.ts";

/**
 * What an account says before the operator sets its own texts: in Chinese to a follower writing
 * Chinese, else in English (a health centre's walkthrough: a fresh account answered 几点开门 with
 * "Sorry, I did not understand that"). Help leads with asking in one's own words: an account
 * without codes or tags had told followers to send a code (a council's walkthrough).
 */
export const DEFAULT_TEXTS: Record<Language, Record<TextKey, string>> = {
  en: {
    welcome: "Welcome! Send h for help.",
    help: "Ask your question in your own words. You can also send s followed by words to search, an article's code to read it, or a tag to list its articles.",
    fallback: "Sorry, I did not understand that. Send h for help.",
    // Said to "s <words>" finding nothing, a code no article has, and "换一个" with nothing left: "your
    // search" had puzzled a follower who had searched nothing (a walkthrough).
    not_found: "Nothing found. Send h for help.",
    media: "Received, thank you. To ask a question, send it as text; send h for help.",
  },
  zh: {
    welcome: "欢迎关注！回复“帮助”查看使用方法。",
    help: "直接发送您的问题即可。也可以发送 s 加关键词搜索，发送文章编号阅读文章，或发送标签查看其中的文章。",
    fallback: "抱歉，没有理解您的意思。回复“帮助”查看使用方法。",
    not_found: "没有找到相关内容。回复“帮助”查看使用方法。",
    media: "已收到，谢谢。如需咨询，请发送文字；回复“帮助”查看使用方法。",
  },
};

export type Language = "en" | "zh";

/**
 * The language replyd's own texts answer `said` in: Chinese when it holds as many Chinese characters
 * as English words or more ("iPhone 15怎么退货", "ok 谢谢"), English when it holds more English words
 * ("can I pay with WeChat Pay 支付"). A message of neither — "h", "？", digits, an emoji — and an
 * event or a photo, which say nothing: the language of the operator's own texts when any holds
 * Chinese (a Chinese account's welcome says 回复h: its help should not be English); with no text of
 * theirs, the language of the account's article titles (`titles`, read only then: a new Chinese
 * account greeted its subscribers in English), counted as a message is; else English.
 */
export function languageOf(said: string, texts: Partial<Record<TextKey, string>> = {}, titles?: () => string): Language {
  const told = spoken(said);
  if (told) return told;
  const written = Object.values(texts).filter((t): t is string => t !== undefined);
  if (written.length) return written.some((t) => /\p{Script=Han}/u.test(t)) ? "zh" : "en";
  return (titles && spoken(titles())) || "en";
}

/** The language `text` is in, by its Chinese characters against its English words; null when it holds neither. */
function spoken(text: string): Language | null {
  const han = text.match(/\p{Script=Han}/gu)?.length ?? 0;
  const words = text.match(/[A-Za-z]{2,}/g)?.filter((w) => !ONE_ASKED.has(w.toLowerCase())).length ?? 0;
  return han || words ? (han >= words ? "zh" : "en") : null;
}
/** Latin words that say no language: what replyd's own commands and chat shorthand are made of. */
const ONE_ASKED = new Set(["ok", "okay", "ty", "thx", "help", "hi", "hello"]);

/**
 * The operator's own text for `key`, if they wrote one: not_found and media unwritten are their
 * fallback text when they wrote that — written in their followers' language, where replyd's English
 * default reached Chinese followers sending "换一个" or "第二个" with nothing before (two walkthroughs'
 * operators set welcome, help and fallback, as wechat.md's example does, and not not_found).
 */
export const operatorText = (texts: Partial<Record<TextKey, string>>, key: TextKey): string | undefined =>
  texts[key] ?? ((FALLBACK_BORROWERS as readonly TextKey[]).includes(key) ? texts.fallback : undefined);

/** The texts that are the operator's fallback text while unwritten (operatorText). */
export const FALLBACK_BORROWERS = ["not_found", "media"] as const satisfies readonly TextKey[];
