/** The ranking's parts on their own: words, passages, scores, the choice, the list's bytes. */
import { describe, expect, test } from "bun:test";
import { ANSWERS, choose } from "../src/ranking/choice.ts";
import { partsOf } from "../src/ranking/parts.ts";
import { passagesOf, PASSAGE_CHARS } from "../src/ranking/passages.ts";
import { RANKING, termWeight } from "../src/ranking/bm25.ts";
import { excerpt } from "../src/ranking/excerpt.ts";
import { namesTitle, titleForm } from "../src/ranking/names.ts";
import { analyse, askedOf, fieldsOf, queryTerms, scoreArticle, type CorpusStats } from "../src/ranking/score.ts";
import { afterTitle, answerReply, listText } from "../src/wechat/answering/ranked-reply.ts";
import { MAX_TEXT_BYTES } from "../src/wechat/door/message.ts";
import type { RankedArticle } from "../src/ranking/types.ts";
import { FILLER_HAN, FILLER_LATIN } from "../src/ranking/filler-words.ts";
import { folded, placesOf, stemWord, termsOf } from "../src/ranking/words.ts";

describe("words", () => {
  test("Han runs give their characters and neighbouring pairs; filler is left out", () => {
    expect(termsOf("退款期限")).toEqual(["退", "退款", "款", "款期", "期", "期限", "限"]);
    // 请问 / 怎么 / 的 are filler: neither their characters nor their pair take part.
    expect(termsOf("请问怎么退款")).not.toContain("请问");
    expect(termsOf("请问怎么退款")).not.toContain("怎么");
    expect(termsOf("请问怎么退款")).toContain("退款");
    // …and the pairs reaching into how and why, on either side.
    expect(termsOf("店铺怎么接入")).toEqual(["店", "店铺", "铺", "接", "接入", "入"]);
    expect(termsOf("发票如何开")).toEqual(["发", "发票", "票", "开"]);
    // …and whether there is (有没有), the pairs of it and beside it: 医院有没有 had been ranked on 院有, 有没 and 没有.
    expect(termsOf("医院有没有核磁")).toEqual(["医", "医院", "院", "核", "核磁", "磁"]);
    // …and what time (几点).
    expect(termsOf("几点")).toEqual([]);
    expect(termsOf("几点开门")).toEqual(["开", "开门", "门"]);
  });
  test("digits and Latin letters beside Han characters are a run of their own (2014年 is 2014 and 年)", () => {
    const t = termsOf("赵鹏在2014年下半赛季");
    expect(t).toContain("2014");
    expect(t).toContain("年");
    expect(t).toContain("赛季");
    expect(t.some((x) => x.includes("2014") && x !== "2014")).toBe(false);
  });
  test("Latin words are folded (full-width too), English stop words dropped, words to Porter's stem", () => {
    expect(termsOf("What is the Refund policy for ＯＲＤＥＲＳ?")).toEqual(["refund", "polici", "order"]);
    // A single letter joined by a hyphen is one word with what follows, on both sides: "x-ray" asks neither "x" nor "ray".
    expect(termsOf("x-ray can do?")).toEqual(termsOf("chest X-ray").slice(1));
    expect(termsOf("e-mail us")).toEqual(termsOf("email us"));
    expect(termsOf("follow-up")).toEqual(["follow", "up"]);
    // Singapore's particles and "anot" (or not) say nothing of the subject.
    expect(termsOf("clinic open sunday anot ah")).toEqual(termsOf("clinic open sunday"));
    expect(termsOf("mc can backdate lah leh lor")).toEqual(termsOf("mc can backdate"));
    // Forms of one word meet: the question's and the article's.
    expect(["refunds", "refunded", "returned", "shipping", "policy", "policies", "delivery", "deliveries", "class"].map(stemWord)).toEqual([
      "refund",
      "refund",
      "return",
      "ship",
      "polici",
      "polici",
      "deliveri",
      "deliveri",
      "class",
    ]);
    // Numbers are kept as written.
    expect(stemWord("2017s")).toBe("2017s");
  });
  test("filler found in the evaluation data takes no part: English words, Han words and the pairs reaching into them", () => {
    expect(FILLER_LATIN).toContain("how");
    expect(FILLER_HAN).toContain("多少");
    expect(termsOf("How much does delivery take?")).toEqual(["deliveri", "take"]);
    // 多少 goes whole, and the pair 少钱 that reaches into it; 钱 and 一斤 stay.
    expect(termsOf("多少钱一斤")).toEqual(["钱", "钱一", "一", "一斤", "斤"]);
    // 哪个 goes, and 个门 with it: no article means it.
    expect(termsOf("哪个门店")).toEqual(["门", "门店", "店"]);
    // Not filler inside a word of the account's ("多少" is filler, "至少" is not cut).
    expect(termsOf("至少")).toEqual(["至", "至少", "少"]);
  });
  test("two spellings of one word are read as one, in questions and articles alike: 帐号 as 账号, 结帐 as 结账; not where the pair straddles another word", () => {
    expect(termsOf("帐号被冻结")).toEqual(termsOf("账号被冻结"));
    expect(termsOf("结帐用信用卡")).toEqual(termsOf("结账用信用卡"));
    expect(placesOf("帐户余额")).toEqual(placesOf("账户余额"));
    // 帐篷 ("tent") stays itself, also after a pair that would end in its 帐 (到帐, 收到帐篷).
    expect(termsOf("收到帐篷")).toContain("帐篷");
    expect(termsOf("收到帐篷")).not.toContain("账");
    // Spellings whose pairs straddle other words are not read as one: 指定单品, 这笔划算, 台风登陆.
    expect(termsOf("指定单品")).toContain("指定");
    expect(termsOf("这笔划算")).toContain("划算");
    expect(termsOf("台风登陆")).toContain("登陆");
  });
  test("traditional characters are read as simplified, each in its own place: a Hong Kong follower's question meets a simplified article, and the reverse", () => {
    expect(termsOf("貓咪絕育要幾錢")).toEqual(termsOf("猫咪绝育要几钱"));
    expect(termsOf("衞生間在幾樓")).toEqual(termsOf("卫生间在几楼"));
    expect(folded("請問星期日有冇開門？")).toBe("请问星期日有冇开门?");
    // Every place stays where it was: a passage cut on the folded text is cut alike on the text shown.
    for (const text of ["貓咪絕育要幾錢", "衞生間", "𠵾㗲 mixed 開門"]) expect(folded(text).length).toBe(text.normalize("NFKC").length);
    // What is already simplified is left as written: the filler and stop words (什么, 么) read as before.
    for (const w of [...FILLER_HAN, "什么", "怎么", "多么", "么", "这么", "才", "着", "著名", "显著", "乾坤"]) expect(folded(w)).toBe(w);
  });

  test("a question's places: each word, each Han character outside filler, held by the pairs it is part of", () => {
    expect(placesOf("退款 refunds")).toEqual([
      { term: "退", by: ["退款"] },
      { term: "款", by: ["退款"] },
      { term: "refund", by: ["refund"] },
    ]);
    // A character alone between filler is held by itself.
    expect(placesOf("哪个门")).toEqual([{ term: "门", by: ["门"] }]);
  });
});

