/**
 * Followers' turns in this instance's memory (src/wechat/answering/conversation.ts) and how a message is read
 * with them (reading.ts): each bound tested just past it — followers held, bytes per turn, turns per
 * follower, the window — and a message delivered again being the same turn.
 */
import { describe, expect, test } from "bun:test";
import { bounded, CONVERSATION, LocalConversations, parseTurns, turnKey, turnTime, type Turn } from "../../src/wechat/answering/conversation.ts";
import { asksAnother } from "../../src/ranking/another.ts";
import { leansOnBefore } from "../../src/ranking/cues.ts";
import { picksEntry } from "../../src/ranking/picks.ts";
import { courtesyOf, courtesyOrPraise, standsAlone, withoutOpening } from "../../src/ranking/courtesy.ts";
import { earlierOf, pickedFromList, read } from "../../src/wechat/answering/reading.ts";
import { nextTurn } from "../../src/wechat/answering/reading-turn.ts";
import { ANSWERS, choose } from "../../src/ranking/choice.ts";
import type { Question } from "../../src/ranking/question.ts";
import type { RankingResult } from "../../src/ranking/types.ts";

const turn = (text: string, at: number, extra: Partial<Turn> = {}): Turn => ({ key: turnKey(`m:o:${text}:${at}`), at, text, earlier: [], offered: [], shown: [], ...extra });

describe("followers' turns in memory", () => {
  test("a turn kept now stands after the newest before it, in the same millisecond too (read by time, it had been taken for the older)", () => {
    const t = (at: number): Turn => ({ key: `k${at}`, at, text: "x", earlier: [], offered: [], shown: [] });
    expect(turnTime([t(1000)], 1000)).toBe(1001);
    expect(turnTime([t(1000)], 999)).toBe(1001);
    expect(turnTime([t(1000)], 5000)).toBe(5000);
    expect(turnTime([], 5000)).toBe(5000);
  });
  test("at most CONVERSATION.turns turns a follower, the newest", async () => {
    let now = 1_000_000;
    const c = new LocalConversations(() => now);
    for (const text of ["one", "two", "three"]) {
      now += 1000;
      await c.add("o1", turn(text, now), await c.recent("o1", "new"));
    }
    expect((await c.recent("o1", "new")).map((t) => t.text)).toEqual(["three", "two"]);
    // As stored, too: given three, it keeps two.
    const three = [turn("c", now), turn("b", now - 1), turn("a", now - 2)];
    expect(parseTurns(c.keep("o2", three[0] as Turn, three.slice(1))).map((t) => t.text)).toEqual(["c", "b"]);
    expect(parseTurns(c.keep("o3", turn("d", now + 1), three)).map((t) => t.text)).toEqual(["d", "c"]);
  });

  test("a turn CONVERSATION.windowMs old is gone; one a millisecond younger is read", async () => {
    let now = 1_000_000;
    const c = new LocalConversations(() => now);
    await c.add("o1", turn("q", now), []);
    now += CONVERSATION.windowMs - 1;
    expect((await c.recent("o1", "new")).length).toBe(1);
    now += 1;
    expect(await c.recent("o1", "new")).toEqual([]);
    // And the follower has left memory.
    expect(c.size).toBe(0);
  });

  test("CONVERSATION.followers followers held; one more, and the one heard from longest ago leaves", async () => {
    const now = 1_000_000;
    const c = new LocalConversations(() => now);
    for (let i = 0; i < CONVERSATION.followers; i++) await c.add(`o${i}`, turn("q", now), []);
    // Heard from again: no longer the oldest.
    await c.add("o0", turn("again", now), await c.recent("o0", "x"));
    expect(c.size).toBe(CONVERSATION.followers);
    await c.add("newcomer", turn("q", now), []);
    expect(c.size).toBe(CONVERSATION.followers);
    expect((await c.recent("o1", "x")).length).toBe(0);
    expect((await c.recent("o0", "x")).map((t) => t.text)).toEqual(["again", "q"]);
    expect((await c.recent("newcomer", "x")).length).toBe(1);
  });

  test("a follower id longer than CONVERSATION.openidChars is not followed; one that long is", async () => {
    const c = new LocalConversations(() => 1000);
    const long = "o".repeat(CONVERSATION.openidChars + 1);
    await c.add(long, turn("q", 1000), []);
    expect(await c.recent(long, "x")).toEqual([]);
    const fits = "o".repeat(CONVERSATION.openidChars);
    await c.add(fits, turn("q", 1000), []);
    expect((await c.recent(fits, "x")).length).toBe(1);
  });

  test("a message delivered again replaces its turn: read without it, kept once", async () => {
    const c = new LocalConversations(() => 5000);
    const q = turn("营业到几点", 1000);
    await c.add("o1", q, []);
    const f = turn("周末呢", 2000, { key: turnKey("m:o1:77"), earlier: ["营业到几点"] });
    await c.add("o1", f, await c.recent("o1", f.key));
    // The resend reads what the first delivery read, and leaves the same turns.
    const again = await c.recent("o1", f.key);
    expect(again.map((t) => t.text)).toEqual(["营业到几点"]);
    await c.add("o1", { ...f, at: 3000 }, again);
    expect((await c.recent("o1", "next")).map((t) => t.text)).toEqual(["周末呢", "营业到几点"]);
  });

  test("unlist forgets the list the newest turn showed and keeps the turns; an older turn's list is not touched", async () => {
    const c = new LocalConversations(() => 5000);
    await c.add("o1", turn("营业到几点", 1000, { offered: ["a"], shown: ["a"] }), []);
    await c.add("o1", turn("春熙路店", 2000, { offered: ["a", "b", "c"], shown: ["a", "b", "c"] }), await c.recent("o1", "x"));
    await c.unlist("o1");
    const after = await c.recent("o1", "x");
    expect(after.map((t) => [t.text, t.shown, t.offered])).toEqual([
      ["春熙路店", [], ["a", "b", "c"]],
      ["营业到几点", ["a"], ["a"]],
    ]);
    // Nobody's turns: nothing made.
    await c.unlist("o2");
    expect(c.size).toBe(1);
    // The code of an entry of the newest list: the list stays, that entry picked from it.
    await c.add("o3", turn("课程", 3000, { offered: ["math", "english"], shown: ["math", "english"] }), []);
    await c.unlist("o3", { entry: "math", key: "k-math", about: "数学课" });
    expect((await c.recent("o3", "x")).map((t) => [t.shown, t.picked])).toEqual([[["math", "english"], ["math"]]]);
  });

  test("another article's code is the follower's newest turn, its title what they asked, the list before forgotten; with no turns before, their first", async () => {
    const c = new LocalConversations(() => 5000);
    await c.add("o1", turn("课程", 3000, { offered: ["math", "english"], shown: ["math", "english"] }), []);
    await c.unlist("o1", { entry: "map", key: "k-map", about: "商场地图" });
    expect((await c.recent("o1", "x")).map((t) => [t.key, t.text, t.shown, t.offered])).toEqual([
      ["k-map", "商场地图", ["map"], ["map"]],
      [expect.any(String), "课程", [], ["math", "english"]],
    ]);
    // Kept after the newest turn, whatever the clock says (a turn kept in the same millisecond had been read as the older).
    const [coded, before] = await c.recent("o1", "x");
    expect((coded?.at ?? 0) > (before?.at ?? 0)).toBe(true);
    await c.unlist("o2", { entry: "map", key: "k-map2", about: "商场地图" });
    expect((await c.recent("o2", "x")).map((t) => [t.text, t.shown])).toEqual([["商场地图", ["map"]]]);
    // The code's message itself is not its own turn (a redelivery is read as if sent once).
    expect(await c.recent("o2", "k-map2")).toEqual([]);
  });

  test("help after a code forgets the card's list, not its turn; a code after help, in the same millisecond too, is the newest turn whole", async () => {
    let now = 5000;
    const c = new LocalConversations(() => now);
    await c.add("o1", turn("课程", 3000, { offered: ["math", "english"], shown: ["math", "english"] }), []);
    await c.unlist("o1", { entry: "map", key: "k-map", about: "商场地图" });
    now += 1000;
    await c.unlist("o1");
    expect((await c.recent("o1", "x")).map((t) => [t.text, t.shown])).toEqual([
      ["商场地图", []],
      ["课程", []],
    ]);
    await c.add("o2", turn("课程", 3000, { offered: ["math", "english"], shown: ["math", "english"] }), []);
    await c.unlist("o2");
    // In the same millisecond: the card after the forgetting (a review).
    await c.unlist("o2", { entry: "map", key: "k-map2", about: "商场地图" });
    expect((await c.recent("o2", "x")).map((t) => [t.text, t.shown])).toEqual([
      ["商场地图", ["map"]],
      ["课程", []],
    ]);
  });
});

