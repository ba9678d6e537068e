/** The texts an account answers with: the operator's own, else replyd's (docs/wechat.md "Default texts"). */
import type { TextKey } from "../../doc/rule.ts";

/** What an account says before the operator sets its own texts. */
export const DEFAULT_TEXTS: Record<TextKey, string> = {
  welcome: "Welcome! Send h for help.",
  help: "Send an article's code to read it, a tag to list its articles, or s followed by words to search.",
  fallback: "Sorry, I did not understand that. Send h for help.",
  // Said to "s <words>" finding nothing, a code no article has, and "换一个" with nothing left: "your
  // search" had puzzled a follower who had searched nothing (a walkthrough).
  not_found: "Nothing found. Send h for help.",
  media: "Received, thank you. To ask a question, send it as text; send h for help.",
};

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
