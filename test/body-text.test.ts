/** An article's body as kept (src/article/body-text.ts) and the field's check (article/fields.ts). */
import { describe, expect, test } from "bun:test";
import { validateArticle } from "../src/article/article.ts";
import { bodyText, bodyTextSliced, htmlToText, looksLikeHtml } from "../src/article/body-text.ts";
import { Slices } from "../src/base/slices.ts";
import { CountedSlices, watchingLoop } from "./loop.ts";

const checked = (body: unknown) => validateArticle({ title: "t", url: "https://e.com/", body });

describe("HTML reduced to text", () => {
  test("tags dropped, entities decoded, paragraphs kept as blank lines, <br> and list items as lines", () => {
    expect(bodyText("<p>退货政策：</p><p>7 天内&nbsp;可以&amp;退款。</p>")).toBe("退货政策：\n\n7 天内 可以&退款。");
    expect(bodyText("<div>one<br>two</div><ul><li>a</li><li>b</li></ul><p>end</p>")).toBe("one\ntwo\n\na\nb\n\nend");
    expect(bodyText("<h1>Title</h1>text")).toBe("Title\n\ntext");
    expect(bodyText("&#36864;&#x6B3E; &eacute;<b>x</b> &notaname; &rarr")).toBe("退款 éx &notaname; &rarr"); // a name HTML does not define, or unended, stays as written
  });

  test("every name HTML defines is decoded, the longest too, and one split across the reducer's chunks", () => {
    // A bike share's help-centre export: "Leeds Station &rarr; Kirkstall Abbey" had reached followers as written.
    expect(bodyText("<p>Leeds Station &rarr; Kirkstall Abbey &larr; &check; &frac12; &Auml;&auml; &CounterClockwiseContourIntegral;</p>")).toBe("Leeds Station → Kirkstall Abbey ← ✓ ½ Ää ∳");
    // Where replyd reads otherwise than HTML: a space of any width a space, a soft hyphen nothing, a capitalised name as its own.
    expect(bodyText("<p>a&emsp;b&shy;c &NBSP;d &Hellip;</p>")).toBe("a bc d …");
    // Every other name of a space a space, of nothing visible nothing (a review: &NonBreakingSpace; had kept U+00A0).
    expect(bodyText("<p>a&NonBreakingSpace;b&ZeroWidthSpace;c&ThinSpace;d</p>")).toBe("a bc d");
    const long = "&CounterClockwiseContourIntegral;";
    for (let at = 1; at < long.length; at++) {
      const html = `<p>${"x".repeat(16 * 1024 - at)}${long}y</p>`;
      expect(bodyText(html).endsWith("x∳y")).toBe(true);
    }
  });

  test("what a reader never sees is dropped: scripts, styles, comments, the head, declarations", () => {
    expect(bodyText("<!DOCTYPE html><html><head><title>t</title><style>p{color:red}</style></head><body><!-- note --><p>seen</p><script>alert('<p>')</script></body></html>")).toBe("seen");
  });

  test("a whole page's frame is dropped: its nav, header and footer outside its main or article; inside them, and on a page that marks no content, kept; a frame that would leave nothing stays", async () => {
    // A theatre's saved "Getting here" page had sent followers its menu and its charity line (a walkthrough).
    const page = "<body><header><a href='/'>The Lyric</a><nav><a>Home</a> <a>What's On</a></nav></header><main><h1>Getting here</h1><p>We are at 14 Market Street.</p></main><footer>© 2026 The Lyric Theatre Trust</footer></body>";
    expect(bodyText(page)).toBe("Getting here\n\nWe are at 14 Market Street.");
    expect(await bodyTextSliced(page, new Slices())).toBe("Getting here\n\nWe are at 14 Market Street.");
    expect(await bodyTextSliced("<html><body><header>Parking: free after 6pm.</header><main></main></body></html>", new Slices())).toBe("Parking: free after 6pm.");
    expect(bodyText("<html><body><article><header><h1>Parking</h1></header><p>Free after 6pm.</p><footer>Questions? Call 0800 123 456.</footer></article></body></html>")).toBe("Parking\n\nFree after 6pm.\n\nQuestions? Call 0800 123 456.");
    // A fragment, or a page marking no main content (div role=main, section headers): every word kept (a review).
    expect(bodyText("<header>Delivery</header><p>Orders ship in 2 days.</p><footer>Call 0800 123 456.</footer>")).toBe("Delivery\n\nOrders ship in 2 days.\n\nCall 0800 123 456.");
    expect(bodyText('<html><body><div role="main"><header><h2>Opening hours</h2></header><p>Open 9–5 daily.</p></div></body></html>')).toBe("Opening hours\n\nOpen 9–5 daily.");
    // Its frame all a page holds: the frame is the text.
    expect(bodyText("<html><body><header>Parking: free after 6pm.</header><main></main></body></html>")).toBe("Parking: free after 6pm.");
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

  test("references that decode into a tag a character at a time stay text: reduced again, the kept text is unchanged", () => {
    // Before: "&#115;" decoded after "&lt;" had been let through, the kept text read <script>…</script>,
    // and reducing it again (a restore) cut it to "Tip:  ends.".
    const kept = bodyText("<p>Tip: &lt;&#115;cript&gt;alert(1)&lt;/&#115;cript&gt; ends.</p>");
    expect(kept).toBe("Tip: &lt;script>alert(1)&lt;/script> ends.");
    expect(Buffer.byteLength(kept)).toBe(42);
    expect(bodyText(kept)).toBe(kept);
    // A "<" and a letter that meet only once a tag between them is dropped, or a reference that stands for nothing.
    expect(bodyText("<p>&lt;<b></b>p&gt;x</p>")).toBe("&lt;p>x");
    expect(bodyText("<p>&lt;&shy;p&gt;x</p>")).toBe("&lt;p>x");
    expect(bodyText("<p><&#112;>x</p>")).toBe("&lt;p>x");
    // One pass: what a reference decodes to is not decoded again.
    expect(bodyText("<p>&amp;lt;p&amp;gt; &amp;amp;</p>")).toBe("&lt;p&gt; &amp;");
    for (const html of ["<p>&amp;lt;p&amp;gt;</p>", "<p>&#60;!-- x --&#62;</p>", "<p>&lt;!DOCTYPE&gt;</p>", "<p>&LT;/p&GT;</p>", "<b>&#x3C;?php?&#x3e;</b>"]) {
      const once = bodyText(html);
      expect(looksLikeHtml(once)).toBe(false);
      expect(bodyText(once)).toBe(once);
    }
  });

  test("references to control characters or surrogates are not decoded into them", () => {
    expect(bodyText("<p>&#27;[2J&#xD800;&#0;</p>")).toBe("\ufffd[2J\ufffd\ufffd");
  });

  // Each would take quadratic time to a naive scanner: at these sizes that is minutes, past the test's limit.
  test("input that never closes its tags is read once: 300,000 '<a ' with no '>', unclosed quotes, unclosed scripts", () => {
    expect(htmlToText("<p>x</p>" + "<a ".repeat(300_000))).toBe("x\n\n" + "&lt;a ".repeat(300_000).trim());
    expect(htmlToText('<a title="'.repeat(100_000)).startsWith('&lt;a title="')).toBe(true);
    expect(htmlToText("<p>x</p>" + "<script>".repeat(100_000))).toBe("x");
    expect(htmlToText("<pre>" + " ".repeat(1_000_000) + "x</pre>")).toBe("x");
  });
});

describe("reduced a slice at a time", () => {
  const MIB = 1 << 20;
  const fill = (s: string) => s.repeat(Math.floor(MIB / s.length));
  /** 1 MiB bodies each costing tens of milliseconds at once: nested, hidden, paragraphs, references, <pre> lines, unclosed tags. */
  const BODIES = [fill("<b>"), fill("<div hidden>"), fill("<p>a</p>"), "<p>" + fill("&lt;"), "<pre>" + fill("a \n"), fill('<a style="color:red">x'), "<p>x</p>" + fill("<a ")];

  test("the event loop runs between slices, never held 50 ms (measured by a timer that runs whenever it is free); the text is what bodyText() gives", async () => {
    const { value: kept, longestMs } = await watchingLoop(async () => {
      const kept: string[] = [];
      for (const body of BODIES) kept.push(await bodyTextSliced(body, new Slices()));
      return kept;
    });
    expect(longestMs).toBeLessThan(50);
    expect(kept).toEqual(BODIES.map(bodyText));
  });

  // Counted, not timed: a clock that is the count of asks says the same on a fast machine and a slow one.
  test("each 1 MiB body asks whether to pause at least 64 times (16 KiB apart on average), and pauses when told; the text is what bodyText() gives", async () => {
    for (const body of BODIES) {
      const slices = new CountedSlices(8);
      expect(await bodyTextSliced(body, slices)).toBe(bodyText(body));
      expect(slices.asks).toBeGreaterThanOrEqual(MIB / (16 * 1024));
      // A pause reads the clock three times besides the eight asks of its slice.
      expect(slices.pauses).toBeGreaterThanOrEqual(Math.floor(slices.asks / 11) - 1);
    }
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

  test("1 MiB of UTF-8 as sent, in a document as in a file part: exactly that is taken, one byte more refused before it is reduced", () => {
    const mib = 1 << 20;
    const words = "w".repeat(60_000);
    const at = `<p>${words}</p><!--${"c".repeat(mib - words.length - 14)}-->`;
    expect(Buffer.byteLength(at)).toBe(mib);
    expect(checked(at).value?.body).toBe(words);
    const over = checked(at + " ").problems[0];
    expect(over).toMatchObject({ field: "body" });
    expect(over?.reason).toContain("1 MiB");
    expect(over?.reason).toContain("1048577 bytes");
    // Bytes, not characters: 349,526 characters of three bytes each.
    const wide = "<p>" + "退".repeat(349_525) + "</p>";
    expect(wide.length).toBeLessThan(mib);
    expect(checked(wide).problems[0]?.reason).toContain("as sent");
  });

  test("control characters and lone surrogates refused; tabs and line breaks kept", () => {
    expect(checked("a\u001b[2Jb").problems[0]).toMatchObject({ field: "body" });
    expect(checked("a\ud800b").problems[0]).toMatchObject({ field: "body" });
    expect(checked("a\tb\nc").value?.body).toBe("a\tb\nc");
  });
});

test("Markdown's marks are dropped: a heading's #s, ** around words, a link or image as its text; not single *, _, backticks, masked digits or a # in a word", () => {
  // A bookkeeping app's walkthrough: a card had shown "# Importing…" and "**customers**".
  expect(bodyText("# Importing from QuickBooks\n\nBring your **customers**, **suppliers** and [open invoices](https://help.example/invoices).\n\n## Steps\n- Go to **Settings → Import**\n![the import screen](/img/import.png)")).toBe(
    "Importing from QuickBooks\n\nBring your customers, suppliers and open invoices.\n\nSteps\n- Go to Settings → Import\nthe import screen",
  );
  expect(bodyText("**注意**：私密笔记不能导出。")).toBe("注意：私密笔记不能导出。");
  // Chinese and Japanese write no spaces between words: a pair between their characters is bold too (a pet hospital's walkthrough).
  expect(bodyText("医生专注**猫和狗**的诊疗。目前**不接诊**兔子")).toBe("医生专注猫和狗的诊疗。目前不接诊兔子");
  expect(bodyText("日本語**太字**です")).toBe("日本語太字です");
  // Beside a Latin letter or a digit still no pair.
  for (const text of ["a**b**c", "价格**元", "5**2**3", "é**x**é"]) expect(bodyText(text)).toBe(text);
  // Masked names: marks beside punctuation open nothing (a review: "王**、李**、张**" had lost its masks).
  for (const text of ["王**、李**、张**", "获奖名单：陈**，刘**。"]) expect(bodyText(text)).toBe(text);
  expect(bodyText("**“引号”**与**注意**：")).toBe("“引号”与注意：");
  // Within HTML's text too: the kept text holds no Markdown to reduce again.
  expect(bodyText("<p>Use **Forgot password**</p>")).toBe("Use Forgot password");
  for (const text of ["5 * 3 * 2", "call __init__ first", "run `ls -l`", "富豪B9TL11米（95**）、亚历山大（70**）", "C# and F#", "#1 best seller", "ticket #2", "a ** b", "** x", "[not a link](ftp://x)", "see [1] (below)"]) expect(bodyText(text)).toBe(text);
  // A link dropped that would make a tag of what was none: the text kept as it was.
  expect(bodyText("a<[b](https://x.example)c>")).toBe("a<[b](https://x.example)c>");
  // A link whose address holds a * inside a pair: both dropped, and dropped once is done (a review: the pair went only on a second write).
  for (const text of ["**Fill in [the form](https://x.example/a*b)** before you come.", `**Read [this](https://x.example/${"y".repeat(450)})** first`]) {
    const once = bodyText(text);
    expect(once).not.toContain("**");
    expect(bodyText(once)).toBe(once);
  }
});
