/** What a follower is shown of a model's markup: tags removed to a fixed point, references decoded, Markdown reduced, invisible characters gone. */
import { expect, test } from "bun:test";
import { checkOutput, shownText } from "../../src/llm/output/check.ts";
import { MARKUP_ROUNDS, neutralise } from "../../src/llm/output/markup.ts";
import type { Source } from "../../src/llm/prompt.ts";

const SOURCES: Source[] = [{ n: 1, id: "refund", title: "售后政策", url: "https://example.com/refund", passages: ["本店支持七天无理由退货。"] }];
const shown = (answer: string) => {
  const c = checkOutput(answer, SOURCES, { secrets: [], instructions: "Answer from the sources.", canary: "c0ffee123456", question: "还能退吗", maxBytes: 1848 });
  if (!c.ok) throw new Error(`refused: ${c.reason}`);
  return c.text.split("\n\n[1] ")[0] as string;
};

test("a tag rebuilt by removing another is removed too, with its link: nothing of it reaches the follower", () => {
  // (A link no given article has, in a tag, is refused as foreign_link: check.test.ts.)
  expect(shown('<<a>a href="https://example.com/refund">退款<</a>/a>[1]')).toBe("退款[1]");
  expect(shown("<<b>script>alert(1)<</b>/script>可以退[1]")).toBe("可以退[1]");
  expect(shown("<<b>b>点我<</b>/b>退款[1]")).toBe("点我退款[1]");
  // A mini program's tag leaves its words only (the checks refuse its link before: check.test.ts).
  expect(shownText('<a data-miniprogram-appid="wx123" data-miniprogram-path="pages/x">点我</a>退款[1]')).toBe("点我退款[1]");
});

test("<script>…</script> leaves nothing; an unclosed one takes the rest with it", () => {
  expect(shown("<script>x</script>可以退[1]")).toBe("可以退[1]");
  expect(shown("可以退[1]<style>p{}</style>")).toBe("可以退[1]");
  expect(shown("可以退[1]<script>alert(1)")).toBe("可以退[1]");
});

test("a reference that decodes into a tag is removed as the tag; deeper than the rounds, what is left is no tag", () => {
  // (A tag's link no given article has is refused as foreign_link: check.test.ts.)
  expect(shown("&lt;a href=https://example.com/refund&gt;退款&lt;/a&gt;[1]")).toBe("退款[1]");
  expect(shown("&amp;lt;b&amp;gt;退款[1]")).toBe("退款[1]");
  // Nested past MARKUP_ROUNDS: neutralised, never a "<" before a letter, never an "&" before a reference.
  const deep = `${"<".repeat(MARKUP_ROUNDS + 2)}a${">a".repeat(MARKUP_ROUNDS + 2)} href=x>退款 &amp;${"amp;".repeat(MARKUP_ROUNDS + 2)}lt;a[1]`;
  const out = neutralise(shownText(deep));
  expect(out).not.toMatch(/<[A-Za-z/!?]/);
  expect(out).not.toMatch(/&#?[A-Za-z0-9]+;/);
  expect(neutralise("<a &lt; <3 a < b")).toBe("＜a ＆lt; <3 a < b");
  // HTML decodes &lt without its semicolon, even before a letter.
  expect(neutralise("&lta href=x> AT&T")).toBe("＆lta href=x> AT&T");
});

test("Markdown tables, strike-through and footnotes are reduced to text", () => {
  expect(shownText("| 商品 | 价格 |\n|:---|---:|\n| 书 | 10 |")).toBe("商品 价格\n书 10");
  expect(shownText("~~原价~~ 现价")).toBe("原价 现价");
  // A footnote reference that is a number is a citation.
  expect(shownText("七天可退[^1]。\n\n[^1]: 见售后政策")).toBe("七天可退[1]。\n\n见售后政策");
  expect(shownText("七天可退[^note]。")).toBe("七天可退。");
  expect(shownText("## 退款\n\n**七天**内可以 *申请*，见 `订单页`。\n\n* 一\n+ 二\n> 引用\n\n---\n<b>完</b>")).toBe("退款\n\n七天内可以 申请，见 订单页。\n\n- 一\n- 二\n引用\n\n完");
  expect(shownText("```\ncode\n```")).toBe("code");
  expect(shownText("![img](https://x/y.png)文字")).toBe("文字");
  // A lone * between words or spaces, and snake_case, are not emphasis.
  expect(shownText("2*3 and a * b, my_var_name")).toBe("2*3 and a * b, my_var_name");
});

test("Chinese punctuation reaches the follower as written (only the checks read the folded text)", () => {
  expect(shown("可以，签收后七天内（含）申请：见订单页！[1]")).toBe("可以，签收后七天内（含）申请：见订单页！[1]");
});

test("zero-width, bidi-override and isolate characters and the BOM never reach a follower; nor controls or lone surrogates", () => {
  const invisible = ["\u200b", "\u200c", "\u200d", "\u200e", "\u200f", "\u202a", "\u202b", "\u202c", "\u202d", "\u202e", "\u2066", "\u2067", "\u2068", "\u2069", "\u061c", "\ufeff", "\u2060", "\u{e0041}", "\ufe0f", "\u0000", "\u001b", "\u007f", "\ud800"];
  for (const ch of invisible) expect(shown(`可以${ch}退[1]`)).toBe("可以退[1]");
  expect(shownText("a\u0000b\u001bc\ud800d")).toBe("abcd");
});
