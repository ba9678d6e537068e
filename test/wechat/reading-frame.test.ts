/**
 * A follow-up that is only a question's frame about the thing read ("how long does that take"):
 * not moved to the article whose head holds the frame's words, and led by the article read when the
 * reading together ranks it close (src/ranking/frame-of-it.ts, wechat/answering/reading.ts).
 */
import { describe, expect, test } from "bun:test";
import { asksOfItByFrame } from "../../src/ranking/frame-of-it.ts";
import { rank } from "../../src/ranking/rank.ts";
import { evalAccount } from "../eval-account.ts";
import { loadSet, type Account } from "../../bench/eval/sets.ts";
import { MemorySource } from "../../bench/eval/memory-source.ts";
import { conversationIn, firstThen, shown } from "./reading-helpers.ts";
import { answersFrame, frameOnly } from "../../src/ranking/asks-frame.ts";

const pharmacy = evalAccount("walk-en", "en-pharmacy-brightwell");
const conversation = (first: string, then: string) => firstThen(pharmacy, first, then);

describe("a question's frame about the thing read", () => {
  test("a question word, its verb, a pronoun and at most one word after", () => {
    for (const text of ["how long does that take", "How long does that take?", "how much is it", "when does it close?", "where are they", "how long will that take", "what time does it open", "how does it work", "how much does it cost", "how much are they"]) expect(asksOfItByFrame(text)).toBe(true);
    // The "it" of a frame whose subject is named after it, the follower as subject, a thing named, two words after,
    // a word after is or are (this or that before a noun: "how much is that shingrix" after the flu shot — a review).
    for (const text of ["how long does it take to get my results", "when do i pay", "how much is the flu shot", "how long does that take usually then", "is it free", "how much is that shingrix", "how much are those boxes"]) expect(asksOfItByFrame(text)).toBe(false);
  });

  test("after the transfer article, \"how long does that take\" stays on it: alone it leads with the article titled how long you hold it", async () => {
    const { last, first } = await conversation("how do i transfer my prescription from cvs", "how long does that take");
    expect(first[0]).toBe("transfer-a-prescription");
    // Alone, the message is the hold time's: its title asks "how long".
    expect(rank("how long does that take", pharmacy).articles[0]?.id).toBe("ready-alerts-hold-time");
    expect(last.how).toBe("followup");
    expect(shown(last)[0]).toBe("transfer-a-prescription");
  });

  test("a thing named after that is no frame: \"how much is that shingrix\" after the flu shot asks of shingles", async () => {
    const { last, first } = await conversation("when can i get a flu shot", "how much is that shingrix");
    expect(first[0]).toBe("flu-covid-vaccines");
    expect(shown(last)[0]).toBe("shingles-and-adult-vaccines");
  });

  test("a frame that names what it asks of after its \"it\" is not held to the article read", async () => {
    const { last } = await conversation("how do i transfer my prescription from cvs", "how long does it take to get a text when its ready");
    expect(shown(last)[0]).not.toBe("transfer-a-prescription");
  });
});

describe("a follow-up's frame words name no article's head (reading-rules.ts namesBeyondFrame, asks-frame.ts)", () => {
  const renovation = evalAccount("fresh7-zh", "zh-renovation-anju");

  test("多久能上门 after 量房要钱吗 stays on the measuring visit: alone it leads with the article keyworded 多久", async () => {
    const { first, last } = await firstThen(renovation, "量房要钱吗", "多久能上门");
    expect(first).toEqual(["free-measure"]);
    // Alone, its 多久 names the building period's head (keywords 工期, 多久, 顺延).
    expect(rank("多久能上门", renovation).articles[0]?.id).toBe("construction-period");
    expect(last.how).toBe("followup");
    expect(shown(last)[0]).toBe("free-measure");
  });

  test("frame words alone (要多久) after the measuring visit stay on it: the earlier question's words are capped by the follower's as typed, not as lowered", async () => {
    const { first, last } = await firstThen(renovation, "怎么预约免费量房", "要多久");
    expect(first).toEqual(["free-measure"]);
    expect(shown(last)[0]).toBe("free-measure");
  });

  test("a character the head shares beside the frame names nothing: the 门 of a title's 门窗 does not move 多久能上门", async () => {
    const account = loadSet("fresh7-zh").accounts.find((a) => a.id === "zh-renovation-anju") as Account;
    const changed = new MemorySource(account.articles.map((a) => (a.id === "construction-period" ? { ...a, title: "装修工期要多久（含门窗安装）" } : a)));
    const { last } = await firstThen(changed, "量房要钱吗", "多久能上门");
    expect(shown(last)[0]).toBe("free-measure");
  });

  test("a head holding a word of the message beyond its frame still names it: 那工期要多久 after 量房要钱吗 moves to the building period", async () => {
    const { last } = await firstThen(renovation, "量房要钱吗", "那工期要多久");
    expect(shown(last)[0]).toBe("construction-period");
  });
});

