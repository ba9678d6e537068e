/** An article's body as kept (src/body-text.ts) and the field's check (article-fields.ts). */
import { describe, expect, test } from "bun:test";
import { validateArticle } from "../src/article.ts";
import { bodyText, htmlToText, looksLikeHtml } from "../src/body-text.ts";

const checked = (body: unknown) => validateArticle({ title: "t", url: "https://e.com/", body });

describe("HTML reduced to text", () => {
  test("tags dropped, entities decoded, paragraphs kept as blank lines, <br> and list items as lines", () => {
    expect(bodyText("<p>退货政策：</p><p>7 天内&nbsp;可以&amp;退款。</p>")).toBe("退货政策：\n\n7 天内 可以&退款。");
    expect(bodyText("<div>one<br>two</div><ul><li>a</li><li>b</li></ul><p>end</p>")).toBe("one\ntwo\n\na\nb\n\nend");
    expect(bodyText("<h1>Title</h1>text")).toBe("Title\n\ntext");
    expect(bodyText("&#36864;&#x6B3E; &eacute;<b>x</b>")).toBe("退款 &eacute;x"); // unknown names stay as written
  });

  test("what a reader never sees is dropped: scripts, styles, comments, the head, declarations", () => {
    expect(bodyText("<!DOCTYPE html><html><head><title>t</title><style>p{color:red}</style></head><body><!-- note --><p>seen</p><script>alert('<p>')</script></body></html>")).toBe("seen");
  });

  test("HTML's white space is one space; <pre> keeps its lines", () => {
    expect(bodyText("<p>  many    spaces\n  here </p>")).toBe("many spaces here");
    expect(bodyText("<p>a</p><pre>x = 1\n    y = 2</pre><p>b</p>")).toBe("a\n\nx = 1\n    y = 2\n\nb");
  });

  test("an attribute holding > or a quote does not end the tag early", () => {
    expect(bodyText('<a href="x>y" title=\'it"s\'>link</a> text')).toBe("link text");
  });

  test("plain text is kept exactly: < and & are words when no tag is there", () => {
    for (const plain of ["a < b and AT&T &amp; co", "1 <2 >0", "第一段\n\n第二段", "x <- y"]) expect(bodyText(plain)).toBe(plain);
    expect(looksLikeHtml("a < b > c")).toBe(false);
    expect(looksLikeHtml("a <b> c")).toBe(true);
  });

  test("line ends become \\n in plain text too", () => {
    expect(bodyText("one\r\ntwo\rthree")).toBe("one\ntwo\nthree");
  });

  test("reduced text reduces to itself: an escaped tag stays escaped (a restored backup keeps its bodies)", () => {
    const inputs = ["<p>write &lt;p&gt; for a paragraph, 1 &lt; 2</p>", "<p>a</p><p>b &amp;lt;</p>", "<div>&lt;/div&gt;&lt;!-- x</div>"];
    for (const html of inputs) {
      const once = bodyText(html);
      expect(bodyText(once)).toBe(once);
    }
    expect(bodyText("<p>write &lt;p&gt; for a paragraph, 1 &lt; 2</p>")).toBe("write &lt;p> for a paragraph, 1 < 2");
  });

  test("references to control characters or surrogates are not decoded into them", () => {
    expect(bodyText("<p>&#27;[2J&#xD800;&#0;</p>")).toBe("\ufffd[2J\ufffd\ufffd");
  });

  // Each would take quadratic time to a naive scanner: at these sizes that is minutes, past the test's limit.
  test("input that never closes its tags is read once: 300,000 '<a ' with no '>', unclosed quotes, unclosed scripts", () => {
    expect(htmlToText("<p>x</p>" + "<a ".repeat(300_000))).toBe("x\n\n" + "<a ".repeat(300_000).trim());
    expect(htmlToText('<a title="'.repeat(100_000)).startsWith('<a title="')).toBe(true);
    expect(htmlToText("<p>x</p>" + "<script>".repeat(100_000))).toBe("x");
    expect(htmlToText("<pre>" + " ".repeat(1_000_000) + "x</pre>")).toBe("x");
  });
});

describe("the body field", () => {
  test("optional, kept as text; null is empty", () => {
    expect(validateArticle({ title: "t", url: "https://e.com/" }).value?.body).toBeUndefined();
    expect(checked(null).value?.body).toBe("");
    expect(checked("<p>hi</p>").value?.body).toBe("hi");
    expect(checked(7).problems[0]).toMatchObject({ field: "body", reason: "must be a string" });
  });

  test("64 KiB of UTF-8 as kept: exactly that is taken, one byte more refused, saying so", () => {
    const max = "退".repeat(21_845) + "x"; // 65,535 + 1 bytes
    expect(Buffer.byteLength(max)).toBe(65_536);
    expect(checked(max).value?.body).toBe(max);
    const over = max + "x";
    expect(checked(over).problems[0]).toMatchObject({ field: "body" });
    expect(checked(over).problems[0]?.reason).toContain("64 KiB");
    expect(checked(over).problems[0]?.reason).toContain("65537 bytes");
  });

  test("the limit applies to the text kept: markup around 64 KiB of words does not count", () => {
    const words = "x".repeat(65_536);
    expect(checked(`<div class="article-body"><p>${words}</p></div>`).value?.body).toBe(words);
    expect(checked(`<p>${words}x</p>`).problems[0]?.reason).toContain("once its HTML is reduced");
  });

  test("control characters and lone surrogates refused; tabs and line breaks kept", () => {
    expect(checked("a\u001b[2Jb").problems[0]).toMatchObject({ field: "body" });
    expect(checked("a\ud800b").problems[0]).toMatchObject({ field: "body" });
    expect(checked("a\tb\nc").value?.body).toBe("a\tb\nc");
  });
});