describe("passages", () => {
  test("sentences are gathered up to the size and never cut inside, when they fit", () => {
    const s = "第一句话说了一些事情。".repeat(40);
    const ps = passagesOf(s);
    expect(ps.length).toBeGreaterThan(1);
    for (const p of ps) {
      expect(p.end - p.start).toBeLessThanOrEqual(PASSAGE_CHARS);
      expect(s.slice(p.start, p.end).endsWith("。")).toBe(true);
    }
    // Together they cover the text.
    expect(ps.map((p) => s.slice(p.start, p.end)).join("")).toBe(s);
  });
  test("a sentence longer than a passage is cut at a comma, or at the size, never inside a surrogate pair", () => {
    const long = "𠀀".repeat(400);
    for (const p of passagesOf(long)) {
      const code = long.charCodeAt(p.end - 1);
      expect(code >= 0xd800 && code <= 0xdbff).toBe(false);
      expect(p.end - p.start).toBeLessThanOrEqual(PASSAGE_CHARS);
    }
    const commas = ("一二三四五六七八九十，").repeat(60);
    for (const p of passagesOf(commas).slice(0, -1)) expect(commas.slice(p.start, p.end).endsWith("，")).toBe(true);
  });
  test("a paragraph break ends a passage at least half full; a shorter one (a heading) goes on into the next paragraph", () => {
    const half = "甲".repeat(PASSAGE_CHARS / 2 - 1) + "。";
    const text = `${half}\n\n第二段。`;
    expect(passagesOf(text).map((p) => text.slice(p.start, p.end))).toEqual([`${half}\n\n`, "第二段。"]);
    const short = `${half.slice(1)}\n\n第二段。`;
    expect(passagesOf(short).length).toBe(1);
  });
  test("white space between paragraphs is no passage", () => {
    expect(passagesOf("One.\n\n\n\nTwo.").map((p) => p.end - p.start > 0)).toEqual([true]);
    expect(passagesOf("\n\n  \n")).toEqual([]);
  });
});

