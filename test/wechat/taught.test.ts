/** A message that is a taught question (src/wechat/answering/taught.ts), on its own: what counts as the same words, and which article. */
import { expect, test } from "bun:test";
import { taughtOf } from "../../src/wechat/answering/taught.ts";
import { taughtForm } from "../../src/ranking/taught-form.ts";
import type { RankedArticle } from "../../src/ranking/types.ts";

const ranked = (rows: Record<string, string[]>, ...ids: string[]) => ids.map((id) => ({ id, title: `the ${id} article`, questions: rows[id] ?? [], keywords: [], passages: [] }) as unknown as RankedArticle);
const titled = (titles: Record<string, string>, keywords: Record<string, string[]> = {}) => Object.entries(titles).map(([id, title]) => ({ id, title, questions: [], keywords: keywords[id] ?? [], passages: [] }) as unknown as RankedArticle);
/** Articles whose best passages are `texts`. */
const passaged = (texts: Record<string, string[]>) => Object.entries(texts).map(([id, t]) => ({ id, title: `the ${id} article`, questions: [], keywords: [], passages: t.map((text) => ({ text, score: 1 })) }) as unknown as RankedArticle);
/** The read model's deleted articles' questions, by taught form. */
const deleted = (rows: Record<string, string[]> = {}) => ({
  deletedTaught: (form: string) => Object.keys(rows).find((id) => rows[id]!.some((q) => taughtForm(q) === form)) ?? null,
});

test("the same words in any case, white space, full width, and punctuation or symbols at the ends ('~', an emoji)", () => {
  for (const asked of ["how much deposit", "How much deposit??", "  HOW much   deposit ", "how much deposit~", "how much deposit 🙏", "ｈｏｗ much deposit"])
    expect({ asked, form: taughtForm(asked) }).toEqual({ asked, form: "how much deposit" });
  // Words inside are words: not the same question.
  expect(taughtForm("how much, deposit")).not.toBe(taughtForm("how much deposit"));
  // An apostrophe inside a word, straight or curly as a phone types it, is left out; a quote around words is not inside one.
  for (const asked of ["Where's my order??", "where’s my order", "wheres my order"]) expect({ asked, form: taughtForm(asked) }).toEqual({ asked, form: "wheres my order" });
  expect(taughtForm("the 'gold' card")).toBe("the 'gold' card");
  // Chinese as followers type it: full-width punctuation and a trailing emoji at the ends.
  expect(taughtForm("周日开门吗？？😀")).toBe(taughtForm("周日开门吗"));
  // A space between Chinese characters parts nothing; between Latin words it does.
  expect(taughtForm("猫咪 绝育  要空腹吗")).toBe(taughtForm("猫咪绝育要空腹吗"));
  expect(taughtForm("猫咪 绝育 要空腹")).toBe("猫咪绝育要空腹");
  expect(taughtForm("wifi 密码")).toBe("wifi 密码");
  // Traditional and simplified characters are one, as the ranking reads them.
  expect(taughtForm("貓咪絕育要空腹嗎？")).toBe(taughtForm("猫咪绝育要空腹吗"));
  // One sentence-final particle after a Chinese character, as an exact rule reads it; not a word of one or two characters.
  for (const asked of ["索道几点停啊", "索道几点停呀～", "索道几点停吗？"]) expect({ asked, form: taughtForm(asked) }).toEqual({ asked, form: "索道几点停" });
  expect(taughtForm("好吗")).toBe("好吗");
  expect(taughtForm("so ma")).toBe("so ma");
});

test("the first ranked article holding it, in the ranking's order", () => {
  const rows = { a: [], c: ["how much deposit"], d: ["How much deposit?"] };
  expect(taughtOf("how much deposit", ranked(rows, "a", "c", "d"), deleted())).toEqual({ article: expect.objectContaining({ id: "c" }), by: "question", as: "how much deposit" });
  expect(taughtOf("How much deposit!", ranked(rows, "a", "d", "c"), deleted())).toEqual({ article: expect.objectContaining({ id: "d" }), by: "question", as: "How much deposit?" });
  expect(taughtOf("how much is the deposit", ranked(rows, "a", "c"), deleted())).toBeNull();
  expect(taughtOf("   ", ranked(rows, "c"), deleted({ gone: ["  "] }))).toBeNull();
});

test("a question taught to a deleted article is said as such; a live article holding it wins", () => {
  const rows = { a: [], c: ["do u do ebikes"] };
  expect(taughtOf("Do u do ebikes?", ranked(rows, "a"), deleted({ ebikes: ["do u do ebikes"] }))).toEqual({ deleted: "ebikes" });
  expect(taughtOf("Do u do ebikes?", ranked(rows, "a", "c"), deleted({ ebikes: ["do u do ebikes"] }))).toEqual({ article: expect.objectContaining({ id: "c" }), by: "question", as: "do u do ebikes" });
  expect(taughtOf("do u do repairs", ranked(rows, "a"), deleted({ ebikes: ["do u do ebikes"] }))).toBeNull();
});

