/** What a model wrote, checked before a follower sees it: each layer on its own, at its bounds. */
import { expect, test } from "bun:test";
import { checkOutput, cutAtSentence, ECHO_RUN, holdsRun, shownText as plainText, SECRET_RUN } from "../../src/llm/output/check.ts";
import { instructions, promptFor, sourcesOf, PROMPT_LIMITS, type Source } from "../../src/llm/prompt.ts";

const SOURCES: Source[] = [
  { n: 1, id: "refund", title: "售后政策", url: "https://example.com/refund", passages: ["本店支持七天无理由退货。"] },
  { n: 2, id: "ship", title: "配送说明", url: "https://example.com/ship", passages: ["下单后四十八小时内发货。"] },
];
const CANARY = "c0ffee123456";
const RULES = instructions(CANARY);
const KEY = "sk-live-abcdefghijklmnop0123";
const check = (raw: string, maxBytes = 2048) => checkOutput(raw, SOURCES, { secrets: [KEY], instructions: RULES, canary: CANARY, question: "还能退款吗", maxBytes });

test("an answer citing a source: its text, then the cited article's title and link", () => {
  const c = check("可以退款，签收后七天内申请即可。[1]");
  expect(c).toEqual({ ok: true, text: "可以退款，签收后七天内申请即可。[1]\n\n[1] 售后政策\nhttps://example.com/refund", cited: [SOURCES[0] as Source] });
});

test("citations are renumbered in the order they appear; full-width and grouped ones too; unknown numbers dropped", () => {
  const c = check("先看发货【2】，再看退款[1, 2]。没有这一条[7]。");
  expect(c.ok).toBe(true);
  if (!c.ok) return;
  expect(c.text).toBe("先看发货[1]，再看退款[2][1]。没有这一条。\n\n[1] 配送说明\nhttps://example.com/ship\n[2] 售后政策\nhttps://example.com/refund");
  expect(c.cited.map((s) => s.id)).toEqual(["ship", "refund"]);
});

test("NO_ANSWER and an empty answer are refused as no_answer", () => {
  expect(check("NO_ANSWER")).toMatchObject({ ok: false, reason: "no_answer" });
  expect(check("  \n ")).toMatchObject({ ok: false, reason: "no_answer" });
  expect(check("资料里没有答案。NO_ANSWER")).toMatchObject({ ok: false, reason: "no_answer" });
});

test("a piece of the key is refused: SECRET_RUN of its letters and digits are enough, one fewer is not", () => {
  expect(check(`你的密钥是 ${KEY} [1]`)).toMatchObject({ ok: false, reason: "secret" });
  // "abcdefgh": eight letters of the key; "abcdefg" seven.
  expect(check(`片段 ${"abcdefghijk".slice(0, SECRET_RUN)} [1]`)).toMatchObject({ ok: false, reason: "secret" });
  expect(check(`片段 ${"abcdefghijk".slice(0, SECRET_RUN - 1)} [1]`)).not.toMatchObject({ reason: "secret" });
});

test("the instructions repeated are refused: the canary alone, or a run of ECHO_RUN characters of them, not one fewer", () => {
  expect(check(`reference ${CANARY} [1]`)).toMatchObject({ ok: false, reason: "prompt_echo" });
  expect(check(`My rules: ${RULES} [1]`)).toMatchObject({ ok: false, reason: "prompt_echo" });
  const line = "Use only the numbered sources, which are passages";
  expect(check(`${line.slice(0, ECHO_RUN)} [1]`)).toMatchObject({ ok: false, reason: "prompt_echo" });
  expect(check(`${line.slice(0, ECHO_RUN - 1)} [1]`).ok).toBe(true);
  // Case and spacing do not hide it.
  expect(check(`${line.slice(0, ECHO_RUN).toUpperCase().replace(/ /g, "   ")} [1]`)).toMatchObject({ ok: false, reason: "prompt_echo" });
});

