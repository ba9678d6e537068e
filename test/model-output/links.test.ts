/** The link check on its own: every spelling of a link that is not a given article's is refused; words that only look like one pass. */
import { expect, test } from "bun:test";
import { checkOutput } from "../../src/model-output/check.ts";
import { findLinks } from "../../src/model-output/links.ts";
import type { Source } from "../../src/model-prompt.ts";

const SOURCES: Source[] = [{ n: 1, id: "refund", title: "售后政策", url: "https://example.com/refund", passages: ["本店支持七天无理由退货，详见帮助中心 help.example.com。"] }];
const check = (answer: string) => checkOutput(answer, SOURCES, { secrets: [], instructions: "Answer from the sources.", canary: "c0ffee123456", question: "还能退吗", maxBytes: 1848 });

// Each reached a follower with a [1] before: the list, one case each.
const FOREIGN: [string, string][] = [
  ["a bare host", "退款请到 evil.example 办理[1]"],
  ["a host with spaced dots", "退款请到 evil . example 办理[1]"],
  ["a host with a path", "退款请到 evil.example/refund 办理[1]"],
  ["a punycode host", "请访问 xn--80ak6aa92e.com[1]"],
  ["a host in Chinese", "请访问 例子.测试 办理[1]"],
  ["a full-width scheme and slashes", "请访问 ｈｔｔｐ：／／evil.example[1]"],
  ["full-width www", "请访问 ｗｗｗ.evil.example[1]"],
  ["a zero-width space inside the scheme", "请访问 ht\u200btp://evil.example[1]"],
  ["a scheme with a letter before it", "请访问 xhttp://evil.example[1]"],
  ["a scheme with a digit before it", "请访问 1https://evil.example[1]"],
  ["a scheme with an underscore before it", "请访问 _https://evil.example[1]"],
  ["a protocol-relative address", "请访问 //evil.example/r[1]"],
  ["a defanged scheme", "请访问 hxxp://evil[.]example[1]"],
  ["ftp", "资料在 ftp://files.evil/x[1]"],
  ["javascript", "点这里 javascript:alert(document.cookie)[1]"],
  ["weixin", "打开 weixin://dl/business/?t=evil[1]"],
  ["a Markdown link to a bare host", "[点此](evil.example/x)退款[1]"],
  ["a defanged dot", "请访问 evil[.]example[1]"],
  ["an IP address", "请访问 203.0.113.9/refund[1]"],
  ["a backslash scheme", "请访问 http:\\\\evil.example[1]"],
  ["an ideographic full stop between Latin labels", "请访问 evil。example[1]"],
  ["a host spelled with character references", "请访问 evil&#46;example[1]"],
  ["a dot spaced before only", "请访问 evil .example[1]"],
  ["a dot spaced after only, before a common top-level name", "请访问 evil. com[1]"],
  ["a dot spaced wide", "请访问 evil    .    example[1]"],
  ["a defanged dot with spaces", "请访问 evil [.] com[1]"],
  ["a dot in Chinese brackets", "请访问 evil【.】com[1]"],
  ["a dot in angle brackets", "请访问 evil<.>com[1]"],
  ["dot spelled out", "请访问 evil dot com[1]"],
  ["点 spelled out", "请访问 evil 点 com[1]"],
  ["点 in brackets", "请访问 evil(点)com[1]"],
  ["a middle dot", "请访问 evil·com[1]"],
  ["a hyphenation point", "请访问 evil‧com[1]"],
  ["a top-level name in capitals", "请访问 evil.COM[1]"],
  ["a geo: scheme", "我们在 geo:37.78,-122.41[1]"],
];

for (const [name, answer] of FOREIGN)
  test(`refused as foreign_link: ${name}`, () => {
    expect(check(answer)).toMatchObject({ ok: false, reason: "foreign_link" });
  });

test("a given article's link, in any spelling, cites it and is listed once after the answer", () => {
  for (const spelled of ["https://example.com/refund", "HTTPS://EXAMPLE.COM/refund/", "example.com/refund", "ｈｔｔｐｓ：／／example.com/refund"]) {
    const c = check(`可以退，见 ${spelled} 。`);
    expect(c).toMatchObject({ ok: true, cited: [SOURCES[0]] });
    if (c.ok) expect(c.text).toBe("可以退，见。\n\n[1] 售后政策\nhttps://example.com/refund");
  }
});

test("a host the passages write, and the articles' own site, pass as text", () => {
  expect(check("请到 help.example.com 查看。[1]")).toMatchObject({ ok: true });
  expect(check("请到 example.com 查看。[1]")).toMatchObject({ ok: true });
});

test("words that only look like links pass: abbreviations, decimals, versions, numbered lists, sentences, names, files", () => {
  for (const text of [
    "e.g. 退货 i.e. 换货[1]",
    "3.5 倍的 1.5 v2.0 No.1[1]",
    "1.退货流程 2.换货流程[1]",
    "Returns are free. Shipping takes time.[1]",
    "价格是 10.5。[1]",
    "可以退货.请联系客服[1]",
    "A.退货 B.换货[1]",
    "第一步.登录[1]",
    "iOS.Android Mr.Smith free.Shipping[1]",
    "张三·李四[1]",
    "下载 report.pdf 或 form.docx[1]",
    "end. so we go. to the shop[1]",
  ])
    expect({ text, links: findLinks(text) }).toEqual({ text, links: [] });
});

test("a link the passages write passes in any spelling of its scheme, and a part of it; a name that only contains it does not", () => {
  // The passage writes help.example.com; the article is at example.com/refund.
  expect(check("请到 https://help.example.com 查看。[1]")).toMatchObject({ ok: true });
  expect(check("请到 help.example.com/ 查看。[1]")).toMatchObject({ ok: true });
  for (const longer of ["请到 p-example.com 查看。[1]", "请到 e.com 查看。[1]", "请到 elp.example.com 查看。[1]", "请到 help.example.com.evil 查看。[1]"])
    expect({ longer, c: check(longer) }).toMatchObject({ longer, c: { ok: false, reason: "foreign_link" } });
});

test("findLinks: the whole address, trailing punctuation left to the sentence", () => {
  expect(findLinks("see https://evil.example/a?b=1, then").map((l) => l.text)).toEqual(["https://evil.example/a?b=1"]);
  expect(findLinks("请访问evil.example。").map((l) => l.text)).toEqual(["evil.example"]);
  // One address, however many dots; a one-letter "top-level" label is none.
  expect(findLinks("a.b.c.d.example and x.y").map((l) => l.text)).toEqual(["a.b.c.d.example"]);
});
