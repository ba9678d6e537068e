/**
 * A pronoun, "also", "too" or "either" leans on the question before unless an earlier clause of the same
 * message names what it stands for (src/ranking/cues.ts pointsBack): "graffiti on the bus shelter, pls can someone clean
 * it" is a question of its own, "can someone clean it up" after the fly-tipping article is not.
 */
import { describe, expect, test } from "bun:test";
import { leansOnBefore } from "../../src/ranking/cues.ts";
import { RANKING_LIMITS } from "../../src/ranking/rank.ts";
import { evalAccount } from "../eval-account.ts";
import { conversationIn, shown } from "./reading-helpers.ts";

const council = evalAccount("fresh2-en", "en-council-marlow");
const DUMPED = "someone dumped rubbish bags in the alley behind us";

describe("a pronoun whose subject the message names", () => {
  test("a pronoun with no clause before it naming two words of a subject leans", () => {
    // Words in the pronoun's own clause say what is done to it, not what it is ("come and fix it": and
    // before no clause's opening joins two verbs); one word before a comma is said before the question
    // (ok, hmm, thanks) — or a subject of one word, read with the question before.
    for (const text of ["can I undo it?", "can my husband collect it?", "can someone come and fix it tonight?", "do I pay it twice if the ceiling and sofa are both ruined?", "ok, is it free?", "hmm, how much is it", "the sofa, is it in stock?", "ok and does it cost extra"]) expect(leansOnBefore(text)).toBe(true);
    // "also", and "too" or "either" closing their clause, however the clause ends, add to what was asked before.
    for (const text of ["can my wife come too?", "can my wife come too 🙂", "is my garage covered too thanks", "can i also pay by card", "not on sundays either?", "i can't find the code either"]) expect(leansOnBefore(text)).toBe(true);
  });

  test("a clause about the follower names no subject: the word after it still leans", () => {
    for (const text of ["I'm 72 and live alone, can I get it?", "we have two cars, can they both have one?", "my daughter is 8, can she join too?", "we're moving house next month, can I transfer it?", "my mum's necklace was worth £6k, will I get all of it?", "I work till 9. can I get it after hours?"]) expect(leansOnBefore(text)).toBe(true);
  });

  test("a word after a clause naming two words or more points to them: the message does not lean", () => {
    for (const text of ["graffiti on the bus shelter on station road, pls can someone clean it", "bus shelter, can someone clean it", "graffiti on the bus shelter\ncan someone clean it", "can we get married at the town hall or is that a different office", "invoice emails arent arriving for some of my customers, they say nothing in spam either"]) expect(leansOnBefore(text)).toBe(false);
    // Numbers name no subject: "room 12, is it free?" leans.
    expect(leansOnBefore("room 12, is it free?")).toBe(true);
  });

  test("\"too\" before what it intensifies and a demonstrative before a time point back to nothing", () => {
    for (const text of ["can you make the ashby table 220cm long? 200 is slightly too short", "my bin is too heavy to drag to the kerb", "is the outdoor pool opening earlier this summer?", "are you open this weekend", "are you open this  saturday", "that week i was away"]) expect(leansOnBefore(text)).toBe(false);
    // …but the demonstrative before what is no time still does: "is that fee refundable", "can i change that day?".
    for (const text of ["is that fee refundable", "can i change that day?"]) expect(leansOnBefore(text)).toBe(true);
  });

  test("only the first RANKING_LIMITS.questionChars characters are read, as the question is ranked", () => {
    const padding = "x ".repeat(Math.ceil(RANKING_LIMITS.questionChars / 2));
    expect(leansOnBefore(`can someone clean it ${padding}`)).toBe(true);
    expect(leansOnBefore(`window ${padding}can someone clean it`)).toBe(false);
  });

  test("after the fly-tipping article, a question of its own ending in \"it\" is read alone and gets what it gets alone", async () => {
    expect(shown(await conversationIn(council, DUMPED))).toEqual(["fly-tipping"]);
    const message = "graffiti on the bus shelter on station road, pls can someone clean it";
    const r = await conversationIn(council, DUMPED, message);
    expect(r.how).toBe("alone");
    expect(shown(r)).toEqual(shown(await conversationIn(council, message)));
  });

  test("after the fly-tipping article, \"can someone clean it up\" is read with it and leads with it", async () => {
    const r = await conversationIn(council, DUMPED, "can someone clean it up");
    expect(r.how).toBe("followup");
    expect(shown(r)[0]).toBe("fly-tipping");
    // Alone, it leads with another article.
    expect(shown(await conversationIn(council, "can someone clean it up"))[0]).not.toBe("fly-tipping");
  });
});

test("a message is read for leaning as far as it is ranked: a 也 past RANKING_LIMITS.questionChars does not make it a follow-up", async () => {
  const shop = evalAccount("fresh4-zh", "zh-shop-baobei");
  let told = "";
  while (told.length < RANKING_LIMITS.questionChars + 20) told += "前天刚买的纸尿裤今天就降了20块 气死了 能退差价吗 ";
  const long = `${told}客服也不回`;
  const ranked = long.slice(0, RANKING_LIMITS.questionChars);
  // The whole text leans by its 也, what is ranked of it does not.
  expect([leansOnBefore(long), leansOnBefore(ranked)]).toEqual([true, false]);
  const [whole, cut] = [await conversationIn(shop, "退货运费谁出", long), await conversationIn(shop, "退货运费谁出", ranked)];
  expect(whole.how).toBe(cut.how);
  expect(shown(whole)).toEqual(shown(cut));
  expect(whole.how).toBe("alone");
});
