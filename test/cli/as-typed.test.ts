import { expect, test } from "bun:test";
import { asTyped } from "../../src/cli/as-typed.ts";

test("a term is shown as the question wrote it: traditional characters, full width, a unit sign folded to letters", () => {
  expect(asTyped("营业", "營業時間幾點")).toBe("營業");
  expect(asTyped("时间", "營業時間幾點")).toBe("時間");
  expect(asTyped("密码", "ＷＩＦＩ密碼")).toBe("密碼");
  expect(asTyped("kg", "5㎏多少钱")).toBe("㎏");
});

test("a stem is shown as the word the question wrote (a theatre's operator had been told 'not held boi'); a word the ranking reads otherwise, as it reads it", () => {
  expect(asTyped("boi", "my boy is 9, is that ok")).toBe("boy");
  expect(asTyped("chang", "how do i change my tickets")).toBe("change");
  expect(asTyped("ticket", "how do i change my tickets")).toBe("tickets");
  expect(asTyped("befor", "paying by card before the day")).toBe("before");
  // Not across a hyphen: wi and fi are each what was written (a review had "wi-fi wi-fi" printed as not held).
  expect([asTyped("wi", "is there wi-fi"), asTyped("fi", "is there wi-fi"), asTyped("box", "where is the box-office")]).toEqual(["wi", "fi", "box"]);
});

test("a term the question does not hold so (a synonym's, a stem no word of it gives, half of a folded sign) is shown as the ranking reads it", () => {
  expect(asTyped("客服", "人工在吗")).toBe("客服");
  expect(asTyped("deliveri", "delivery times")).toBe("deliveri");
  expect(asTyped("k", "5㎏")).toBe("k");
});

test("ask names the question's words no article holds: those not among the terms read, words only, nor covered by a synonym group read; nothing when the ranking read as many as it may", async () => {
  const { unheldWords } = await import("../../src/ranking/unheld.ts");
  const { SynonymTable } = await import("../../src/ranking/synonyms.ts");
  const { termsOf } = await import("../../src/ranking/words.ts");
  const { RANKING_LIMITS } = await import("../../src/ranking/rank.ts");
  expect(unheldWords("my gums bleed when I brush", ["brush"], null)).toEqual(["gum", "bleed"]);
  // The greeting it opens with is not read by the ranking: not named.
  expect(unheldWords("Dear sir, my gums bleed", [], null)).toEqual(["gum", "bleed"]);
  // A pair straddling a word held and the next (舍押 of 宿舍押金) is no word of the follower's: not named.
  expect(unheldWords("老师您好，宿舍押金多少", ["宿舍"], null)).toEqual(["押金"]);
  expect(unheldWords("有校车吗", ["校车", "校", "车"], null)).toEqual([]);
  // Only beside it: 学籍 and 校服 are words of their own, though 学费 and 校车 hold a character of each.
  expect(unheldWords("学费 学籍怎么办", ["学费", "学", "费"], null)).toEqual(["学籍"]);
  expect(unheldWords("校车和校服多少钱", ["校车", "校", "车"], null)).toContain("校服");
  expect(unheldWords("校车和校服多少钱", ["校车", "校", "车"], null)).not.toContain("车和");
  // Chinese: its pairs, not its single characters.
  expect(unheldWords("景区有wifi吗", ["景区", "景", "区"], null)).toEqual(["wifi"]);
  expect(unheldWords("景色有wifi吗", ["景"], null)).toEqual(["景色", "wifi"]);
  // A pair holding a character that says nothing alone (的, 能, 有, 吗, 那, 呢) is the seam of two words: not
  // named; the words 会, 过, 快, 地 open or close are (会员, 过敏, 快递, 地址).
  expect(unheldWords("储值卡里的钱能退吗", ["储值", "储", "值"], null)).toEqual(["卡里"]);
  expect(unheldWords("那烫呢", [], null)).toEqual([]);
  for (const [q, w] of [["会员卡怎么办", "会员"], ["我对花生过敏", "过敏"], ["快递到哪了", "快递"], ["地址在哪", "地址"]]) expect(unheldWords(q as string, [], null)).toContain(w as string);
  expect(unheldWords("my gums bleed", Array.from({ length: RANKING_LIMITS.terms }, (_, i) => `t${i}`), null)).toEqual([]);
  // 没水 is one of a group an article holds (停水): held. Without the group read, it is not.
  const table = SynonymTable.of([["停水", "没水", "断水"]], termsOf);
  const group = (table?.cover(termsOf("停水")) ?? [])[0] as string;
  expect(unheldWords("家里没水了", ["家", "家里", "里", group], table)).toEqual([]);
  expect(unheldWords("家里没水了", ["家", "家里", "里"], table)).toEqual(["没水"]);
});
