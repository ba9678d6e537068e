/** A follow-up ranked with the question before it, and articles left out (src/ranking/question.ts, rank.ts). */
import { describe, expect, test } from "bun:test";
import { CONTEXT, withContext } from "../src/ranking/question.ts";
import { rank, RANKING_LIMITS } from "../src/ranking/rank.ts";
import { frameTerms } from "../src/ranking/asks-frame.ts";
import type { QueryTerm } from "../src/ranking/score.ts";
import { MemorySource } from "../bench/eval/memory-source.ts";

const shop = new MemorySource([
  { id: "hours", title: "营业时间", keywords: "营业时间", body: "春熙路店每天11:00到次日2:00营业，全年无休，最后点单1:30。" },
  { id: "vouchers", title: "团购券使用规则", keywords: "团购", body: "代金券每桌最多使用2张。周末和法定节假日是否可用，请看券面说明。" },
  { id: "parking", title: "停车说明", keywords: "停车", body: "商场地下停车场，消费满200元免费停车2小时，周末车位紧张。" },
  { id: "fees", title: "Shipping rates", keywords: "shipping", body: "Standard shipping is free on orders over $75, otherwise $7.95. It arrives in 3 to 6 business days." },
  { id: "alaska", title: "Shipping to Alaska and Hawaii", keywords: "Alaska", body: "Orders to Alaska and Hawaii ship by Priority Mail for a flat $19.95." },
]);
const first = (q: Parameters<typeof rank>[0]) => rank(q, shop).articles[0]?.id;

describe("a question read with the one before it", () => {
  test("the follower's own terms weigh all of their idf, the earlier question's terms CONTEXT.weight of theirs and are marked so, a term in both once at its full weight as the follower's", () => {
    const t = (term: string, idf: number): QueryTerm => ({ term, idf, known: true });
    const got = withContext([t("周末", 2)], [t("营业", 3), t("周末", 2)]);
    // Marked as the earlier question's: the passage shown weighs them less (score.ts shownPassage).
    expect(got).toEqual([t("周末", 2), { ...t("营业", 3 * CONTEXT.weight), earlier: true }]);
  });

  test("the earlier question's words together weigh at most the follower's own; a follow-up of no known word reads the earlier one's at CONTEXT.weight", () => {
    const t = (term: string, idf: number, known = true): QueryTerm => ({ term, idf, known });
    // 9 × CONTEXT.weight is more than the follower's 2: the earlier terms share 2 between them.
    const capped = withContext([t("alaska", 2)], [t("standard", 3), t("ship", 3), t("free", 3)]);
    expect(capped.slice(1).reduce((s, x) => s + x.idf, 0)).toBeCloseTo(2, 9);
    // Just under the cap: each at CONTEXT.weight.
    const just = 2 / CONTEXT.weight - 0.01;
    expect(withContext([t("alaska", 2)], [t("standard", just)])[1]?.idf).toBeCloseTo(just * CONTEXT.weight, 9);
    // The follower's words unknown to the account: the earlier question at CONTEXT.weight, not at nothing.
    const unknown = withContext([t("电影", 2, false)], [t("营业", 3)]);
    expect(unknown[1]?.idf).toBeCloseTo(3 * CONTEXT.weight, 9);
  });

  test("a few words that only make sense after the question before are ranked with it: that question's article comes first", () => {
    // Alone, 周末 is held by the vouchers and the parking notes, not by the opening hours.
    expect(first("周末呢")).not.toBe("hours");
    expect(first({ text: "周末呢", context: "营业到几点" })).toBe("hours");
  });

  test("a follow-up naming another article's subject moves to it: the earlier question weighs less than the follower's own words", () => {
    expect(first({ text: "what about Alaska?", context: "How much is shipping?" })).toBe("alaska");
    // Were the earlier question's words weighed as the follower's own, the old article would stay first.
    expect(first({ text: "what about Hawaii and Alaska?", context: "How much is standard shipping? Is it free over $75? how many business days?" })).toBe("alaska");
  });

  test("ownCoverage: of a follow-up, the share of the follower's own words held, one no article holds counting against it, the earlier question's words not at all; of a question alone, its coverage", () => {
    const of = (q: Parameters<typeof rank>[0], id: string) => rank(q, shop).articles.find((a) => a.id === id);
    // Alaska holds "alaska", no article "kayak": each weighs as the rarest, so half; the earlier question's "shipping" does not count.
    const followup = of({ text: "alaska kayak", context: "How much is shipping?" }, "alaska");
    expect(followup?.ownCoverage).toBeCloseTo(0.5, 3);
    // The share of the whole question read together counts the earlier words the article holds.
    expect(followup?.coverage).toBeGreaterThan(0.5);
    const alone = of("alaska kayak", "alaska");
    expect(alone?.ownCoverage).toBe(alone?.coverage as number);
  });
});