describe("a turn's bytes", () => {
  test("a turn of two follower texts of 2,048 bytes and more ids than remembered is cut to CONVERSATION.turnBytes: the lists first, then the longer text", () => {
    const big = turn("退".repeat(682), 1, { earlier: ["款".repeat(682), "ignored, a third text"], offered: Array.from({ length: CONVERSATION.offered + 1 }, (_, i) => `a${i}`.padEnd(64, "x")), shown: Array.from({ length: CONVERSATION.shown + 1 }, (_, i) => `s${i}`) });
    const b = bounded(big);
    expect(Buffer.byteLength(JSON.stringify(b))).toBeLessThanOrEqual(CONVERSATION.turnBytes);
    expect(b.offered.length).toBe(CONVERSATION.offered);
    expect(b.shown.length).toBe(CONVERSATION.shown);
    expect(b.earlier.length).toBe(CONVERSATION.turns);
    // Cut from the end, never inside a character.
    expect(big.text.startsWith(b.text)).toBe(true);
    expect(b.text.length).toBeGreaterThan(0);
  });

  test("a turn that fits is kept whole, one byte more and its text is cut", () => {
    const base = turn("", 1);
    const room = CONVERSATION.turnBytes - Buffer.byteLength(JSON.stringify(base));
    const fits = { ...base, text: "a".repeat(room) };
    expect(bounded(fits)).toEqual(fits);
    const past = { ...base, text: "a".repeat(room + 1) };
    expect(bounded(past).text.length).toBeLessThan(room + 1);
    expect(Buffer.byteLength(JSON.stringify(bounded(past)))).toBeLessThanOrEqual(CONVERSATION.turnBytes);
  });

  test("what is stored but is not turns (another version's, a damaged value) reads as none", () => {
    expect(parseTurns("{not json")).toEqual([]);
    expect(parseTurns(JSON.stringify([{ key: "k", at: "soon" }]))).toEqual([]);
    expect(parseTurns(JSON.stringify({ key: "k" }))).toEqual([]);
  });
});