const stats: CorpusStats = { articles: 100, headLen: 6, bodyLen: 80, passageLen: 80 };
const df = (t: string) => (t === "运" || t === "费" ? 60 : 2);
const ask = (question: string, d: (t: string) => number = df, s = stats) => askedOf(question, d, s);

describe("scores", () => {
  const a = { id: "a", title: "退货说明", keywords: "", description: "", body: "商品签收后七天内可以申请退货。退货运费由买家承担。质量问题由卖家承担运费。" };
  test("the passage shown is the one with the words only it holds; the head's words weigh more", () => {
    const q = ask("退货运费谁出");
    const s = scoreArticle(q, a, stats);
    expect(s.score).toBeGreaterThan(0);
    expect(s.head).toBeGreaterThan(0);
    const withoutTitle = scoreArticle(q, { ...a, title: "说明" }, stats);
    expect(withoutTitle.score).toBeLessThan(s.score);
    expect(s.coverage).toBeGreaterThan(0.5);
  });
  test("a word of the question held: a pair or a Latin word, or three of its characters apart; not a character or two", () => {
    expect(scoreArticle(ask("退货运费谁出"), a, stats).word).toBe(true);
    // Only the single character 说 in common: no word held.
    expect(scoreArticle(ask("说话"), a, stats).word).toBe(false);
    // A question of single characters: a character held is enough.
    expect(scoreArticle(ask("货"), a, stats).word).toBe(true);
    // Three of the question's characters held apart (值, 卡, 退) are as a word; two (值, 卡) are not.
    const card = { id: "c", title: "储值卡", keywords: "", description: "", body: "余额可以申请退款。" };
    expect(RANKING.charsAsWord).toBe(3);
    expect(scoreArticle(ask("充值的卡退钱"), card, stats).word).toBe(true);
    expect(scoreArticle(ask("充值的卡"), card, stats).word).toBe(false);
    // A question whose own pair no article holds (河北, of an account with 河南's scores) is no question of single characters: 河 and 分 held are no word of it.
    const henan = { id: "h", title: "河南省录取分数线", keywords: "", description: "", body: "河南理科最低分560分。" };
    const account = (t: string) => (["河", "分", "南", "河南", "分数"].includes(t) ? 2 : 0);
    // Scored as rank() scores: on the terms some article holds (rank.ts `take`).
    const held = (q: string) => askedOf(q, account, stats, (all) => all.filter((t) => t.known));
    expect(scoreArticle(held("河北多少分"), henan, stats).word).toBe(false);
    expect(scoreArticle(held("河南多少分"), henan, stats).word).toBe(true);
    // …while a question of single characters alone still holds by one.
    expect(scoreArticle(held("分"), henan, stats).word).toBe(true);
  });
  test("the share of the question held counts its words no article holds too, at the highest weight", () => {
    const known = (t: string) => (["退", "货", "退货"].includes(t) ? 2 : 0);
    // 退货 is held; 发票 no article holds: half the places, more than half the weight unheld.
    const s = scoreArticle(ask("退货发票", known), a, stats);
    expect(s.coverage).toBeGreaterThan(0);
    expect(s.coverage).toBeLessThan(0.5);
    // Counted over the account's words only (as before), the same question looked wholly held.
    expect(scoreArticle(ask("退货", known), a, stats).coverage).toBe(1);
    expect(queryTerms("退货发票", known, stats).filter((t) => !t.known).length).toBeGreaterThan(0);
  });
  test("a question's Han character the article holds only outside the question's pair counts charCredit of its place", () => {
    const known = () => 2;
    // 预订座位 holds 订 and 位, not the pair 订位 the follower wrote.
    const seat = { id: "s", title: "座位", keywords: "", description: "", body: "可以电话预订座位。" };
    const s = scoreArticle(ask("订位", known), seat, stats);
    expect(RANKING.charCredit).toBeGreaterThan(0);
    expect(RANKING.charCredit).toBeLessThan(1);
    expect(s.coverage).toBeCloseTo(RANKING.charCredit, 9);
    // The pair itself held: the whole place.
    expect(scoreArticle(ask("订位", known), { ...seat, body: "可以电话订位。" }, stats).coverage).toBe(1);
    // A character the article lacks altogether: nothing of its place.
    expect(scoreArticle(ask("订票", known), seat, stats).coverage).toBeCloseTo(RANKING.charCredit / 2, 9);
  });
  test("the share the head alone holds: the question's places its title, keywords or questions hold, not the body's", () => {
    const known = () => 2;
    const card = { id: "k", title: "礼品卡", keywords: "积分", description: "", body: "礼品卡的积分可以兑换茶具。" };
    // 礼品 and 积分 in the head, 兑换 only in the body: four of the six places held by the head, all by the article.
    const s = scoreArticle(ask("礼品积分兑换", known), card, stats);
    expect(s.coverage).toBe(1);
    expect(s.headCoverage).toBeCloseTo(4 / 6, 9);
    // The same words in the body only: held, but not by the head.
    const body = scoreArticle(ask("礼品积分兑换", known), { ...card, title: "说明", keywords: "" }, stats);
    expect(body.coverage).toBe(1);
    expect(body.headCoverage).toBe(0);
    // A question's character the head holds outside the question's pair: charCredit of its place, as for the share held.
    expect(scoreArticle(ask("订位", known), { id: "s", title: "预订座位", keywords: "", description: "", body: "" }, stats).headCoverage).toBeCloseTo(RANKING.charCredit, 9);
    // An operator's phrasing counts as head.
    expect(scoreArticle(ask("兑换", known), { ...card, questions: "怎么兑换" }, stats).headCoverage).toBe(1);
    expect(scoreArticle(ask("兑换", known), card, stats).headCoverage).toBe(0);
  });
  test("an article without a body is ranked on its head and description", () => {
    const q = ask("退货");
    expect(scoreArticle(q, { id: "b", title: "退货", keywords: "", description: "", body: "" }, stats).score).toBeGreaterThan(0);
    const d = scoreArticle(q, { id: "c", title: "说明", keywords: "", description: "如何退货", body: "" }, stats);
    expect(d.score).toBeGreaterThan(0);
    expect(d.shown).not.toBeNull();
  });
  test("weights: a term in the title and the body weighs more than the same term once in the body", () => {
    const f = fieldsOf(analyse(a));
    expect(termWeight("退货", f, stats)).toBeGreaterThan(termWeight("买家", f, stats));
    expect(termWeight("退货", f, stats)).toBeLessThanOrEqual(RANKING.k1 + 1);
  });
  test("an excerpt keeps the sentence that matched and fits the bytes given, cut marks included", () => {
    const text = "无关的开头句子说了很多别的事情。".repeat(10) + "退货运费由买家承担。" + "结尾的句子也说了别的。".repeat(10);
    const q = queryTerms("退货运费", df, stats);
    const e = excerpt(text, { start: 0, end: text.length }, q, 120);
    expect(e).toContain("退货运费由买家承担。");
    expect(Buffer.byteLength(e)).toBeLessThanOrEqual(120);
    expect(e.startsWith("…")).toBe(true);
  });
});

