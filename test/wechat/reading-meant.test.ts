/**
 * "Not this one, I meant …" after an article whose body answers what is meant: that article again
 * when the words meant, ranked on their own and nothing left out, are sure of it; else the articles
 * not yet offered (src/wechat/answering/reading.ts sureOfOffered). Not read with the question before:
 * its words pull back the article turned down (test/wechat/reading.test.ts: "i use the website").
 */
import { describe, expect, test } from "bun:test";
import type { Reading } from "../../src/wechat/answering/reading.ts";
import { offer } from "../../src/wechat/answering/reading-turn.ts";
import { evalAccount } from "../eval-account.ts";
import { firstThen, shown } from "./reading-helpers.ts";

const fund = evalAccount("walk-zh", "zh-housing-linjiang");
const conversation = (first: string, then: string) => firstThen(fund, first, then);

describe("another, saying what was meant", () => {
  test("the words meant sure of the article offered: that article again, first, its card on what was meant", async () => {
    const { first, last } = await conversation("贷款利率多少", "不是这个 我问的是二套房的利率");
    expect(first).toEqual(["loan-interest-rates"]);
    expect(last).toMatchObject({ how: "another", meant: "我问的是二套房的利率", question: { text: "我问的是二套房的利率" } });
    expect(last.question.exclude).toBeUndefined();
    expect(shown(last)[0]).toBe("loan-interest-rates");
    const card = offer(last as Exclude<Reading, { how: "pick" }>);
    const passage = card.kind === "list" ? card.articles[0]?.passage : card.kind === "one" ? card.article.passage : null;
    expect(passage).toContain("二套");
  });

  test("the words meant sure of no article offered: the articles not yet offered, as before", async () => {
    const { first, last } = await conversation("离职提取咋弄", "不是问这个 我问的是离职后能不能自己继续交");
    expect(first).toEqual(["withdrawal-resignation"]);
    expect(last.how).toBe("another");
    expect(last.question.exclude).toEqual(["withdrawal-resignation"]);
    expect(shown(last)).not.toContain("withdrawal-resignation");
    expect(shown(last)).toContain("flexible-employment-deposit");
  });

  test("\"another\" with nothing meant leaves out what was offered, however sure the question is of it", async () => {
    const { first, last } = await conversation("贷款利率多少", "换一个");
    expect(first).toEqual(["loan-interest-rates"]);
    expect(shown(last)).not.toContain("loan-interest-rates");
  });
});