describe("what a message says about the reply before it", () => {
  test("another, a pick, thanks or one more question: whole messages, case, spaces and punctuation folded", () => {
    expect(["换一个", "换个！", "不是这个", "Another one?", "something else", "NOT THIS ONE", "另一個", "另外一个"].every(asksAnother)).toBe(true);
    expect(["换一个颜色可以吗", "another question about refunds"].some(asksAnother)).toBe(false);
    expect(["第二个", "第2篇", "2", "#2", "the second one", "2nd"].map(picksEntry)).toEqual([2, 2, 2, 2, 2, 2]);
    expect(["一个", "退款第二个", "6", "two of them"].map(picksEntry)).toEqual([null, null, null, null]);
    // Past the fifth: a tag's list holds up to a hundred (第六个 had been ranked, 第7个 found a body's 7: a B&B's walkthrough).
    expect(["第六个", "第七个", "第7个", "第十个", "第十二项", "第二十三篇", "第九十九个", "第一百个", "第100个", "选第八个", "the seventh one", "the 7th one", "the 12th article", "the 100th one"].map(picksEntry)).toEqual([6, 7, 7, 10, 12, 23, 99, 100, 100, 8, 7, 7, 12, 100]);
    // Past the fifth, only so: a bare 7 is a code more often than a place, "the 24th?" a date, 第二十条 a rule's article, 第七 a seventh of anything (a review).
    expect(["7", "the 24th?", "26th?", "12th", "the seventh", "第二十条", "第七", "第0个", "第十十个", "the one", "the next one", "the table"].map(picksEntry)).toEqual([null, null, null, null, null, null, null, null, null, null, null, null]);
    expect(["谢谢", "OK!", "thanks", "👍", "再问一下", "One more question:"].every(standsAlone)).toBe(true);
    // Anger or a thumbs down without a word is no courtesy: the follower is displeased (the fallback, the inbox).
    expect(["😡😡😡", "👎", "🤬", "😒😒"].filter(standsAlone)).toEqual([]);
    expect(standsAlone("谢谢，运费呢")).toBe(false);
    // Thanked with an endearment (a theatre's walkthrough: the fallback, and the top of the report's questions nothing answered).
    expect(["Thank you so much dear 😊", "thanks dear", "cheers pet", "thanks love", "thank you darling x", "thanks buddy"].filter((t) => !standsAlone(t))).toEqual([]);
    // Never alone, nor in a question.
    expect(["love", "pet", "buddy", "is my pet allowed", "thanks, can i bring my pet", "dear sir can i bring my pet"].filter(standsAlone)).toEqual([]);
    // Beside thanks only: "pet ok?" asks whether pets are (a review).
    expect(["pet ok?", "Pet OK?", "ok, pet?", "hi pet?", "hon ok?", "buddy ok?"].filter(standsAlone)).toEqual([]);
    // Said again and again, and the greetings that ask whether anyone is there.
    expect(["在吗在吗？？？", "谢谢谢谢!", "ok ok", "嗯嗯嗯", "在不在", "有人吗"].every(standsAlone)).toBe(true);
    expect(["在吗 运费多少", "ok ok 运费呢", "不不"].some(standsAlone)).toBe(false);
    // 人呢 asks whether anyone is there ("人呢？？在不在" had got the fallback: a service centre's walkthrough); asking for a person (人工) does not.
    expect(["人呢", "人呢？？在不在", "有没有人", "有没有人？"].filter((t) => !standsAlone(t))).toEqual([]);
    expect(["有没有人工", "有没有人工服务", "有没有人知道居住证怎么办", "人呢 居住证怎么办", "有人没收到", "有人不知道"].filter(standsAlone)).toEqual([]);
    // Traditional characters read as simplified, as the ranking reads them; Cantonese thanks.
    expect(["謝謝", "多謝", "唔該", "唔該晒"].every(standsAlone)).toBe(true);
    expect([picksEntry("第二個"), asksAnother("換一個")]).toEqual([2, true]);
    // Saying the answer was wrong asks for another, a particle after it too (不对啊 had got the fallback, then been taught: a walkthrough).
    expect(["不对啊", "错了", "答非所问", "不是我问的", "不是这个哦", "换一个呀", "wrong", "That's not it!", "not what i asked"].filter((t) => !asksAnother(t))).toEqual([]);
    // …opened by "that's", "no", 这 (a car hire's walkthrough: "thats not what i asked" was read as leaning on "that", and taught).
    expect(["that's not what i asked", "thats not what i asked", "No, that's wrong.", "this is wrong", "you didn't answer my question", "这不对", "你这个答非所问", "这不是我要的"].filter((t) => !asksAnother(t))).toEqual([]);
    expect(["that's it", "this is great", "its open?", "no", "这不错", "这个对吗"].filter(asksAnother)).toEqual([]);
    // None of those offered, or no help (a football club's walkthrough: "none of these" had got the food and drink card).
    expect(["none of these", "None of them.", "that doesnt help", "That doesn't help!", "not helpful", "都不是", "这些都不是", "都没用", "这个没用啊", "没有帮助"].filter((t) => !asksAnother(t))).toEqual([]);
    // 没用 alone is also "have not used it": 没用，能退吗 asks a question (a review).
    expect(["none of these fit my son", "is it helpful to book early", "没用过", "没用", "没用，能退吗", "都不是会员吗", "does it help with back pain"].filter(asksAnother)).toEqual([]);
    // Surprise is no rejection; a particle after words that are none is none.
    expect(["不是吧", "不是嘛", "不是说好的吗", "wrong size delivered", "我买错了", "对啊"].filter(asksAnother)).toEqual([]);
  });

  test("thanks and greetings as followers type them, and made of them: British, Taiwanese, Hong Kong, Singapore, Australian, Vietnamese, Filipino ones, thanks and hello in other languages, with whom they address; closes or opens", () => {
    const kinds = (said: string[]) => said.map((t) => [t, courtesyOf(t)]);
    const closes = ["cheers", "ta", "ok cheers", "cheers mate", "brill", "lovely thanks", "great thanks", "brilliant thank you", "thanks love", "nice one", "Thank you so much", "thanks for the help", "no worries",
      "3Q", "3q~", "感恩", "謝謝你們", "好喔", "了解", "哈哈", "哈哈 👍", "讚", "掰掰", "OK 感謝", "收到 謝謝🙏", "好的 收到了👌", "收到啦", "好的谢谢", "辛苦了", "ok谢谢",
      "多謝晒", "好嘅", "冇問題", "知道喇", "係咁先", "多謝你哋", "收到，唔該", "that's great thanks", "thanks, that's it", "fine thanks", "right, cheers",
      // Singapore's and Malaysia's, and whom they thank.
      "tks", "tq", "ok tks", "thank u doc", "thanks doc", "thanks lah", "noted with thanks", "ok lor", "ok can", "terima kasih", "nandri", "thank you doctor", "谢谢医生", "谢谢老师", "好的 谢谢教练",
      // Australian, and Vietnamese with its marks and without (an Australian library's walkthrough: each got the fallback or a list).
      "thanks heaps", "ok thanks heaps", "ta heaps mate", "cảm ơn", "Cảm ơn bạn", "cam on ban", "cảm ơn nhiều", "tạm biệt",
      // Filipino, with po (a walkthrough's e-wallet: each got the fallback, "noted po" an article).
      "salamat po", "maraming salamat", "ok na po thanks", "thank you po", "ty po", "ok po", "sige po", "opo", "noted po",
      // Thanks in the languages followers' families speak besides (a British shop's dziękuję got the fallback).
      "dziękuję", "Dziekuje!", "dzięki 👍", "gracias", "merci beaucoup", "danke schön", "grazie", "obrigada", "спасибо", "ありがとうございます", "감사합니다", "ok gracias", "merci 谢谢",
      // Arabic, Brazilian and Korean students', and whom they thank (a language school's walkthrough: each got the fallback).
      "Thank you brother", "thank you sister", "شكرا", "شكرا جزيلا", "Jazakallah khair", "valeu", "고마워요", "네 감사합니다",
      // Taiwan's, with Zhuyin particles, and "OK的" (a Taiwanese bookstore's walkthrough: the OK convenience store's article, or the fallback).
      "OK的", "ok了", "OK的 謝謝", "感謝您", "太感謝了", "謝謝ㄋ", "感恩ㄛ", "好ㄉ 謝謝", "ㄅㄅ",
      // That it worked, a goodbye, an emoji with its presentation selector (each had been sent articles).
      "thanks that worked!!", "it worked, thanks", "thanks, that helps a lot", "sorted, cheers", "ta, see you thursday 👍", "thanks, see you next week", "thanks ❤️", "谢谢 解决了👍", "搞定了 谢谢", "没问题了", "能用了 谢谢",
      "thank you for your kindness", "thank you for everything", "much appreciated", "appreciate it", "will do thanks", "will do", "great stuff cheers",
      // Goodbyes, and Urdu as typed (a Leeds library's walkthrough).
      "much appreciated, have a good day", "thanks, have a good day", "ta ra", "شکریہ", "bahut shukriya"];
    expect(kinds(closes)).toEqual(closes.map((t) => [t, "closes"]));
    const opens = ["good morning", "morning", "evening", "good evening", "hiya", "hey", "hello there", "hi there, quick question", "good afternoon all", "ok one more question",
      "哈囉", "安安", "請問一下", "你好在吗", "您好，请问", "下午好", "嗨", "你好呀", "早晨呀", "有冇人", "有冇人呀", "喂", "Hello, anyone there?", "anyone there?",
      "selamat pagi", "hello doc", "morning doc", "gd morning", "老师好", "医生在吗",
      "g'day", "G'day mate!", "gday", "good arvo", "xin chào", "xin chao", "chào bạn", "chào anh", "hi po", "good morning po", "magandang umaga po",
      "dzień dobry", "cześć", "hola", "bonjour", "hallo", "привет", "こんにちは", "안녕하세요", "السلام عليكم", "السلام علیکم", "witam", "Salam", "Assalamualaikum", "Oi", "Olá, tudo bem?", "ㄋㄏ",
      // Drawn out (a bike share's walkthrough: "hii" had got the fallback).
      "hii", "hiii there", "heyyy", "helloo"];
    expect(kinds(opens)).toEqual(opens.map((t) => [t, "opens"]));
    // One word outside the phrases, or asked: a message.
    const messages = ["ok help", "thanks, where is my order", "good?", "evening?", "hi can you help", "cheers for nothing, where is my bin", "tax", "5", "了解一下会员", "谢谢，运费呢", "晚上好几点关门", "good morning what time do you open",
      // A word that is a question alone at some account ("fine" at a library) is courtesy only beside thanks or an acknowledgement.
      "fine", "sound", "right", "good", "super", "营业时间呢", "有冇泳池",
      // Whom they address, and a particle, are courtesy only beside courtesy.
      "医生", "老师", "doctor", "doc?", "lah", "can", "hi doc can i walk in", "ok can i pay by card", "老板",
      "arvo?", "good day", "g day trip", "ban", "anh", "bạn", "heaps", "po", "na", "umaga", "hi po, my transfer didnt arrive",
      "merci hotel", "gracias por la entrega, where is my parcel", "hola do you deliver", "brother", "oi where is the school", "OK店", "ok的店在哪",
      // ㄇ is 嗎: it asks; 的 and 了 are no courtesy alone or beside a word ("and the teacher's?").
      "好ㄇ", "行ㄇ", "收到ㄌㄇ", "客服的呢", "老师的呢", "的", "了", "早了",
      // That it worked, a day, only beside thanks, and a day only in "see you …": "thanks! sunday?" asks about Sundays.
      "worked", "fixed?", "see you thursday", "thanks! sunday?", "thanks, tomorrow?", "能用了吗", "没问题吧", "问题解决了吗",
      "do you do cat vaccines thanks", "i would appreciate help with my refund",
      // Not every word ending in a doubled letter: "hill", "hiss", "yoo-hoo" are no greetings.
      "hill", "hiss", "heyy can i book",
      // Asked: the words beside thanks are a question's (a review).
      "thanks! do you help with that?", "thank you, will you help?", "thanks, it works now?", "do you do that thanks", "thanks, will that do?", "thanks, see you thursday?",
      "have you got a day pass", "thanks, what day is it?"];
    expect(kinds(messages)).toEqual(messages.map((t) => [t, null]));
  });

  test("praise sent whole closes as thanks does; praise beside a question, a request, a complaint, or a word in a title's run does not", () => {
    // A bike share's walkthrough: "love the bikes 👍" got the fallback ("a member of our team … will reply") and the report offered it to teach.
    const kinds = (said: string[]) => said.map((t) => [t, courtesyOrPraise(t)]);
    const praise = ["love the bikes 👍", "great service", "you guys are amazing", "the staff were lovely", "such a great night", "cheers for a great session tonight!", "i love the new e-bikes", "love it", "well done team",
      "服务很好", "态度真好 点赞", "你们教练真有耐心 给你们点赞", "衣服洗得挺干净 点赞👍", "医生很专业", "五星好评", "哈哈谢谢 你们服务挺好的"];
    expect(kinds(praise)).toEqual(praise.map((t) => [t, "closes"]));
    const messages = ["love the app but it keeps crashing", "the bikes are great but the app crashed again", "great, how do i unlock", "is the pool great for kids", "great prices?", "i'd love to know if you deliver", "love to book a group ride please",
      "best way to top up", "not great tbh", "still great?", "author of the hymn great is thy faithfulness", "song have i told you lately i love you", "the great gatsby author",
      "服务很好 能开发票吗", "服务不好", "扣费太快了", "太贵了", "网速很慢", "很好奇 怎么办理", "态度很好但是太贵", "哪个套餐很好",
      // A review's: a question without a mark, a name, a deal, a request, a complaint, sarcasm.
      "love the app how do i reset my password", "Great Ormond Street parking", "好评返现", "服务很好帮我开个发票", "lovely, charged twice", "well done 👎"];
    expect(kinds(messages)).toEqual(messages.map((t) => [t, null]));
    // Praise is what the responder answers as courtesy and what stands alone in a conversation; not courtesyOf, which a
    // tag's description and a clause of a longer message are read by ("Great deals" may name a tag: a review).
    expect(["love the bikes 👍", "服务很好"].map(courtesyOf)).toEqual([null, null]);
    expect(["love the bikes 👍", "服务很好"].every(standsAlone)).toBe(true);
  });

  test("a question without the greeting, thanks, name or asking to ask it opens with; one English word before a space stays the question's unless it is only a greeting (hi, hiya)", () => {
    expect(withoutOpening("医生你好，挂号怎么挂")).toBe("挂号怎么挂");
    expect(withoutOpening("医生，挂号怎么挂")).toBe("挂号怎么挂");
    expect(withoutOpening("谢谢！那周末呢")).toBe("那周末呢");
    // Asking to ask typed straight onto the question, after a greeting or not (a courier's walkthrough had taught 请问 with it).
    expect(withoutOpening("在吗 请问快递员能上门来拿吗")).toBe("快递员能上门来拿吗");
    expect(withoutOpening("想问一下周末开门吗")).toBe("周末开门吗");
    expect(withoutOpening("请问")).toBe("请问");
    expect(withoutOpening("请问题库在哪")).toBe("题库在哪");
    // Not one ending on 下, which runs into the question's words.
    expect(withoutOpening("请问下午几点开")).toBe("下午几点开");
    expect(withoutOpening("我想问下载的课件在哪")).toBe("我想问下载的课件在哪");
    expect(withoutOpening("thanks, where is my order")).toBe("where is my order");
    expect(withoutOpening("morning, clinic hours")).toBe("clinic hours");
    expect(withoutOpening("morning clinic hours")).toBe("morning clinic hours");
    // A greeting that is never a question's word goes before a space too (a theatre's walkthrough taught "hiya can i swap…" whole).
    expect(withoutOpening("hiya can i swap my panto tickets")).toBe("can i swap my panto tickets");
    expect(withoutOpening("hi can i pay by card")).toBe("can i pay by card");
    expect(withoutOpening("hey do you open late")).toBe("do you open late");
    // …not before a word a name or a product opens with (a review).
    for (const t of ["hello fresh vouchers accepted?", "hi vis vests in stock?", "hi fi repair price", "hello kitty lunchbox back in stock?"]) expect(withoutOpening(t)).toBe(t);
    // "Dear …", and asking to ask, as students writing English as a second language open; one opening after another.
    expect(withoutOpening("Dear sir, accommodation price?")).toBe("accommodation price?");
    expect(withoutOpening("Dear teacher, I want to ask about accommodation price")).toBe("accommodation price");
    expect(withoutOpening("hello, may i ask when is the deadline")).toBe("when is the deadline");
    expect(withoutOpening("Salam, where is the school")).toBe("where is the school");
    // Ending at a space, an opening is a phrase of one or a greeting with whom it greets — not the
    // words a greeting message may hold that a question opens with (a walkthrough: "come at 5am" taught).
    expect(withoutOpening("hi there when do you open")).toBe("when do you open");
    for (const [t, rest] of <[string, string][]>[["hello, can i come at 5am", "can i come at 5am"], ["hi, is there parking", "is there parking"], ["hi, i have lost my key", "i have lost my key"], ["hello, can you help", "can you help"], ["hi there, one more thing", "one more thing"], ["hi, got any vans", "got any vans"], ["thanks can i pay by card", "thanks can i pay by card"], ["thanks! are you open", "are you open"], ["hello may i ask where is it", "where is it"], ["thanks so much, love my pack!", "my pack!"]]) expect({ t, rest: withoutOpening(t) }).toEqual({ t, rest });
    // "can I ask" is a question of its own ("can I ask for a refund"): not an opening.
    expect(withoutOpening("can i ask for a refund")).toBe("can i ask for a refund");
    // Courtesy whole, or a question that opens with no courtesy: as it is.
    for (const t of ["好的，谢谢", "hi there, quick question", "营业时间，周末呢", "医生"]) expect(withoutOpening(t)).toBe(t);
  });

  test("leaning on what was said before: an ellipsis particle, an opening connective, a pronoun, a question with no subject", () => {
    expect(["那运费呢", "周末呢", "还有别的门店吗", "它防水吗", "会过期吗", "要带什么", "多久能出", "and on Sundays?", "what about Alaska?", "can I undo it?", "is that covered too?"].every(leansOnBefore)).toBe(true);
    // English: how much, how many, how long … alone or with a unit it counts in; not with what it asks of.
    expect(["how much?", "how long?", "how many days?", "how many minutes", "how far is it"].filter((t) => !leansOnBefore(t))).toEqual([]);
    expect(["how many branches", "how many days for a refund", "how much is parking"].filter(leansOnBefore)).toEqual([]);
    // "One" standing for what was asked ("when is the next one" after captioned shows had been read alone and got the parking card, sure, on its "next to": a theatre's walkthrough).
    expect(["when is the next one", "is there a later one", "what about the other ones", "the cheaper one?"].filter((t) => !leansOnBefore(t))).toEqual([]);
    expect(["one ticket please", "is one enough", "can i bring one person", "next friday?", "when is the next show"].filter(leansOnBefore)).toEqual([]);
    // Opening on "still", what was said is still so ("still not getting the email" after forgot password
    // had been read alone and got payment links: a bookkeeping app's walkthrough); not "still" inside a question.
    expect(["still not getting the email", "Still no email after 15 min", "still doesnt work"].filter((t) => !leansOnBefore(t))).toEqual([]);
    expect(["is the pool still open", "do you still do student discounts", "still waiting for my delivery"].filter(leansOnBefore)).toEqual([]);
    // A longer message names what its "one" is (a review).
    expect(["my ticket got wet and torn, can i get a new one", "i lost my card can i get a new one", "can i swap my ticket for a later one"].filter(leansOnBefore)).toEqual([]);
    // Ending on before or after, what it is before or after left to the question before ("how long
    // before" after the patch test: a salon's walkthrough, read alone and taught); not with its object.
    expect(["how long before", "how long before?", "can i swim after", "what do i do afterwards", "do i pay beforehand"].filter((t) => !leansOnBefore(t))).toEqual([]);
    expect(["how long before my appointment", "can i swim after a tattoo", "before and after photos"].filter(leansOnBefore)).toEqual([]);
    // A measure or a time of day asking how much, how long or when of it; not a question that names its subject.
    expect(["一周多少钱", "一个月多少钱", "单次多少钱啊", "一次多久", "下午几点", "每月几号", "半年多少钱"].filter((t) => !leansOnBefore(t))).toEqual([]);
    // How many times, or where, of a measure or a time of day (a postpartum centre's walkthrough: 一天几次啊, taught alone, then answered followers asking of the massage's price).
    expect(["一天几次啊", "一天几餐啊", "一天几顿", "晚上睡哪", "平时住哪里"].filter((t) => !leansOnBefore(t))).toEqual([]);
    expect(["晚上在哪吃", "周末哪里好玩"].filter(leansOnBefore)).toEqual([]);
    // Where, after a numeral naming a place, names it (a review).
    expect(["一晚住哪", "两天住哪里"].filter((t) => !leansOnBefore(t))).toEqual([]);
    expect(["五号楼在哪", "一号门在哪", "二食堂在哪儿", "一卡通哪里", "三号楼在哪里"].filter(leansOnBefore)).toEqual([]);
    // A verb alone asking how long or how much of it ("放几天" after 快递柜取件码丢了, read alone, got
    // the delivery times: a courier's walkthrough); not with its subject.
    expect(["放几天", "等多久", "存多久啊", "寄几天", "保几年"].filter((t) => !leansOnBefore(t))).toEqual([]);
    expect(["快递放几天", "洗车多少钱", "放几天能取"].filter(leansOnBefore)).toEqual([]);
    // Charged on top of what was said ("水果要另外给钱不" after 小料怎么收费, read alone: the fallback); not "the other" of a thing named.
    expect(["水果要另外给钱不", "安装费要另外交吗", "上门费另外算吗", "还另外收钱吗"].filter((t) => !leansOnBefore(t))).toEqual([]);
    expect(["我想开另外一张发票", "门店另外一个入口在哪", "其他门店另外有活动吗", "我想问另外付款方式有哪些", "请问另外加盟怎么联系"].filter(leansOnBefore)).toEqual([]);
    // A verb done, its object left out, then when or what next; not with its object.
    expect(["关了之后会员马上就没了吗", "交完多久能用", "充了能退吗", "退了以后钱去哪"].filter((t) => !leansOnBefore(t))).toEqual([]);
    expect(["吃完饭能停车吗", "买了个手机壳", "办完卡多久能用"].filter(leansOnBefore)).toEqual([]);
    // Where, with no subject ("在哪里办" after 社保卡丢了 had got the fallback: a service hall's walkthrough).
    expect(["在哪里办", "在哪办", "去哪里办", "哪里可以办", "在哪"].filter((t) => !leansOnBefore(t))).toEqual([]);
    // How it can be done, with no subject ("网上能办吗" after the flexible-employment question had
    // gone alone to the retirement article, whose body says 网上能办吗: a service hall's walkthrough);
    // not where something is, nor a subject after the adverb.
    expect(["网上能办吗", "线上可以办理吗", "手机上能弄吗", "现场能交吗"].filter((t) => !leansOnBefore(t))).toEqual([]);
    expect(["网上商城在哪", "网上报名流程", "周末停车收费吗", "网上能办社保卡吗", "今天能办理退休吗", "晚上能停车吗"].filter(leansOnBefore)).toEqual([]);
    expect(["停车多少钱", "寒假班一周多少钱", "宿舍一年住宿费多少钱", "一周多少钱的班有吗"].filter(leansOnBefore)).toEqual([]);
    expect(["推荐一部电影", "今天天气怎么样", "你是机器人吗", "股票还会涨吗", "会员积分怎么用", "有没有素锅底", "tell me a joke", "who won the game last night?", "Can I bring my bike?"].some(leansOnBefore)).toBe(false);
  });

  test("…and 也 (also), 一样 (the same), a possessive pronoun, as English's too, same and its", () => {
    const leaning = ["周末也有吗", "电脑上也不同步", "学费一样吗", "都一样么", "周末和平时一样吗", "颜色和图片上一样吗", "why is mine low today?", "and get a copy of mine?", "is yours open late?", "are ours included?", "is theirs cheaper?"];
    expect(leaning.filter((t) => !leansOnBefore(t))).toEqual([]);
    // 也 and 一样 in other senses: "maybe", "never again", "different", "one thing", "the same price" naming what it asks;
    // mine as a pit, yours signing off; words holding the letters.
    // 一样 closing a message after what it is compared with, named in its clause (跟要飞起来一样: a simile,
    // a second fresh account's washing machine) — with 吗 after it, it asks of the thing before (周末和平时一样吗).
    const not = ["订单也许明天发货吗", "也许吧", "再也不买了", "和上次不一样", "包裹里少了一样东西", "一样的价格能包间吗", "样品怎么申请", "整个机器都在跳 跟要飞起来一样", "is there a gold mine tour?", "yours truly", "mineral water in the menu?", "your opening hours"];
    expect(not.filter(leansOnBefore)).toEqual([]);
    // An acknowledgement stands alone, though it opens on 那 or holds 也.
    expect(["那好吧", "也好", "那也好"].every(standsAlone)).toBe(true);
  });
});

