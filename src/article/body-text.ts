/**
 * An article's body as it is kept: plain text. Operators paste bodies from their CMS or the
 * platform's editor, as HTML more often than not; replyd keeps the words and the paragraphs, not
 * the markup, so that passages can be cut and shown to followers as they read.
 *
 * Text counts as HTML when it holds a tag (`<p>`, `</div>`, `<br/>`, `<!-- -->`); anything else is
 * kept as given, `<` and `&` included ("a < b", "AT&T" are words), but for Markdown's marks
 * (markdown.ts: a heading's #s, ** around words, [text](https://…)), dropped from HTML's text too. Reducing HTML
 * (article/html-reduction.ts) drops the tags; what a reader never sees: the contents of script, style and
 * the like, comments, and elements hidden by their attributes (article/html-hidden.ts); decodes character
 * references; turns block elements and `<br>` into line breaks, a paragraph's end into a blank
 * line; and collapses the white space HTML ignores.
 *
 * Reduced text never reads as HTML: a "<" in it that would start a tag (`&lt;p&gt;` decoded, or
 * `&lt;&#115;cript&gt;`, or a "<" left beside a dropped tag) is written `&lt;`. So reducing kept
 * text gives it back unchanged, and a backup restored keeps its bodies byte for byte.
 *
 * Linear in the input, whatever it holds (a million "<a" without a ">", a million nested
 * elements): bodies arrive by the thousand in an import. bodyTextSliced() does the same work a
 * slice at a time, for the server's event loop.
 */
import { HtmlReduction, htmlToText, TAG_START } from "./html-reduction.ts";
import type { Slices } from "../base/slices.ts";
import { markdownToText, mayHoldMarkdown } from "./markdown.ts";

export { mayHoldMarkdown };

export { htmlToText };

/** Whether `text` is HTML to reduce: it holds a tag, a comment or a declaration. */
export const looksLikeHtml = (text: string): boolean => {
  const i = text.search(TAG_START);
  return i >= 0 && text.indexOf(">", i) > i;
};

const withLineFeeds = (raw: string) => (raw.includes("\r") ? raw.replace(/\r\n?/g, "\n") : raw);

/** A body as it is kept: HTML reduced to text, Markdown's marks dropped (markdown.ts), line ends as "\n"; plain text otherwise unchanged. */
export function bodyText(raw: string): string {
  const text = withLineFeeds(raw);
  return withoutMarkdown(looksLikeHtml(text) ? htmlToText(text) : text);
}

/**
 * Markdown's marks dropped — or none of them, the text as it was, when dropping them would make a
 * tag of what was none ("a<[b](https://x)c>") or would not settle (markdown.ts).
 */
function withoutMarkdown(text: string): string {
  const plain = markdownToText(text);
  return plain === null || (plain !== text && looksLikeHtml(plain)) ? text : plain;
}

/** bodyText(), reduced a slice at a time: the event loop is given back whenever `slices` says. */
export async function bodyTextSliced(raw: string, slices: Slices): Promise<string> {
  const text = withLineFeeds(raw);
  if (!looksLikeHtml(text)) return withoutMarkdown(text);
  let reduction = new HtmlReduction(text);
  while (!reduction.step(() => slices.spent)) await slices.pause();
  // A page whose frame is all there is: the frame is the text (html-reduction.ts pageFrame).
  if (reduction.text() === "" && reduction.frame) {
    reduction = new HtmlReduction(text, { frame: false });
    while (!reduction.step(() => slices.spent)) await slices.pause();
  }
  return withoutMarkdown(reduction.text());
}