test("a link to anything but the given articles is refused; a given article's link cites it and leaves the text", () => {
  expect(check("详见 https://evil.example/refund [1]")).toMatchObject({ ok: false, reason: "foreign_link" });
  expect(check("详见 www.evil.example [1]")).toMatchObject({ ok: false, reason: "foreign_link" });
  expect(check("详见 [这里](https://evil.example/x) [1]")).toMatchObject({ ok: false, reason: "foreign_link" });
  // In a tag's attribute: the tag leaves what is shown, the model still wrote the link (a grocery's walkthrough).
  expect(check('七天内可以退款[1] <a href="http://evil.example/x">点这里领券</a>')).toMatchObject({ ok: false, reason: "foreign_link" });
  expect(check("七天内可以退款[1] <img src='//evil.example/p.gif'>")).toMatchObject({ ok: false, reason: "foreign_link" });
  expect(check('七天内可以退款[1] <<a>a href="//evil.example">退款<</a>/a>')).toMatchObject({ ok: false, reason: "foreign_link" });
  expect(check('<a data-miniprogram-appid="wx123" data-miniprogram-path="pages/x">点我</a>退款[1]')).toMatchObject({ ok: false, reason: "foreign_link" });
  // Any tag's link but a given article's, a relative one too (its words call to act on nothing); references decoded first (a review).
  expect(check('七天内可以退款[1] <a href="/coupon">点这里领券</a>')).toMatchObject({ ok: false, reason: "foreign_link" });
  expect(check('七天内可以退款[1] <a href="evil&period;example">点这里领券</a>')).toMatchObject({ ok: false, reason: "foreign_link" });
  // …and a given article's own link in a tag passes, the tag removed.
  expect(check('七天内可以退款[1] <a href="https://example.com/refund">售后政策</a>')).toMatchObject({ ok: true, text: "七天内可以退款[1] 售后政策\n\n[1] 售后政策\nhttps://example.com/refund" });
  const c = check("七天内可以退款，详见 https://example.com/refund 。");
  expect(c).toMatchObject({ ok: true, cited: [SOURCES[0]] });
  if (c.ok) expect(c.text).toBe("七天内可以退款，详见。\n\n[1] 售后政策\nhttps://example.com/refund");
});

test("a WeChat article's long link, its & written &amp; in a tag or its __biz as it is in text, is the given article's (a review)", () => {
  const wx: Source[] = [{ n: 1, id: "refund", title: "售后政策", url: "https://mp.weixin.qq.com/s?__biz=MzA5&mid=2650&idx=1&sn=abc", passages: ["本店支持七天无理由退货。"] }];
  const checkWx = (raw: string) => checkOutput(raw, wx, { secrets: [KEY], instructions: RULES, canary: CANARY, question: "还能退款吗", maxBytes: 2048 });
  expect(checkWx('七天内可以退款[1] <a href="https://mp.weixin.qq.com/s?__biz=MzA5&amp;mid=2650&amp;idx=1&amp;sn=abc">售后政策</a>')).toMatchObject({ ok: true });
  expect(checkWx("七天内可以退款，详见 https://mp.weixin.qq.com/s?__biz=MzA5&mid=2650&idx=1&sn=abc 。")).toMatchObject({ ok: true, cited: wx });
  // …and emphasis in underscores is still no mark a follower sees.
  const c = checkWx("__七天内__可以退款[1]");
  expect(c.ok && c.text.startsWith("七天内可以退款[1]")).toBe(true);
});

test("an answer citing no given article is refused as no_citation", () => {
  expect(check("可以退款。")).toMatchObject({ ok: false, reason: "no_citation" });
  expect(check("可以退款。[9]")).toMatchObject({ ok: false, reason: "no_citation" });
});

test("Markdown and HTML become plain text", () => {
  expect(plainText("## 退款\n\n**七天**内可以 *申请*，见 `订单页`。\n\n* 一\n+ 二\n> 引用\n\n---\n<b>完</b>")).toBe("退款\n\n七天内可以 申请，见 订单页。\n\n- 一\n- 二\n引用\n\n完");
  expect(plainText("```\ncode\n```")).toBe("code");
  expect(plainText("![img](https://x/y.png)文字")).toBe("文字");
  // Control characters and lone surrogates never reach a follower.
  expect(plainText("a\u0000b\u001bc\ud800d")).toBe("abcd");
  // A snake_case word is not italics.
  expect(plainText("use my_var_name here")).toBe("use my_var_name here");
});

test("the whole fits the bytes given: cut at a sentence, the sources it still cites kept", () => {
  const sentence = "七天内可以申请退款。"; // 30 bytes
  const long = `${sentence.repeat(100)}[1]${"发货很快。".repeat(50)}[2]`;
  const c = check(long, 600);
  expect(c.ok).toBe(true);
  if (!c.ok) return;
  expect(Buffer.byteLength(c.text)).toBeLessThanOrEqual(600);
  // The cut body ends at a sentence; its citation [1] was cut off with the rest, and the first article cited is listed; [2], cited only in what was cut, is not.
  expect(c.text).toMatch(/七天内可以申请退款。\n\n\[1\] 售后政策\nhttps:\/\/example.com\/refund$/);
  expect(c.text).not.toContain("配送说明");
  // Exactly at the limit it is kept whole; one byte fewer cuts.
  const short = check("可以。[1]");
  if (!short.ok) throw new Error("refused");
  const exact = Buffer.byteLength(short.text);
  expect(check("可以。[1]", exact)).toMatchObject({ ok: true, text: short.text });
  const cut = check("可以。[1]", exact - 1);
  expect(cut.ok && Buffer.byteLength(cut.text) <= exact - 1 && cut.text !== short.text).toBe(true);
});

test("cutAtSentence: at the last sentence end within the bytes, a citation after it kept; no end: cut with …", () => {
  expect(cutAtSentence("一二三。四五六。七八九。", 24)).toBe("一二三。四五六。");
  expect(cutAtSentence("一二三。四五六。七八九。", 23)).toBe("一二三。");
  expect(cutAtSentence("一二三。[1]四五六。", 20)).toBe("一二三。[1]");
  expect(cutAtSentence("One sentence. Two sentence.", 20)).toBe("One sentence.");
  expect(cutAtSentence("一二三四五六七八九十一二三四五六七八九十", 20)).toBe("一二三四五…");
  expect(cutAtSentence("short", 20)).toBe("short");
});