describe("reading in the conversation", () => {
  /** A ranker that records what it was asked and answers with no article. */
  const asked: Question[] = [];
  const none = async (q: Question): Promise<RankingResult> => (asked.push(q), { terms: [], postings: 0, candidates: 0, articles: [] });

  test("a follow-up of a follow-up is read with both turns before it; the one before those is gone", async () => {
    const q1 = turn("营业到几点", 1);
    const f1 = nextTurn({ how: "followup", question: { text: "东郊店呢" }, asked: "", ranked: null }, [q1], "k2", 2, []);
    expect(f1.earlier).toEqual(["营业到几点"]);
    const f2 = nextTurn({ how: "followup", question: { text: "周末呢" }, asked: "", ranked: null }, [f1, q1], "k3", 3, []);
    expect(f2.earlier).toEqual(["东郊店呢", "营业到几点"]);
    expect(earlierOf(f2)).toEqual(["周末呢", "东郊店呢"]);
    asked.length = 0;
    await read("那平时呢", [f2, f1], none);
    expect(asked.at(-1)).toEqual({ text: "那平时呢", context: "周末呢\n东郊店呢" });
  });

  test("a leaning message is read with the question only when the article that reading leads with is an answer itself, not when one behind it is", async () => {
    const art = (id: string, score: number, coverage: number) => ({ id, title: id, url: "", picurl: null, description: "", score, coverage, headCoverage: 0, ownCoverage: coverage, word: true, questions: [], keywords: [], head: 0, passage: null, passageScore: 0, excerpt: null, passages: [] });
    const q = turn("怎么退款", 1, { offered: ["refund"], shown: ["refund"] });
    // Alone: one article, sure; together: a best holding too little, a second that answers (a list by choose()).
    const ranker = (together: ReturnType<typeof art>[]) => async (x: Question): Promise<RankingResult> => ({ terms: [], postings: 0, candidates: 0, articles: x.context ? together : [art("alone", 10, 0.9)] });
    const unsure = [art("weak", 10, ANSWERS.minCoverage - 0.01), art("refund", 9, 1)];
    expect(choose(unsure).kind).toBe("list");
    expect((await read("那它呢", [q], ranker(unsure))).how).toBe("alone");
    // Nor when it offers nothing: led by no answer, nothing relevant behind it.
    const lone = [art("weak", 10, ANSWERS.minCoverage - 0.01), art("weaker", 9, ANSWERS.listCoverage - 0.01)];
    expect(choose(lone)).toMatchObject({ kind: "none", why: "no_answer" });
    expect((await read("那它呢", [q], ranker(lone))).how).toBe("alone");
    // Control: the same reading led by an answer is taken.
    expect((await read("那它呢", [q], ranker([art("refund", 10, 1), art("weak", 9, 0.5)]))).how).toBe("followup");
  });

  test("another leaves out every article offered for the question so far", async () => {
    const q = turn("包间", 1, { offered: ["a", "b", "c"], shown: ["a", "b", "c"] });
    asked.length = 0;
    const r = await read("换一个", [q], none);
    expect(r.how).toBe("another");
    expect(asked).toEqual([{ text: "包间", exclude: ["a", "b", "c"] }]);
    const next = nextTurn(r, [q], "k", 2, ["d", "e"]);
    expect(next).toMatchObject({ text: "包间", offered: ["a", "b", "c", "d", "e"], shown: ["d", "e"] });
  });

  test("after a tag's list (labelled by codes), a pick keeps it so labelled; 换一个's list is the ranking's, no longer so", async () => {
    const tagged = turn("包间", 1, { offered: ["a", "b"], shown: ["a", "b"], byCode: true });
    const picked = nextTurn({ how: "pick", id: "b", question: { text: "包间" }, asked: "" }, [tagged], "k2", 2, ["b"]);
    expect(picked.byCode).toBe(true);
    const another = nextTurn({ how: "another", question: { text: "包间" }, asked: "", ranked: null }, [tagged], "k3", 3, ["c", "d"]);
    expect(another.byCode).toBeUndefined();
    expect(another.shown).toEqual(["c", "d"]);
    // As stored, the mark survives the round trip (Redis holds the JSON).
    expect(parseTurns(JSON.stringify([bounded(tagged)]))[0]?.byCode).toBe(true);
  });
});

