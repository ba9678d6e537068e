/** What a follower tells after asking weighs less in the share of the question an article holds (src/ranking/explanation.ts, score.ts). */
import { afterEach, describe, expect, test } from "bun:test";
import { explainedTerms } from "../src/ranking/explanation.ts";
import { RANKING } from "../src/ranking/bm25.ts";
import { choose } from "../src/ranking/choice.ts";
import { rank } from "../src/ranking/rank.ts";
import { evalAccount } from "./eval-account.ts";

const courier = evalAccount("fresh2-zh", "zh-courier-suda");
const ASKED_THEN_TOLD = "能上门取件吗 我在家带娃出不去";
const shipped = RANKING.explanation;
afterEach(() => {
  RANKING.explanation = shipped;
});

describe("the follower's explanation after the question", () => {
  test("the words only in parts after the first asking part that ask nothing", () => {
    expect([...(explainedTerms(ASKED_THEN_TOLD) ?? [])]).toEqual(["家", "带", "娃", "出", "不", "去"]);
    expect([...(explainedTerms("can you send letters in large print, my eyesight's not good") ?? [])]).toEqual(["eyesight", "good"]);
    // Between two questions, told too.
    expect([...(explainedTerms("能上门取件吗 我在家 能下午来吗") ?? [])]).toEqual(["家"]);
  });

  test("none told before the question (its subject), in one question, or in a part that asks", () => {
    for (const q of ["空调不制冷 咋回事", "我在家带娃出不去 能上门取件吗", "能上门取件吗", "宝宝刚出生 医保怎么办 要带啥", "为啥今年社保扣得比去年多了 基数咋定的"]) expect(explainedTerms(q)).toBeNull();
  });

  test("asked then explained, the pickup article is sent; the explanation weighing in full, the fallback", () => {
    const c = choose(rank(ASKED_THEN_TOLD, courier).articles);
    expect(c.kind === "one" && c.article.id).toBe("pickup-time");
    RANKING.explanation = 1;
    expect(choose(rank(ASKED_THEN_TOLD, courier).articles).kind).toBe("none");
  });

  test("the same words told first are the question's subject: they count in full, and the fallback", () => {
    expect(choose(rank("我在家带娃出不去 能上门取件吗", courier).articles).kind).toBe("none");
  });
});
