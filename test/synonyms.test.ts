/**
 * What the operator teaches, on its own (issue 34 D): an article's questions as a field, the synonym
 * groups a document holds (checked and merged), and the table the ranking applies them with — the
 * one hook in termsOf, in force only while a store indexes or ranks with it.
 */
import { describe, expect, test } from "bun:test";
import { LIMITS, validateArticle } from "../src/article/article.ts";
import { parseDocument } from "../src/doc/validation.ts";
import { ReplydError } from "../src/base/errors.ts";
import { analyse, askedOf, headText, scoreArticle, type CorpusStats } from "../src/ranking/score.ts";
import { SynonymTable, withSynonyms } from "../src/ranking/synonyms.ts";
import { articleTermsOf, meaningTerms, termsOf } from "../src/ranking/words.ts";
import { mergeSynonymGroups, SYNONYM_LIMITS, validateSynonyms } from "../src/doc/synonyms.ts";

const table = (groups: string[][]) => SynonymTable.of(groups, termsOf) as SynonymTable;
const under = (groups: string[][], text: string) => withSynonyms(table(groups), () => termsOf(text));

describe("questions", () => {
  const ok = { title: "T", url: "https://example.com/x" };
  test("kept trimmed, white space folded to one space; a document's list checked with the rest of the record", () => {
    expect(validateArticle({ ...ok, questions: ["  还能退吗 ", "I want\tmy  money\nback"] }).value?.questions).toEqual(["还能退吗", "I want my money back"]);
    expect(validateArticle({ ...ok, questions: null }).value?.questions).toEqual([]);
    const doc = parseDocument(JSON.stringify({ format: "replyd/1", matter: "articles", articles: [{ ...ok, questions: ["a, b, and c?"] }] }));
    expect(doc.articles?.[0]?.questions).toEqual(["a, b, and c?"]);
  });
  test("at the limits taken, one past refused: 50 questions, 200 characters (code points)", () => {
    expect(validateArticle({ ...ok, questions: Array.from({ length: LIMITS.questions }, (_, i) => `q${i}`) }).problems).toEqual([]);
    expect(validateArticle({ ...ok, questions: Array.from({ length: LIMITS.questions + 1 }, (_, i) => `q${i}`) }).problems[0]?.reason).toBe(
      `must have at most ${LIMITS.questions} questions (it has ${LIMITS.questions + 1})`,
    );
    expect(validateArticle({ ...ok, questions: ["𠀀".repeat(LIMITS.question)] }).problems).toEqual([]);
    expect(validateArticle({ ...ok, questions: ["𠀀".repeat(LIMITS.question + 1)] }).problems[0]?.reason).toContain(`question 1 has ${LIMITS.question + 1}`);
  });
  test.each([
    ["not a list", "还能退吗"],
    ["not strings", [1]],
    ["blank", ["  "]],
    ["the same twice, in another case", ["Can I return it?", "can i return it?"]],
    ["a control character, before white space is folded", ["a\u000bb"]],
    ["a lone surrogate", ["\ud83d"]],
  ])("refused: %s", (_, questions) => {
    expect(validateArticle({ ...ok, questions }).problems.map((p) => p.field)).toEqual(["questions"]);
  });
  test("the head an article is ranked on holds them, one a line; without any it is the title and keywords as before", () => {
    expect(headText({ title: "退货", keywords: "售后", questions: "还能退吗\nmoney back" })).toBe("退货\n售后\n还能退吗\nmoney back");
    expect(headText({ title: "退货", keywords: "售后", questions: "" })).toBe("退货\n售后");
    const stats: CorpusStats = { articles: 10, headLen: 4, bodyLen: 20, passageLen: 20 };
    const a = { id: "r", title: "Returns", keywords: "", questions: "I want my money back", description: "", body: "Items can be sent back within 30 days." };
    const q = askedOf("money back please", () => 1, stats);
    expect(scoreArticle(q, a, stats).head).toBeGreaterThan(0);
    expect(scoreArticle(q, { ...a, questions: "" }, stats).head).toBe(0);
  });
});

