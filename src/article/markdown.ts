/**
 * Markdown's marks dropped from a body, as HTML's tags are (body-text.ts): help centres and
 * Git-kept FAQs export Markdown, and a card had shown a follower "# Importing from QuickBooks…" and
 * "**customers**" (a bookkeeping app's walkthrough). Only what reads as markup and nothing else
 * does: a heading's #s at a line's start, a pair of ** around words, a link or an image written
 * [text](https://…) — kept as its text. Not single * or _ (5 * 3, __init__, snake_case), not
 * backticks, not "95**" masking digits (a search result's "（95**）、…（70**）").
 *
 * Done once, it is done: reducing its own output again changes nothing (a backup restored keeps its
 * bodies), and it never makes a tag of what was none (bodyText() keeps the text unreduced then).
 */
const BOLD = /(?<![*\p{L}\p{N}])\*\*(?=[^\s*<>])([^*\n<>]{1,400}?)(?<=[^\s*<>])\*\*(?![*\p{L}\p{N}])/gu;
const LINK = /!?\[([^\]\n*<>]{1,400})\]\((?:https?:\/\/|mailto:|\/)[^)\s]{0,2000}\)/gu;
const HEADING = /^(?:#{1,6}[ \t]+)+(?=\S)/gmu;

export function markdownToText(text: string): string {
  if (!text.includes("**") && !text.includes("](") && !text.includes("#")) return text;
  return text.replace(BOLD, "$1").replace(LINK, "$1").replace(HEADING, "");
}
