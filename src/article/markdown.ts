/**
 * Markdown's marks dropped from a body, as HTML's tags are (body-text.ts): help centres and
 * Git-kept FAQs export Markdown, and a card had shown a follower "# Importing from QuickBooks…" and
 * "**customers**" (a bookkeeping app's walkthrough). Only what reads as markup and nothing else
 * does: a heading's #s at a line's start, a pair of ** around words (beside a space, a mark, or a
 * Chinese or Japanese character), a link or an image written
 * [text](https://…) — kept as its text. Not single * or _ (5 * 3, __init__, snake_case), not
 * backticks, not "95**" masking digits (a search result's "（95**）、…（70**）").
 *
 * Done, it is done: reducing its own output again changes nothing (a backup restored keeps its
 * bodies) — each drop can bare another ("**[a](https://x/a*b)**": the link's address held the *
 * the pair's words may not), so the passes repeat until nothing changes, at most MAX_PASSES, and a
 * text that changes still after them is kept as it came (markdownToText returns null). Linear in the
 * text each pass: a link's text holds no [ of its own, a pair's words no *, so no mark is scanned
 * from more than once (a body of a million "[" had held the event loop half a second: a review).
 */
// Beside a letter or digit the marks are no pair (a** b**), but Chinese and Japanese write no spaces
// between words: "专注**猫和狗**的诊疗" is bold (a pet hospital's walkthrough had shown followers the marks).
// The words between open and close on no punctuation but a bracket or quote: "王**、李**、张**" masks
// names, the marks beside the 、 open nothing (a review: it had read "王、李、张**").
const OPENS = "(?=[^\\s*<>\\p{P}]|[\\[(（“\"「『‘'])";
const CLOSES = "(?<=[^\\s*<>\\p{P}]|[\\])）”\"」』’'.!?。！？])";
const GLUED = "(?![\\p{sc=Han}\\p{sc=Hira}\\p{sc=Kana}])\\p{L}";
const BOLD = new RegExp(`(?<![*\\p{N}])(?<!${GLUED})\\*\\*${OPENS}([^*\\n<>]{1,400}?)${CLOSES}\\*\\*(?![*\\p{N}])(?!${GLUED})`, "gu");
const LINK = /!?\[([^[\]\n*<>]{1,400})\]\((?:https?:\/\/|mailto:|\/)[^()\s<>]{0,2000}\)/gu;
const HEADING = /^(?:#{1,6}[ \t]+)+(?=\S)/gmu;
const MAX_PASSES = 4;

/** Whether `text` may hold a mark to drop: what the passes look for at all. */
export const mayHoldMarkdown = (text: string): boolean => text.includes("**") || text.includes("](") || text.includes("#");

/** `text` without its marks; null when the passes would not settle (nothing is dropped then). */
export function markdownToText(text: string): string | null {
  if (!mayHoldMarkdown(text)) return text;
  let now = text;
  for (let pass = 0; pass < MAX_PASSES; pass++) {
    const next = now.replace(BOLD, "$1").replace(LINK, "$1").replace(HEADING, "");
    if (next === now) return now;
    now = next;
  }
  return null;
}