test("a message that is one article's title, or the question it opens with: that article; not a part at a colon, dash or bar; two titled alike, nobody's", () => {
  const articles = titled({ pay: "How to pay", school: "Where is the school? Address and directions", transfer: "Transferring your SEVIS record to our school", visa: "签证：F-1申请流程", tremella: "银耳和什么搭配最好 - 三九养生堂" });
  for (const [asked, id, as] of [["How to pay", "pay", "How to pay"], ["how to pay?", "pay", "How to pay"], ["where is the school", "school", "Where is the school? Address and directions"], ["Where is the school?", "school", "Where is the school? Address and directions"], ["签证：F-1申请流程", "visa", "签证：F-1申请流程"]] as const)
    expect({ asked, got: taughtOf(asked, articles, deleted()) }).toEqual({ asked, got: { article: expect.objectContaining({ id }), by: "title", as } });
  // A title's words in other words, or fewer of them, a category before a colon, a part after the question: the ranking's to read.
  for (const asked of ["how can I pay", "where is", "the school", "签证", "F-1申请流程", "Address and directions", "银耳和什么搭配最好"]) expect({ asked, got: taughtOf(asked, articles, deleted()) }).toEqual({ asked, got: null });
  // Two articles titled alike: neither is meant more.
  expect(taughtOf("how to pay", [...articles, ...titled({ pay2: "How to pay?" })], deleted())).toBeNull();
  // A taught question wins over a title; so does one taught to an article deleted since (the operator decides where it goes now).
  const taught = ranked({ c: ["how to pay"] }, "c");
  expect(taughtOf("how to pay", [...articles, ...taught], deleted())).toEqual({ article: expect.objectContaining({ id: "c" }), by: "question", as: "how to pay" });
  expect(taughtOf("how to pay", articles, deleted({ gone: ["How to pay"] }))).toEqual({ deleted: "gone" });
});

test("a message that is one of one article's keywords, in any case and end marks: that article; a keyword two articles hold, nobody's; a title first", () => {
  const articles = titled({ refund: "退票规定", change: "改签说明", delay: "航班延误" }, { refund: ["退票", "refund"], change: ["改签", "退改"], delay: ["延误", "退改"] });
  for (const [asked, id, as] of [["退票", "refund", "退票"], ["退票？", "refund", "退票"], ["Refund!", "refund", "refund"], ["改签", "change", "改签"]] as const)
    expect({ asked, got: taughtOf(asked, articles, deleted()) }).toEqual({ asked, got: { article: expect.objectContaining({ id }), by: "keyword", as } });
  expect(taughtOf("退改", articles, deleted())).toBeNull();
  expect(taughtOf("退票怎么办", articles, deleted())).toBeNull();
  expect(taughtOf("航班延误", articles, deleted())).toEqual({ article: expect.objectContaining({ id: "delay" }), by: "title", as: "航班延误" });
});

test("a keyword holding a quote or a backslash, as the index's keyword text keeps it JSON-escaped, is met as written", async () => {
  const { keywordText } = await import("../../src/store/rows.ts");
  const { rank } = await import("../../src/ranking/rank.ts");
  const { MemorySource } = await import("../../bench/eval/memory-source.ts");
  const keywords = keywordText(JSON.stringify(['say "hi" now', "C:\\temp", "ok"]));
  const source = new MemorySource([{ id: "a", title: "Greetings", keywords, body: "Say hi now to the team." }, { id: "b", title: "Files", keywords: "", body: "Temp files live in C:\\temp." }]);
  for (const asked of ['say "hi" now', "C:\\temp"]) {
    const ranked = rank(asked, source).articles;
    expect({ asked, got: taughtOf(asked, ranked, deleted()) }).toEqual({ asked, got: { article: expect.objectContaining({ id: "a" }), by: "keyword", as: asked } });
  }
});

test("a message that is a question one ranked article's passage asks as a heading line (a short line ending on a question mark, its number or 'Q:' aside): that article; asked by two, nobody's; a question inside a paragraph is none", () => {
  const articles = passaged({ rent: ["When is rent due?\nRent is due on the 14th.", "How do I pay?\nBy standing order."], late: ["If rent is late we call you. When is it arrears? After 14 days."] });
  expect(taughtOf("when is rent due", articles, deleted())).toMatchObject({ article: { id: "rent" }, by: "heading", as: "When is rent due?" });
  expect(taughtOf("How do I pay??", articles, deleted())).toMatchObject({ article: { id: "rent" }, by: "heading" });
  // Inside a paragraph's line, not a line of its own.
  expect(taughtOf("when is it arrears", articles, deleted())).toBeNull();
  expect(taughtOf("when is rent due", [...articles, ...passaged({ rise: ["When is rent due?\nFrom the date in the notice."] })], deleted())).toBeNull();
  // Listed by a number or "Q:", as FAQs write them.
  const numbered = passaged({ fees: ["1. Is there a deposit?\nYes, five weeks' rent.", "Q: Can I pay by card?\nYes.", "二、房租什么时候交？\n每月1号。"] });
  for (const [q, line] of [["is there a deposit", "Is there a deposit?"], ["can i pay by card", "Can I pay by card?"], ["房租什么时候交", "房租什么时候交？"]]) expect(taughtOf(q as string, numbered, deleted())).toMatchObject({ article: { id: "fees" }, by: "heading", as: line });
});