const ranked = (score: number, coverage = 1, word = true, headCoverage = 0) => ({ score, coverage, word, headCoverage });

describe("a message of several questions", () => {
  const texts = (t: string) => partsOf(t).map((p) => p.text);
  test("its parts at sentence ends, commas, a space between Chinese characters and the words that add a question; the last four that say something; none for one question", () => {
    expect(texts("宿舍怎么申请，还有接机需要提前预约吗？另外开学第一周要做什么")).toEqual(["宿舍怎么申请", "接机需要提前预约吗", "开学第一周要做什么"]);
    expect(texts("how do i register with a GP? and also can i work 20 hours")).toEqual(["how do i register with a GP", "can i work 20 hours"]);
    expect(texts("一，二，三，宿舍怎么申请，接机要预约吗，食堂在哪，校车几点，图书馆开吗")).toEqual(["接机要预约吗", "食堂在哪", "校车几点", "图书馆开吗"]);
    // Not a space, in Chinese (a phone's comma) or English.
    expect(texts("物业费怎么交 能开发票吗")).toEqual([]);
    expect(texts("how do i pay my fee")).toEqual([]);
    for (const one of ["宿舍怎么申请", "好的，谢谢", "营业时间？"]) expect(partsOf(one)).toEqual([]);
  });
  test("which parts ask: a question word or particle, an A-not-A form, an English question's opening, a question mark of its own — not a clause that tells", () => {
    const asks = (t: string) => partsOf(t).map((p) => [p.text, p.asks]);
    expect(asks("信号太差了，我家在三楼，屋里一格都没有")).toEqual([["信号太差了", false], ["我家在三楼", false], ["屋里一格都没有", false]]);
    expect(asks("报的手动挡，能换自动挡吗，要补钱不")).toEqual([["报的手动挡", false], ["能换自动挡吗", true], ["要补钱不", true]]);
    expect(asks("物业费能不能分期，发票可不可以开，请问停车场")).toEqual([["物业费能不能分期", true], ["发票可不可以开", true], ["请问停车场", true]]);
    expect(asks("宿舍申请？还有接机预约？")).toEqual([["宿舍申请", true], ["接机预约", true]]);
    expect(asks("my flight lands at 6am, can someone pick me up")).toEqual([["my flight lands at 6am", false], ["can someone pick me up", true]]);
    expect(asks("any parking nearby? opening hours on sunday?")).toEqual([["any parking nearby", true], ["opening hours on sunday", true]]);
  });
});

