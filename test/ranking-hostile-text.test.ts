/**
 * What a follower can type that the words' readers must take in one pass and read alike
 * (src/ranking/taught-form.ts, picks.ts, words.ts, latin-forms.ts, fold.ts; a review, Session 50):
 * a long run of marks or spaces inside a message, a word repeated thousands of times, a line's end
 * after "one", an invisible format character. The bounds below are hundreds of times what one pass
 * takes and a fraction of what the patterns they replace took (2 to 9 s): no speed target, a guard
 * against reading the text again for each character or run.
 */
import { describe, expect, test } from "bun:test";
import { taughtForm } from "../src/ranking/taught-form.ts";
import { bareNumber, picksEntry, toldToSend } from "../src/ranking/picks.ts";
import { termsOf } from "../src/ranking/words.ts";
import { fold } from "../src/ranking/fold.ts";
import { asksAnother } from "../src/ranking/another.ts";
import { courtesyOf } from "../src/ranking/courtesy.ts";
import { READ_CHARS, readText, typedText } from "../src/wechat/answering/typed.ts";

const within = <T>(ms: number, f: () => T): T => {
  const t = performance.now();
  const out = f();
  expect(performance.now() - t).toBeLessThan(ms);
  return out;
};

describe("a long run inside a message is read once", () => {
  test("the taught form: the marks at its ends go, a run of 30,000 inside it is kept, in one pass", () => {
    // Full width folded as the ranking reads it: ？ is ?.
    expect(within(300, () => taughtForm(`运费${"？".repeat(30_000)}吗`))).toBe(`运费${"?".repeat(30_000)}吗`);
    expect(within(300, () => taughtForm(`a${"! ".repeat(30_000)}b`))).toBe(`a${"! ".repeat(30_000).trimEnd()} b`.replace(/ +/g, " "));
    // As before: the ends' marks and one particle after a Chinese character go, an apostrophe in a word too.
    expect(taughtForm("？？營業時間呀！！")).toBe("营业时间");
    expect(taughtForm("  Where’s my order?? 😅")).toBe("wheres my order");
    expect(taughtForm("a!!b")).toBe("a!!b");
  });

  test("a code the welcome text told to send: spaces and a colon between, and 60,000 spaces before no code", () => {
    expect(toldToSend("回复 ：3")).toBe("3");
    expect(toldToSend("reply:  3")).toBe("3");
    expect(toldToSend("回复3")).toBe("3");
    expect(within(300, () => toldToSend(`回复${" ".repeat(60_000)}运费 多少`))).toBeNull();
    expect(within(300, () => bareNumber(`回复${" ".repeat(60_000)}运费 多少`))).toBe(false);
  });

  test("\"im\" and \"ive\" typed for I: read once a text, however many times they are typed", () => {
    // As the ranking reads words: Porter's stem of "ive" is "iv".
    expect(termsOf("ive been waiting an hour")).not.toContain("iv");
    // Written in capitals elsewhere, IVE is a name: kept.
    expect(termsOf("is ive on the IVE list")).toContain("iv");
    expect(within(300, () => termsOf("ive ".repeat(7_500)))).toEqual([]);
  });
});

test("\"one\" closing a line is the pronoun, as before a full stop: no \"on\" for it", () => {
  const split = termsOf("how do i get a new one\nmy bin was stolen");
  expect(split).toEqual(termsOf("how do i get a new one. my bin was stolen"));
  expect(split).not.toContain("on");
  expect(termsOf("how do i get a new one\r\nmy bin was stolen")).toEqual(split);
});

describe("invisible format characters", () => {
  test("a message's closed sets read without them: a pick, \"another\", thanks", () => {
    for (const mark of ["\u200b", "\u200e", "\u200f", "\u2060", "\u00ad", "\ufeff"]) {
      expect(fold(`换一个${mark}`)).toBe("换一个");
      expect(asksAnother(`换一个${mark}`)).toBe(true);
      expect(picksEntry(`第二个${mark}`)).toBe(2);
      expect(picksEntry(`2${mark}`)).toBe(2);
      expect(courtesyOf(`谢谢${mark}`)).toBe(courtesyOf("谢谢"));
    }
  });

  test("the text as typed loses them at its ends, keeps them inside (an emoji's joiners), in one pass", () => {
    expect(typedText("\u200b 2 \u200e")).toBe("2");
    expect(typedText("\ufeff谢谢\u2060")).toBe("谢谢");
    const family = "👨\u200d👩\u200d👧";
    expect(typedText(` ${family} `)).toBe(family);
    expect(typedText("plain")).toBe("plain");
    const long = `a${" \u200b".repeat(30_000)}b`;
    expect(within(300, () => typedText(long))).toBe(long);
  });
});

test("what of a message is read to answer it: its first READ_CHARS characters, no surrogate pair cut in half", () => {
  expect(readText(`  ${"营".repeat(READ_CHARS + 10)}  `)).toBe("营".repeat(READ_CHARS));
  expect(readText("营业时间")).toBe("营业时间");
  // An astral character straddling the cut is left out whole, not halved.
  const astral = `${"a".repeat(READ_CHARS - 1)}😅tail`;
  expect(readText(astral)).toBe("a".repeat(READ_CHARS - 1));
  // A character normalisation makes eighteen of, 20,000 times: read on its first READ_CHARS.
  expect(readText("\ufdfa".repeat(20_000)).length).toBe(READ_CHARS);
});
