/** A message that is a taught question (src/wechat/answering/taught.ts), on its own: what counts as the same words, and which article. */
import { expect, test } from "bun:test";
import { taughtArticle, taughtForm } from "../../src/wechat/answering/taught.ts";
import type { RankedArticle } from "../../src/ranking/types.ts";

const ranked = (...ids: string[]) => ids.map((id) => ({ id }) as RankedArticle);
const articles = (rows: Record<string, { questions: string[]; deleted?: boolean }>) => ({
  get: (id: string) => (rows[id] ? ({ id, deleted: false, ...rows[id] } as never) : null),
});

test("the same words in any case, white space, full width, and punctuation or symbols at the ends ('~', an emoji)", () => {
  for (const asked of ["how much deposit", "How much deposit??", "  HOW much   deposit ", "how much deposit~", "how much deposit 🙏", "ｈｏｗ much deposit"])
    expect({ asked, form: taughtForm(asked) }).toEqual({ asked, form: "how much deposit" });
  // Words inside are words: not the same question.
  expect(taughtForm("how much, deposit")).not.toBe(taughtForm("how much deposit"));
});

test("the first of the ranking's first five holding it, never a deleted one; none past the fifth", () => {
  const rows = { a: { questions: [] }, b: { questions: ["How much deposit?"], deleted: true }, c: { questions: ["how much deposit"] }, d: { questions: ["how much deposit"] } };
  expect(taughtArticle("how much deposit", ranked("a", "b", "c", "d"), articles(rows))?.id).toBe("c");
  expect(taughtArticle("how much deposit", ranked("a", "a", "a", "a", "a", "c"), articles(rows))).toBeNull();
  expect(taughtArticle("   ", ranked("c"), articles(rows))).toBeNull();
});