describe("the choice", () => {
  test("one article when the best scores at least `lead` times the second; just under it, not alone", () => {
    expect(choose([ranked(10 * ANSWERS.lead), ranked(10)]).kind).toBe("one");
    expect(choose([ranked(10 * ANSWERS.lead - 0.01), ranked(10)]).kind).toBe("list");
    expect(choose([ranked(5)]).kind).toBe("one");
  });
  test("a list holds at most three relevant articles, none far below the best", () => {
    const c = choose([ranked(10), ranked(9), ranked(8), ranked(7.5)]);
    expect(c.kind === "list" && c.articles.length).toBe(ANSWERS.listed);
    const d = choose([ranked(10), ranked(9), ranked(10 * ANSWERS.listShare - 0.01)]);
    expect(d.kind === "list" && d.articles.length).toBe(2);
    // One holding too little of the question is left out of the list; just at the share, listed.
    const e = choose([ranked(10), ranked(9), ranked(8, ANSWERS.listCoverage - 0.01)]);
    expect(e.kind === "list" && e.articles.length).toBe(2);
    const f = choose([ranked(10), ranked(9), ranked(8, ANSWERS.listCoverage)]);
    expect(f.kind === "list" && f.articles.length).toBe(3);
  });
  test("an answer close only to articles that are none (too little held, no word of the question) goes alone: nothing to confuse it with", () => {
    expect(choose([ranked(10), ranked(9, ANSWERS.listCoverage - 0.01)])).toMatchObject({ kind: "one", margin: 0 });
    expect(choose([ranked(10), ranked(9, 1, false)]).kind).toBe("one");
    // A relevant article further down scoring close too: the best is not sure of it (the fallback), though the two just behind are none.
    expect(choose([ranked(10), ranked(9, 1, false), ranked(8, 1, false), ranked(7.5), ranked(7)])).toMatchObject({ kind: "none", why: "unsure" });
    // …and one far below is no rival: sent alone, its margin what the report's close calls read.
    expect(choose([ranked(10), ranked(9, 1, false), ranked(8, 1, false), ranked(4)])).toMatchObject({ kind: "one", why: "unrivalled", margin: 0.4 });
    // As it was before Session 31, with the setting off: not sure, the fallback.
    ANSWERS.aloneAmongIrrelevant = 0;
    try {
      expect(choose([ranked(10), ranked(9, 1, false)])).toMatchObject({ kind: "none", why: "unsure" });
    } finally {
      ANSWERS.aloneAmongIrrelevant = 1;
    }
    // Beside the best, an article holding less than the best must is still listed (the bar for the answer itself is higher).
    expect(choose([ranked(10), ranked(9, ANSWERS.listCoverage)]).kind).toBe("list");
    expect(ANSWERS.listCoverage).toBeLessThan(ANSWERS.minCoverage);
    // Control: the same second, relevant, makes a list.
    expect(choose([ranked(10), ranked(9)]).kind).toBe("list");
  });
  test("the share the head holds adds headCredit times itself to the share held: just under the bar the fallback, at it an answer", () => {
    expect(ANSWERS.headCredit).toBeGreaterThan(0);
    const held = ANSWERS.minCoverage / 2;
    const head = (ANSWERS.minCoverage - held) / ANSWERS.headCredit;
    expect(choose([ranked(10, held, true, head + 1e-9)]).kind).toBe("one");
    expect(choose([ranked(10, held, true, head - 0.001)]).kind).toBe("none");
    // Without the head's part, the same share held is no answer.
    expect(choose([ranked(10, held)]).kind).toBe("none");
    // It counts for the articles listed beside the best too.
    const listed = ANSWERS.listCoverage / 2;
    const e = choose([ranked(10), ranked(9, listed, true, listed / ANSWERS.headCredit + 1e-9)]);
    expect(e.kind === "list" && e.articles.length).toBe(2);
    expect(choose([ranked(10), ranked(9, listed, true, listed / ANSWERS.headCredit - 0.001)]).kind).toBe("one");
  });
  test("nothing when the best holds less than minHeld of the question, whatever its head", () => {
    expect(ANSWERS.minHeld).toBeGreaterThan(0);
    expect(ANSWERS.minHeld).toBeLessThan(ANSWERS.minCoverage);
    // Its head holding all it holds would carry it over the bar; holding too little, it is no answer.
    expect(choose([ranked(10, ANSWERS.minHeld - 0.001, true, ANSWERS.minHeld - 0.001)]).kind).toBe("none");
    expect(choose([ranked(10, ANSWERS.minHeld, true, ANSWERS.minHeld)]).kind).toBe("one");
    // The articles listed beside it need only the list's share.
    const c = choose([ranked(10), ranked(9, ANSWERS.listCoverage)]);
    expect(c.kind === "list" && c.articles.length).toBe(2);
  });
  test("the best no answer and the second one: a list of the first three, the ranking not sure which; the second just under the bar, nothing", () => {
    const under = ANSWERS.minCoverage - 0.001;
    const c = choose([ranked(10, under), ranked(9, ANSWERS.minCoverage), ranked(8, ANSWERS.listCoverage)]);
    expect(c.kind === "list" && c.articles.map((a) => a.score)).toEqual([10, 9, 8]);
    expect(choose([ranked(10, under), ranked(9, under)]).kind).toBe("none");
    // The second must answer as the best would: holding minHeld whatever its head, and a word.
    expect(choose([ranked(10, under), ranked(9, ANSWERS.minHeld - 0.001, true, 1)]).kind).toBe("none");
    expect(choose([ranked(10, under), ranked(9, 1, false)]).kind).toBe("none");
    // Only the second: a third that would answer does not make a list.
    expect(choose([ranked(10, under), ranked(9, under), ranked(8)]).kind).toBe("none");
    // The best and the third are listed as any list's others: relevant enough, not far below the best.
    const d = choose([ranked(10, under), ranked(9), ranked(8, ANSWERS.listCoverage - 0.001)]);
    expect(d.kind === "list" && d.articles.map((a) => a.score)).toEqual([10, 9]);
    const e = choose([ranked(10, under), ranked(9), ranked(10 * ANSWERS.listShare - 0.01)]);
    expect(e.kind === "list" && e.articles.map((a) => a.score)).toEqual([10, 9]);
    // The second is listed however far below the best it scores: the best is never sent alone here, nor is an empty list.
    const f = choose([ranked(10, under), ranked(10 * ANSWERS.listShare - 0.01)]);
    expect(f.kind === "list" && f.articles.map((a) => a.score)).toEqual([10, 10 * ANSWERS.listShare - 0.01]);
    // A list of one would be one article without the ranking sure of it: the best not even listable, the second alone — nothing.
    expect(choose([ranked(10, ANSWERS.listCoverage - 0.001), ranked(9)]).kind).toBe("none");
    expect(choose([ranked(10, 0.1), ranked(1.5)]).kind).toBe("none");
  });
  test("the choice says why: a list for a close runner-up or for an answer behind the best, nothing for no answer; one close only to none goes alone", () => {
    const under = ANSWERS.minCoverage - 0.001;
    expect(choose([ranked(10), ranked(9)])).toMatchObject({ kind: "list", why: "close" });
    expect(choose([ranked(10, under), ranked(9)])).toMatchObject({ kind: "list", why: "behind" });
    expect(choose([ranked(10, under), ranked(9, under)])).toMatchObject({ kind: "none", why: "no_answer" });
    expect(choose([ranked(10), ranked(9, ANSWERS.listCoverage - 0.001)])).toMatchObject({ kind: "one", margin: 0, why: "unrivalled" });
    const ahead = choose([ranked(10), ranked(4)]);
    expect(ahead.kind).toBe("one");
    expect(ahead).not.toHaveProperty("why");
    expect(choose([])).toMatchObject({ kind: "none", why: "no_answer" });
  });
  test("nothing when the best holds too little of the question, just under the share", () => {
    expect(choose([ranked(10, ANSWERS.minCoverage - 0.001)]).kind).toBe("none");
    expect(choose([ranked(10, ANSWERS.minCoverage)]).kind).toBe("one");
    expect(choose([]).kind).toBe("none");
  });
  test("nothing when the best shares only single characters with the question", () => {
    expect(choose([ranked(10, 1, false)]).kind).toBe("none");
    const c = choose([ranked(10 * ANSWERS.lead), ranked(10, 1, false)]);
    expect(c.kind).toBe("one");
  });
});