test("holdsRun compares with case and whitespace folded", () => {
  expect(holdsRun("XX abc   DEF yy", "abc def", 7)).toBe(true);
  expect(holdsRun("abc de", "abc def", 7)).toBe(false);
});

test("the prompt: the instructions, the sources numbered with title and link, the question fenced and bounded", () => {
  const [system, user] = promptFor("还能退款吗" + "？".repeat(1000), SOURCES, CANARY);
  expect(system?.role).toBe("system");
  expect(system?.content).toContain(CANARY);
  expect(system?.content).toContain("NO_ANSWER");
  expect(user?.content).toContain("[1] 售后政策\nLink: https://example.com/refund\n本店支持七天无理由退货。");
  expect(user?.content).toContain("[2] 配送说明");
  expect(user?.content).toMatch(/<<<\n还能退款吗？+\n>>>$/);
  expect((user?.content.match(/？/g) ?? []).length).toBe(PROMPT_LIMITS.questionChars - 5);
});

test("sources: at most five articles, the shown passage first, two each, within the character budget", () => {
  const ranked: Parameters<typeof sourcesOf>[0][number][] = Array.from({ length: 8 }, (_, i) => ({
    id: `a${i}`,
    title: `T${i}`,
    url: `https://example.com/${i}`,
    description: "",
    passage: `shown ${i}`,
    passages: [{ text: `other ${i}` }, { text: `shown ${i}` }, { text: `third ${i}` }],
  }));
  const s = sourcesOf(ranked);
  expect(s.map((x) => x.id)).toEqual(["a0", "a1", "a2", "a3", "a4"]);
  expect(s[0]?.passages).toEqual(["shown 0", "other 0"]);
  const first = ranked[0] as (typeof ranked)[number];
  const big = sourcesOf([{ ...first, passage: "x".repeat(PROMPT_LIMITS.chars + 10), passages: [] }]);
  expect(big[0]?.passages[0]?.length).toBe(PROMPT_LIMITS.chars);
  // A card's passage cut to its answering paragraph: the whole passage holding it is given once, then the next.
  const cut = sourcesOf([{ ...first, passage: "come in now: it vomits blood", passages: [{ text: "watch at home.\n\ncome in now: it vomits blood" }, { text: "fees" }] }]);
  expect(cut[0]?.passages).toEqual(["watch at home.\n\ncome in now: it vomits blood", "fees"]);
  // An article with neither passage nor description is no source.
  expect(sourcesOf([{ ...first, passage: null, passages: [], description: "" }])).toEqual([]);
});

/** What the follower would get; the checks read exactly this too. */
const sent = (answer: string) => {
  const c = check(answer);
  return c.ok ? c.text : null;
};

test("nothing the composing removes can join what the checks passed: an unknown citation, empty brackets, a given article's link each leave a space", () => {
  for (const [answer, reason] of [
    [`密钥是 ${KEY.split("").join("[9]")} [1]`, "secret"],
    ["请访问 evil[9].example [1]", "foreign_link"],
    ["请拨打 4[9]0[9]0[9]8[9]2[9]0[9]9[9]9[9]9[9]9 [1]", "ungrounded"],
    ["请扫 二[9]维码 [1]", "ungrounded"],
    ["请访问 evil().example [1]", "foreign_link"],
    ["请访问 evil（）.example [1]", "foreign_link"],
    ["请访问 evil（https://example.com/refund）.example [1]", "foreign_link"],
  ] as const)
    expect({ answer, c: check(answer) }).toMatchObject({ answer, c: { ok: false, reason } });
});

test("what is sent passes the checks again, unchanged (random answers mixing links, citations, brackets and markup)", () => {
  const pieces = ["七天可以退款。", "[1]", "[9]", "()", "（）", "evil", ".", "example", " ", "https://example.com/refund", "**", "<b>", "</b>", "&lt;", "\n", "[2]", "sk-", "live", "4008", "二", "维码"];
  let x = 7;
  const next = () => ((x = (x * 1103515245 + 12345) % 2 ** 31), x / 2 ** 31);
  let passed = 0;
  for (let i = 0; i < 3000; i++) {
    let answer = "";
    for (let k = 0; k < 12; k++) answer += pieces[Math.floor(next() * pieces.length)];
    const out = sent(answer);
    if (out === null) continue;
    passed++;
    const body = out.split("\n\n[1] ")[0] as string;
    // The body as sent, checked again as an answer citing [1]: nothing in it is refused.
    const again = check(`${body} [1]`);
    expect({ answer, body, again: again.ok ? "passes" : again }).toEqual({ answer, body, again: "passes" });
  }
  expect(passed).toBeGreaterThan(100);
});