describe("how long or what time, asked alone of the article read (asks-frame.ts frameOnly, answersFrame; reading.ts)", () => {
  // A service centre's walkthrough: the licence's words two messages back, a certificate's article taught "…要多久".
  const centre = (licence: string) =>
    new MemorySource([
      { id: "licence", title: "个体工商户营业执照办理", keywords: "营业执照\u001f个体户", description: "", body: licence },
      { id: "nocrime", title: "无犯罪记录证明", keywords: "无犯罪记录", description: "", questions: "开无犯罪记录要多久", body: "无犯罪记录证明到户籍所在地派出所开具，带身份证，一般3个工作日内出具。" },
      { id: "residence", title: "居住证办理", keywords: "居住证", description: "", body: "居住证在社区登记满半年后申请，15个工作日内制证。" },
      { id: "fees", title: "收费标准", keywords: "多少钱\u001f收费", description: "", body: "中心办理的事项都不收钱；复印每页0.5元。" },
    ]);
  const SAYS = "开小店办理个体工商户营业执照：网上全程办理，最快当天出照；也可以到中心7号窗口办理。所需材料：经营者身份证、经营场所证明。费用：免费。";
  const SILENT = "开小店办理个体工商户营业执照：网上全程办理，也可以到中心7号窗口办理。所需材料：经营者身份证、经营场所证明。费用：免费。";

  test("frame words alone are frameOnly; a thing named beside them is not", () => {
    for (const text of ["要多久", "多久", "几点钟", "how long?", "多长时间"]) expect(frameOnly(text)).toBe(true);
    for (const text of ["办证要多久", "how long is the course", "几点开门"]) expect(frameOnly(text)).toBe(false);
  });

  test("提前 before how long (提前多久, 要提前几天, 提前几个小时) is the frame's: how far ahead names nothing either (a gym's walkthrough: 提前多久 after 私教课怎么改时间 got the fallback, and taught, answered a freeze question with the trainer's article); 提前 naming a thing, and 前几天, are not", async () => {
    for (const text of ["提前多久", "要提前几天", "提前几个小时", "几个小时", "提前几分钟", "提前多少天", "提早多久"]) expect({ text, only: frameOnly(text) }).toEqual({ text, only: true });
    // Each asks a duration: answered by a passage saying one (a review: 要提前几天 had never been).
    for (const text of ["要提前几天", "提前几个小时", "提前几分钟", "提前多少天"]) expect({ text, says: answersFrame(text, "需提前3天申请") }).toEqual({ text, says: true });
    for (const text of ["提前还款怎么办", "提前多久可以改私教", "前几天预约的"]) expect({ text, only: frameOnly(text) }).toEqual({ text, only: false });
    const gym = new MemorySource([
      { id: "ptbook", title: "私教预约、改约和取消", keywords: "私教", description: "", body: "私教课在小程序预约。改约或取消请在上课前12小时操作，否则按已上课扣除课时。" },
      { id: "freeze", title: "会员卡冻结（停卡）", keywords: "冻结\u001f停卡", description: "", body: "年卡会员每年可冻结一次，最长60天，需提前3天申请。" },
      { id: "classbook", title: "团课预约", keywords: "团课", description: "", body: "团课请在小程序提前预约，开课前2小时停止预约。" },
    ]);
    for (const asked of ["提前多久", "要提前几个小时"]) {
      const last = await conversationIn(gym, "私教课怎么改时间", asked);
      expect({ asked, last }).toMatchObject({ asked, last: { how: "followup", sure: true } });
      expect(shown(last)).toEqual(["ptbook"]);
    }
  });

  test("answersFrame: a duration for how long, a time of day for what time; nothing for another frame", () => {
    for (const passage of ["最快当天出照", "15个工作日内制证", "三个月", "usually 3 working days", "same day"]) expect(answersFrame("要多久", passage)).toBe(true);
    for (const passage of ["费用：免费", "到7号窗口办理", "第3号窗口"]) expect(answersFrame("要多久", passage)).toBe(false);
    // Not a date, an age, a day of the month, points listed or "a week" (a review).
    for (const [q, passage] of [["要多久", "本办法自2024年1月1日起施行。"], ["要多久", "2024年起施行"], ["要多久", "经营者须年满18周岁。"], ["要多久", "补贴每月15日发放。"], ["几点钟", "办理时请注意以下3点：一"], ["how long?", "We are open 7 days a week."]] as const)
      expect({ q, passage, says: answersFrame(q, passage) }).toEqual({ q, passage, says: false });
    for (const passage of ["1个月内办结", "下午三点关门"]) expect(answersFrame(passage.includes("点") ? "几点钟" : "要多久", passage)).toBe(true);
    expect(answersFrame("几点", "上午9:00开门")).toBe(true);
    expect(answersFrame("what time", "open from 9am")).toBe(true);
    expect(answersFrame("几点", "最快当天出照")).toBe(false);
    expect(answersFrame("多少钱", "费用：100元")).toBe(false);
  });

  test("要多久 third, after 多少钱 after the licence question, is the licence's when its passage says how long: alone, the certificate taught …要多久 leads", async () => {
    const account = centre(SAYS);
    expect(rank("要多久", account).articles[0]?.id).toBe("nocrime");
    const last = await conversationIn(account, "我想开个小卖部要办什么证", "多少钱", "要多久");
    expect(last).toMatchObject({ how: "followup", sure: true });
    expect(shown(last)).toEqual(["licence"]);
  });

  test("how long or when alone, naming nothing, with nothing read before, is no question: nothing offered (ranked, the certificate taught …要多久 led); the price alone is still ranked", async () => {
    const account = centre(SAYS);
    expect(rank("要多久", account).articles[0]?.id).toBe("nocrime");
    for (const text of ["要多久", "多长时间？", "how long?"]) expect({ text, shown: shown(await conversationIn(account, text)) }).toEqual({ text, shown: [] });
    // After the fallback, and after another frame alone: of nothing still.
    expect(shown(await conversationIn(account, "你好啊啊啊", "要多久"))).toEqual([]);
    expect(shown(await conversationIn(account, "要多久", "how long?"))).toEqual([]);
    // Naming its thing, ranked as ever.
    expect(shown(await conversationIn(account, "无犯罪记录要多久"))[0]).toBe("nocrime");
    const price = await conversationIn(account, "多少钱");
    expect(frameOnly("多少钱")).toBe(true);
    expect(price).toMatchObject({ how: "alone", ranked: { articles: [{ id: "fees" }] } });
  });

  test("多长时间, leaning on nothing it says, asks of the article read as 要多久 does (a review: it had got the fallback)", async () => {
    const last = await conversationIn(centre(SAYS), "我想开个小卖部要办什么证", "多长时间？");
    expect(last).toMatchObject({ how: "followup", sure: true });
    expect(shown(last)).toEqual(["licence"]);
  });

  test("…not sure of it when the licence's passage says no time: the reading together decides, as before", async () => {
    const last = await conversationIn(centre(SILENT), "我想开个小卖部要办什么证", "多少钱", "要多久");
    expect(last).not.toHaveProperty("sure");
  });
});