describe("articles left out", () => {
  const many = new MemorySource(
    Array.from({ length: RANKING_LIMITS.candidates + 8 }, (_, i) => ({ id: `a${String(i).padStart(2, "0")}`, title: `退款说明 ${i}`, keywords: "退款", body: `退款${"退款".repeat(20 - (i % 20))}到账说明。` })),
  );

  test("are never ranked, and the next ones take their places: as many articles are ranked as without them", () => {
    const before = rank("退款", many).articles.map((a) => a.id);
    expect(before.length).toBe(RANKING_LIMITS.ranked);
    const exclude = before.slice(0, 3);
    const after = rank({ text: "退款", exclude }, many).articles.map((a) => a.id);
    expect(after.length).toBe(RANKING_LIMITS.ranked);
    expect(after.some((id) => exclude.includes(id))).toBe(false);
    expect(after.slice(0, 2)).toEqual(before.slice(3, 5));
  });

  test("asked for again and again, the ranking offers the next ones each time while CONTEXT.excluded are left out", () => {
    const offered: string[] = [];
    while (offered.length < CONTEXT.excluded) {
      const got = rank({ text: "退款", exclude: offered }, many).articles.map((a) => a.id);
      expect(got.length).toBe(RANKING_LIMITS.ranked);
      expect(got.some((id) => offered.includes(id))).toBe(false);
      offered.push(...got.slice(0, 3));
    }
  });

  test("at most CONTEXT.excluded of them are read: past that the rest are ranked again", () => {
    const all = rank("退款", many).articles.map((a) => a.id);
    const exclude = [...Array.from({ length: CONTEXT.excluded }, (_, i) => `gone${i}`), all[0] as string];
    expect(rank({ text: "退款", exclude }, many).articles[0]?.id).toBe(all[0]);
  });
});

describe("what a follow-up asks of the thing read (asks-frame.ts)", () => {
  const renovation = new MemorySource([
    { id: "period", title: "装修工期要多久", keywords: "工期\u001f多久\u001f顺延", body: "按标准工艺，60-90㎡两居室整装约75-90天，半包约60-75天。工期从开工交底之日起算，到竣工验收之日结束。业主变更设计、主材未按时到场时工期顺延。" },
    { id: "measure", title: "如何预约免费量房", keywords: "量房\u001f上门\u001f预约", body: "安居提供免费上门量房，不收取任何费用，也不要求签约。客服会在当天回电，约定上门时间。上门人员为设计师和测量员各1名，用时约1-1.5小时。" },
    { id: "design", title: "设计费怎么收", keywords: "设计费", body: "量房后出方案。设计费按套内面积每平方米50元收取，签施工合同后可全额抵扣工程款。" },
    { id: "repair", title: "装修后出了问题怎么报修", keywords: "报修\u001f售后", body: "在公众号提交报修，售后专员24小时内联系您，48小时内上门查看，需要重新量房的免费。" },
  ]);
  const firstOf = (q: Parameters<typeof rank>[0]) => rank(q, renovation).articles[0]?.id;

  test("the terms only its frame words hold: how long, how much, when — in simplified and traditional characters and in English; none in a message without them", () => {
    const asked = frameTerms("多久能上门");
    for (const t of ["多", "多久", "久"]) expect(asked.has(t)).toBe(true);
    expect(asked.has("上门")).toBe(false);
    expect(frameTerms("多長時間能到").has("时间")).toBe(true);
    expect([...frameTerms("how long until it's back")]).toEqual(["long"]);
    // 时间 of 营业时间 is a subject, not a frame.
    expect(frameTerms("营业时间呢").size).toBe(0);
    // A word the rest of the message says too stays whole: 天 of 七天 beside 几天.
    expect(frameTerms("七天能到吗 要几天").has("天")).toBe(false);
    // Not a subject's characters: the 办 of 怎么办理, the 号 of 几号线; not 好几天, which asks nothing (a review).
    expect(frameTerms("会员卡怎么办理").has("办理")).toBe(false);
    expect(frameTerms("坐几号线").size).toBe(0);
    expect(frameTerms("等了好几天了").size).toBe(0);
    // Typed in full width or with two spaces, as the ranking reads them.
    expect([...frameTerms("ｈｏｗ ｌｏｎｇ")]).toEqual(["long"]);
    expect([...frameTerms("how  long is it")]).toEqual(["long"]);
  });

  test("a follow-up's frame words weigh CONTEXT.frame of their idf: 多久能上门 after 量房要钱吗 stays on measuring, not the article whose title asks 多久", () => {
    expect(firstOf({ text: "多久能上门", context: "量房要钱吗" })).toBe("measure");
    // Alone the title's 多久 leads: the frame is all the follow-up's own words hold.
    expect(firstOf("多久能上门")).toBe("period");
    const was = CONTEXT.frame;
    CONTEXT.frame = 1;
    try {
      expect(firstOf({ text: "多久能上门", context: "量房要钱吗" })).toBe("period");
    } finally {
      CONTEXT.frame = was;
    }
  });
});