test("a list of three long entries fits one text reply, each keeping its title and link", () => {
  const entry = (i: number): RankedArticle => ({
    id: `a${i}`,
    title: "很长的标题".repeat(12),
    description: "",
    url: `https://example.com/articles/${i}`,
    picurl: null,
    score: 1,
    coverage: 1, headCoverage: 0,
    word: true,
    questions: [],
    head: 0,
    passage: "退货".repeat(150),
    passageScore: 1,
    excerpt: "退货运费由买家承担。".repeat(20),
    passages: [],
  });
  const text = listText([entry(1), entry(2), entry(3)]);
  expect(Buffer.byteLength(text)).toBeLessThanOrEqual(MAX_TEXT_BYTES);
  for (const i of [1, 2, 3]) {
    expect(text).toContain(`${i}. ${"很长的标题".repeat(12)}`);
    expect(text).toContain(`https://example.com/articles/${i}`);
  }
  // Labelled as given; a list of one is the card an article alone is, not "1." and nothing after it.
  expect(listText([entry(1), entry(2)], ["h7", "k2"])).toMatch(/^h7  (.|\n)*\n\nk2  /);
  const one = answerReply({ kind: "list", articles: [entry(4)] });
  expect(one).toMatchObject({ type: "news", articles: [{ url: "https://example.com/articles/4" }] });
  expect(answerReply({ kind: "list", articles: [entry(4), entry(5)] }).type).toBe("text");
});