describe("a document's synonyms", () => {
  test("kept trimmed with white space folded, each group in the order written", () => {
    expect(validateSynonyms([[" Visa ", "credit   card"], ["人工", "客服"]])).toEqual({ value: [["Visa", "credit card"], ["人工", "客服"]], problems: [] });
  });
  test("a phrase stands in one group only, whatever its case or width", () => {
    expect(validateSynonyms([["Visa", "card"], ["Ｖｉｓａ", "debit"]]).problems).toEqual([
      { section: "synonyms", index: 1, field: '"Ｖｉｓａ"', reason: "is also in group 0: a phrase may stand in one group only (case and width do not count)" },
    ]);
    expect(validateSynonyms([["visa", "VISA"]]).problems[0]?.reason).toContain("stands twice in this group");
  });
  test(`at the limits taken, one past refused: ${SYNONYM_LIMITS.groups} groups, ${SYNONYM_LIMITS.phrases} phrases of ${SYNONYM_LIMITS.phrase} characters`, () => {
    const groups = (n: number) => Array.from({ length: n }, (_, i) => [`a${i}`, `b${i}`]);
    expect(validateSynonyms(groups(SYNONYM_LIMITS.groups)).problems).toEqual([]);
    expect(validateSynonyms(groups(SYNONYM_LIMITS.groups + 1)).problems[0]?.reason).toContain(`at most ${SYNONYM_LIMITS.groups} groups`);
    const phrases = (n: number) => [Array.from({ length: n }, (_, i) => `p${i}`)];
    expect(validateSynonyms(phrases(SYNONYM_LIMITS.phrases)).problems).toEqual([]);
    expect(validateSynonyms(phrases(SYNONYM_LIMITS.phrases + 1)).problems[0]?.field).toBe("(group)");
    expect(validateSynonyms([["𠀀".repeat(SYNONYM_LIMITS.phrase), "x"]]).problems).toEqual([]);
    expect(validateSynonyms([["𠀀".repeat(SYNONYM_LIMITS.phrase + 1), "x"]]).problems[0]?.reason).toContain(`1–${SYNONYM_LIMITS.phrase} characters`);
  });
  test.each([
    ["not a list", { visa: "credit card" }],
    ["a group of one", [["Visa"]]],
    ["a phrase that is not a string", [["Visa", 1]]],
    ["an empty phrase", [["Visa", ""]]],
    ["a control character", [["Visa", "credit\u0007card"]]],
  ])("refused: %s", (_, raw) => {
    expect(validateSynonyms(raw).value).toBeUndefined();
  });
  test("travel in documents of matter synonyms and all; any other matter refuses them", () => {
    const synonyms = [["Visa", "credit card"]];
    expect(parseDocument(JSON.stringify({ format: "replyd/1", matter: "synonyms", synonyms })).synonyms).toEqual(synonyms);
    expect(parseDocument(JSON.stringify({ format: "replyd/1", matter: "all", articles: [], rules: [], texts: {}, synonyms })).synonyms).toEqual(synonyms);
    expect(() => parseDocument(JSON.stringify({ format: "replyd/1", matter: "rules", rules: [], synonyms }))).toThrow(ReplydError);
  });
  test("merged as rules are: a group sharing a phrase replaces the groups it shares one with, where the first stood; an equal one is unchanged; others appended", () => {
    const current = [["Visa", "credit card"], ["人工", "客服"], ["refund", "money back"]];
    const r = mergeSynonymGroups(current, [["人工", "客服"], ["VISA", "Mastercard", "money back"], ["几点关门", "营业时间"]]);
    // The phrases of the groups replaced that the new group leaves out are named.
    expect(r).toEqual({ groups: [["VISA", "Mastercard", "money back"], ["人工", "客服"], ["几点关门", "营业时间"]], added: 1, updated: 1, unchanged: 1, dropped: ["credit card", "refund"] });
    expect(mergeSynonymGroups([["抖店", "抖音小店"]], [["抖店", "抖音小店"]])).not.toHaveProperty("dropped");
    // A phrase a later group of the file keeps is in a group still: not named.
    expect(mergeSynonymGroups([["退款", "退钱", "抖音"]], [["退款", "退钱"], ["抖音", "快手"]])).not.toHaveProperty("dropped");
    // Past twenty, how many more.
    const many = Array.from({ length: 25 }, (_, i) => `词${i}`);
    expect(mergeSynonymGroups([["总", ...many]], [["总", "另"]]).dropped).toEqual([...many.slice(0, 20), "and 5 more"]);
  });
});