describe("review of issue 34 E", () => {
  test("another, again and again, moves on, then stops: each reply new articles until the twelve a turn remembers are offered, then nothing; before, the same three came back for ever, and later the first came round again", async () => {
    const { LocalConversations } = await import("../../src/wechat/answering/conversation.ts");
    const { read } = await import("../../src/wechat/answering/reading.ts");
    const { nextTurn, offer } = await import("../../src/wechat/answering/reading-turn.ts");
    const ids = Array.from({ length: 30 }, (_, i) => `a${i}`);
    // Every article holds a word, none clearly ahead: each reply lists three.
    const rank = async (q: { exclude?: readonly string[] }) => ({
      terms: [],
      postings: 0,
      candidates: 0,
      articles: ids
        .filter((id) => !(q.exclude ?? []).includes(id))
        .slice(0, 16)
        .map((id) => ({ id, title: id, url: "", picurl: null, description: "", score: 1, coverage: 0.5, headCoverage: 0, ownCoverage: 0.5, word: true, questions: [], keywords: [], head: 0, passage: null, passageScore: 0, excerpt: null, passages: [] })),
    });
    let now = 1000;
    const c = new LocalConversations(() => now);
    const rounds: string[][] = [];
    for (const [i, text] of ["包间", "换一个", "换一个", "换一个", "换一个", "换一个", "换一个", "换一个"].entries()) {
      const key = `k${i}`;
      const turns = await c.recent("o", key);
      const r = await read(text, turns, rank as never);
      const choice = r.how === "pick" ? null : offer(r as never);
      const shown = !choice ? [] : choice.kind === "one" ? [choice.article.id] : choice.kind === "list" ? choice.articles.map((a: { id: string }) => a.id) : [];
      const before = rounds.flat();
      // Four replies of three are the twelve remembered: the "another"s after them get nothing (not_found).
      expect({ i, shown: shown.length, again: shown.filter((id) => before.includes(id)) }).toEqual({ i, shown: i < 4 ? 3 : 0, again: [] });
      rounds.push(shown);
      await c.add("o", nextTurn(r, turns, key, now, shown), turns);
      now += 1000;
    }
    expect(new Set(rounds.flat()).size).toBe(12);
  });

  test("'the first one' after a single article is that article; 'the fifth' after a list of three picks nothing and offers nothing, unranked", async () => {
    const { read } = await import("../../src/wechat/answering/reading.ts");
    const { offer } = await import("../../src/wechat/answering/reading-turn.ts");
    const none = async () => ({ terms: [], postings: 0, candidates: 0, articles: [] });
    const single = { key: "k1", at: 1, text: "营业到几点", earlier: [], offered: ["hours"], shown: ["hours"] };
    expect(await read("第一个", [single], none as never)).toMatchObject({ how: "pick", id: "hours" });
    const list = { ...single, offered: ["a", "b", "c"], shown: ["a", "b", "c"] };
    expect(await read("第二个", [list], none as never)).toMatchObject({ how: "pick", id: "b" });
    let ranked = 0;
    const counted = async () => (ranked++, { terms: [], postings: 0, candidates: 0, articles: [] });
    const fifth = await read("第五个", [list], counted as never);
    expect(fifth.how).not.toBe("pick");
    expect(fifth.how === "pick" ? null : offer(fifth).kind).toBe("none");
    expect(ranked).toBe(0);
  });

  test("a number picks from a numbered list (over a code: pickedFromList) only from one of two or more, and only an entry it has", () => {
    const shown = (ids: string[]) => ({ key: "k1", at: 1, text: "q", earlier: [], offered: ids, shown: ids });
    expect(pickedFromList("2", shown(["a", "b"]))).toBe("b");
    expect(pickedFromList("#3", shown(["a", "b"]))).toBeUndefined();
    expect(pickedFromList("1", shown(["a"]))).toBeUndefined();
    expect(pickedFromList("1", shown([]))).toBeUndefined();
    expect(pickedFromList("1", undefined)).toBeUndefined();
    expect(pickedFromList("12", shown(["a", "b", "c"]))).toBeUndefined();
  });
});