describe("a title the question writes out whole", () => {
  test("named: the whole title, its bracketed qualifier left off, in either spelling of a word; not a longer title holding it, not one character, Latin only as words", () => {
    const q = titleForm("前肛鳗的体长是多少？");
    expect(namesTitle(q, "前肛鳗")).toBe(true);
    expect(namesTitle(q, "异齿前肛鳗")).toBe(false);
    expect(namesTitle(titleForm("大曲车站的地址是哪里？"), "大曲车站 (秋田县)")).toBe(true);
    expect(namesTitle(titleForm("大曲车站的地址是哪里？"), "大曲车站（秋田县）")).toBe(true);
    expect(namesTitle(titleForm("䲟的背吸盘有多少对鳍瓣？"), "䲟")).toBe(false);
    expect(namesTitle(titleForm("How do I brew GREEN  Tea?"), "Green Tea")).toBe(true);
    expect(namesTitle(titleForm("steam cleaning"), "Tea")).toBe(false);
    expect(namesTitle(titleForm("teapots"), "Tea")).toBe(false);
    expect(namesTitle(titleForm("Ｔｅａ time"), "tea")).toBe(true);
    expect(namesTitle(titleForm("城巴11线现在用什么车"), "城巴11线")).toBe(true);
    // In either spelling of a word (words.ts): a title written 帐号冻结 is named by 账号冻结 and back.
    expect(namesTitle(titleForm("账号冻结了怎么办"), "帐号冻结")).toBe(true);
    expect(namesTitle(titleForm("帐号冻结了怎么办"), "账号冻结")).toBe(true);
  });

  test("an article it names scores titleBoost more than the same article unnamed; without the question's text, nothing changes", () => {
    const stats: CorpusStats = { articles: 10, headLen: 3, bodyLen: 20, passageLen: 20 };
    const body = "前肛鳗体长可达五十厘米，栖息在深水中。";
    const q = askedOf("前肛鳗的体长是多少？", () => 1, stats);
    const named = scoreArticle(q, { id: "a", title: "前肛鳗", keywords: "", description: "", body }, stats);
    const plain = scoreArticle({ ...q, title: null }, { id: "a", title: "前肛鳗", keywords: "", description: "", body }, stats);
    expect(RANKING.titleBoost).toBeGreaterThan(0);
    expect(named.score).toBeCloseTo(plain.score * (1 + RANKING.titleBoost), 9);
    const other = scoreArticle(q, { id: "b", title: "异齿前肛鳗", keywords: "", description: "", body }, stats);
    expect(other.score).toBeLessThan(named.score);
  });
});

test("afterTitle drops a title that heads the passage on a line of its own, never the start of running text", () => {
  const a = (title: string, description = "") => ({ title, description });
  expect(afterTitle("营业时间\n\n每天十点营业。", a("营业时间"))).toBe("每天十点营业。");
  expect(afterTitle("Parking\nFree after 6pm.", a("Parking"))).toBe("Free after 6pm.");
  for (const [text, title] of [["Parking is free after 6pm", "Park"], ["会员卡可在前台办理", "会员"], ["退款将在3个工作日内到账", "退款"], ["营业时间：每天十点", "营业时间"]]) expect(afterTitle(text as string, a(title as string))).toBe(text as string);
  // Nothing after it: the description, else the passage as it was.
  expect(afterTitle("营业时间", a("营业时间", "四家分店的时间"))).toBe("四家分店的时间");
  expect(afterTitle("营业时间", a("营业时间"))).toBe("营业时间");
});
