/**
 * Markdown's marks dropped from bodies (src/article/markdown.ts, through body-text.ts): from text
 * made of the marks themselves, reducing twice gives what reducing once gave, and what is kept
 * never reads as HTML — a backup restored keeps its bodies.
 */
import { expect, test } from "bun:test";
import fc from "fast-check";
import { bodyText, looksLikeHtml } from "../../src/article/body-text.ts";
import { markdownToText } from "../../src/article/markdown.ts";

const PIECES = ["**", "*", "#", "# ", "## ", "[", "]", "(", ")", "](", "https://x.example/a", "https://x/a*b", "https://x/a<b", `https://x/${"y".repeat(420)}`, "**[", ")**", "mailto:a@b", "/p", "!", "<", ">", "p", "a", "字", "5", " ", "\n", "_", "`", "<p>", "</b>"];
const markdownish = fc.array(fc.constantFrom(...PIECES), { maxLength: 40 }).map((parts) => parts.join(""));

test("Markdown reduced twice gives what reducing once gave; kept text never reads as HTML", () => {
  fc.assert(
    fc.property(markdownish, (text) => {
      const once = bodyText(text);
      expect(bodyText(once)).toBe(once);
      const plain = markdownToText(text);
      if (plain !== null) expect(markdownToText(plain)).toBe(plain);
      if (!looksLikeHtml(text)) expect(looksLikeHtml(once)).toBe(false);
    }),
    { numRuns: 5000 },
  );
});