describe("the table the ranking applies", () => {
  test("a phrase's terms are followed by its group's one term, in the text's order; the same array back when none stands in it", () => {
    expect(under([["Visa", "credit card"]], "Do you take credit cards or cash?")).toEqual(["take", "credit", "card", "syn_visa", "cash"]);
    expect(under([["Visa", "credit card"]], "VISA accepted")).toEqual(["visa", "syn_visa", "accept"]);
    const t = table([["Visa", "credit card"]]);
    const plain = termsOf("bank transfer only");
    expect(t.apply(plain)).toBe(plain);
  });
  test("Chinese: a phrase's characters and pairs are followed by the group's term wherever it stands in a run; the pairs across its edges stay", () => {
    // 怎么 is filler, and the pair 么转 reaching into it goes with it (words.ts).
    expect(under([["人工", "客服"]], "怎么转人工")).toEqual(["转", "转人", "人", "人工", "工", "syn_人工"]);
    expect(under([["人工", "客服"]], "联系客服")).toEqual(["联", "联系", "系", "系客", "客", "客服", "服", "syn_人工"]);
  });
  test("where two phrases could start, the longer wins; a phrase of filler only matches nothing; names never repeat", () => {
    const grouped = (groups: string[][], text: string) => withSynonyms(table(groups), () => meaningTerms(text));
    expect(grouped([["人工", "客服"], ["人工智能", "AI"]], "人工智能客服")).toEqual(["syn_人工智能", "能客", "syn_人工"]);
    expect(under([["人工", "客服"], ["人工智能", "AI"]], "人工智能客服")).toContain("syn_人工智能");
    expect(under([["人工", "客服"], ["人工智能", "AI"]], "人工智能客服").filter((t) => t.startsWith("syn_"))).toEqual(["syn_人工智能", "syn_人工"]);
    expect(grouped([["the", "a"], ["x ray", "xray"]], "the x-ray")).toEqual(["syn_x_ray"]);
    expect(grouped([["Wi-Fi", "wireless"], ["wi fi", "hotspot"]], "hotspot wireless")).toEqual(["syn_wi_fi_2", "syn_wi_fi"]);
  });
  test("in force only while the store indexes or ranks with it: termsOf elsewhere, and after, reads no synonyms", () => {
    const t = table([["Visa", "credit card"]]);
    expect(withSynonyms(t, () => withSynonyms(null, () => termsOf("credit card")))).toEqual(["credit", "card"]);
    expect(withSynonyms(t, () => termsOf("credit card"))).toEqual(["credit", "card", "syn_visa"]);
    expect(termsOf("credit card")).toEqual(["credit", "card"]);
    expect(() => withSynonyms(t, () => { throw new Error("x"); })).toThrow("x");
    expect(termsOf("credit card")).toEqual(["credit", "card"]);
  });
  test("a group lowers no article that says the follower's own words, and finds the one that says another of its phrases", () => {
    // Collapsed into the group's one term, 核磁共振's four characters and three pairs had weighed as one:
    // the article saying it as the follower did scored a quarter of what it scored without the group.
    const stats: CorpusStats = { articles: 10, headLen: 4, bodyLen: 20, passageLen: 20 };
    const t = table([["磁共振", "核磁", "核磁共振", "MRI"]]);
    const exam = { id: "exam", title: "检查预约", keywords: "", description: "", body: "核磁共振一般1到3天内可以做。" };
    const other = { id: "mri", title: "检查预约", keywords: "", description: "", body: "磁共振一般1到3天内可以做。" };
    const q = "核磁共振要排多久";
    const without = scoreArticle(askedOf(q, () => 1, stats), exam, stats).score;
    withSynonyms(t, () => {
      expect(scoreArticle(askedOf(q, () => 1, stats), exam, stats).score).toBeGreaterThan(without);
      expect(scoreArticle(askedOf("做核磁要排多久", () => 1, stats), other, stats).score).toBeGreaterThan(
        withSynonyms(null, () => scoreArticle(askedOf("做核磁要排多久", () => 1, stats), other, stats).score),
      );
    });
  });
  test("applied to articles and questions alike, Visa finds credit card and back", () => {
    const stats: CorpusStats = { articles: 10, headLen: 4, bodyLen: 20, passageLen: 20 };
    const t = table([["Visa", "credit card"]]);
    const card = { id: "pay", title: "Ways to pay", keywords: "", description: "", body: "We accept credit cards." };
    const visa = { id: "gift", title: "Gift vouchers", keywords: "", description: "", body: "Pay for them with Visa." };
    withSynonyms(t, () => {
      expect(analyse(card).passages[0]?.counts.has("syn_visa")).toBe(true);
      expect(scoreArticle(askedOf("is visa ok", () => 1, stats), card, stats).score).toBeGreaterThan(0);
      expect(scoreArticle(askedOf("a credit card?", () => 1, stats), visa, stats).score).toBeGreaterThan(0);
    });
    expect(scoreArticle(askedOf("is visa ok", () => 1, stats), card, stats).score).toBe(0);
  });
  test("the share of the question an article holds counts a place a synonym holds as held (issue 34 C with D)", () => {
    const stats: CorpusStats = { articles: 10, headLen: 4, bodyLen: 20, passageLen: 20 };
    const t = table([["Visa", "credit card"], ["人工", "客服"]]);
    const card = { id: "pay", title: "Ways to pay", keywords: "", description: "", body: "We accept credit cards." };
    const help = { id: "help", title: "联系客服", keywords: "", description: "", body: "工作日九点到六点在线。" };
    withSynonyms(t, () => {
      expect(scoreArticle(askedOf("visa", () => 1, stats), card, stats).coverage).toBe(1);
      expect(scoreArticle(askedOf("转人工", () => 1, stats), help, stats).coverage).toBeGreaterThan(0.6);
    });
    // Without the table the same question holds none of it.
    expect(scoreArticle(askedOf("visa", () => 1, stats), card, stats).coverage).toBe(0);
  });
});

test("a synonym phrase naming a weekend day is matched as written, and a group naming the weekend meets an article's 周六 and 周日 (words.ts articleTermsOf)", () => {
  expect(under([["sunday service", "worship"]], "what time is sunday service")).toContain("syn_sunday_service");
  expect(under([["sunday service", "worship"]], "Sunday service starts at 10am")).toContain("syn_sunday_service");
  const t = table([["周末", "双休日"]]);
  expect(withSynonyms(t, () => articleTermsOf("周六、周日 9:00-18:00"))).toContain("syn_周末");
  expect(withSynonyms(t, () => termsOf("双休日开门吗"))).toContain("syn_周末");
});
