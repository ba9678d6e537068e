/**
 * Bodies reduced from generated HTML (src/article/body-text.ts): reducing twice gives what reducing once
 * gave, what is kept never reads as HTML, and a reduction stopped at every place it may stop gives
 * what one run at once gives.
 */
import { expect, test } from "bun:test";
import fc from "fast-check";
import { bodyText, looksLikeHtml } from "../../src/article/body-text.ts";
import { HtmlReduction, htmlToText } from "../../src/article/html-reduction.ts";
import { htmlArb } from "./arbitraries.ts";

test("reducing a body twice gives what reducing it once gave, and what is kept never reads as HTML", () => {
  fc.assert(
    fc.property(htmlArb, (html) => {
      const once = bodyText(html);
      expect(looksLikeHtml(once)).toBe(false);
      expect(bodyText(once)).toBe(once);
    }),
    { numRuns: 3000 },
  );
});

test("a reduction stopped after every tag and every 20 characters of text gives what it gives run at once", () => {
  fc.assert(
    fc.property(htmlArb, htmlArb, (a, b) => {
      // Long runs of text, for the chunks to cut.
      const html = a + "x ".repeat(30) + "&amp;&lt;&#115;".repeat(5) + b;
      const reduction = new HtmlReduction(html, { tagsPerLook: 1, chunk: 1 });
      let steps = 0;
      while (!reduction.step(() => true)) steps++;
      expect(reduction.text()).toBe(htmlToText(html));
      expect(steps).toBeGreaterThan(0);
    }),
    { numRuns: 1500 },
  );
});
