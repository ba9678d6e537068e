/** A message complaining of someone's manner read as asking for the complaints article (src/ranking/complaint.ts, rank.ts). */
import { describe, expect, test } from "bun:test";
import { complaint, namesComplaint } from "../src/ranking/complaint.ts";
import { choose } from "../src/ranking/choice.ts";
import { rank, RANKING_LIMITS } from "../src/ranking/rank.ts";
import { MemorySource } from "../bench/eval/memory-source.ts";
import { evalAccount } from "./eval-account.ts";

const fund = new MemorySource([
  { id: "complaints", title: "12329服务热线及投诉建议渠道", keywords: "12329\u001f投诉\u001f建议", body: "对窗口工作人员服务态度、办事效率有意见，可拨打12329或在公众号留言，我们5个工作日内回复。" },
  { id: "offices", title: "服务网点地址及办公时间", keywords: "网点", body: "中心大厅位于市民中心二楼，周一至周五9:00-17:00办公，一楼设有咨询台。" },
  { id: "renting", title: "租房提取住房公积金办理指南", keywords: "租房", body: "无房职工租房可每年提取一次，提取额度按当地租金标准计算，线上办理即可。" },
  { id: "glasses", title: "配镜补贴说明", keywords: "眼镜", body: "本中心职工配眼镜可凭发票报销，每人每年一次。" },
]);
const pharmacy = new MemorySource([
  { id: "complaints", title: "Contact us and make a complaint", keywords: "contact\u001fcomplaint", body: "Tell us about any problem with our service or staff; a manager replies within two working days." },
  { id: "hours", title: "Branch locations and hours", keywords: "hours", body: "Our Main St branch is open 8am to 9pm. The counter closes at 8.30pm." },
  { id: "transfer", title: "How do I transfer my prescription?", keywords: "transfer", body: "Give us your old pharmacy's name and number and we move your prescription for you, free." },
]);
const chosen = (q: Parameters<typeof rank>[0], source: MemorySource) => {
  const c = choose(rank(q, source).articles);
  return c.kind === "one" ? c.article.id : c.kind === "list" ? c.articles.map((a) => a.id) : null;
};

describe("a complaint of someone's manner", () => {
  test("a person's manner is a complaint, in both languages; a thing's badness is not", () => {
    expect(complaint("二楼3号窗口那个女的态度太差了 我问两句就不耐烦")).toBe("投诉");
    expect(complaint("客服爱答不理的")).toBe("投诉");
    expect(complaint("the guy at the counter was super rude to me")).toBe("complaint");
    expect(complaint("the pharmacist yelled at me")).toBe("complaint");
    expect(complaint("柜台那个人对我很凶")).toBe("投诉");
    expect(complaint("保安骂我")).toBe("投诉");
    expect(complaint("she was rude to my mom")).toBe("complaint");
    expect(complaint("the driver was not rude, just slow")).toBeNull();
    expect(complaint("信号太差了 屋里一格都没有")).toBeNull();
    // Said of no one serving the follower (a review): a dog, a child, a question of manners, a denial.
    for (const text of ["狗狗很凶 还咬人", "我家狗老凶了见人就叫", "孩子老骂人怎么办", "is it rude to call the pharmacist after 9pm", "the staff were never rude, kevin is lovely", "they are not so rude", "nobody was rude"]) expect(complaint(text)).toBeNull();
    expect(complaint("the app is terrible")).toBeNull();
    expect(complaint("is crude oil a medicine")).toBeNull();
  });

  test("one telling who and when, which no article holds much of, gets the complaints article", () => {
    const rant = "二楼那个戴眼镜的女的态度太差了 我问两句就不耐烦 你们管不管";
    expect(chosen(rant, fund)).toBe("complaints");
    // The same telling without the manner: no complaint, and nothing is sure of it (the glasses' subsidy holds 眼镜 alone).
    expect(chosen("二楼那个戴眼镜的女的 我问两句 你们管不管", fund)).toBeNull();
    expect(chosen("the guy at the counter at the main st store, kevin, was super rude to me yesterday", pharmacy)).toBe("complaints");
  });

  test("a complaint beside a question an article is sure of gets that article, not the complaints one", () => {
    expect(chosen("the last pharmacist was rude. how do i transfer my prescription to you?", pharmacy)).toBe("transfer");
  });

  test("the complaint's word is added to what the message says: the complaints article is listed beside the office it names", () => {
    // Without the word the offices' article, holding 二楼, 大厅 and 办公, had been sent alone.
    expect(chosen("二楼大厅办公的人态度很差", fund)).toEqual(["complaints", "offices"]);
  });

  test("ranked on the word alone after another question, the complaint is not read with that question", () => {
    const shop = new MemorySource([
      { id: "returns", title: "退货说明", keywords: "退货", body: "七天无理由退货，商品需完好。" },
      { id: "hotline", title: "客服热线", keywords: "客服", body: "咨询、投诉请拨打400-800-1234，9点到21点有人接听。" },
      { id: "points", title: "会员积分", keywords: "积分", body: "消费1元积1分，积分可抵现金。" },
    ]);
    const rant = "昨天那个收银的小姑娘态度太差了 说了半天都不理人";
    expect(chosen(rant, shop)).toBe("hotline");
    // Read with "积分怎么用", the word alone had listed the points article first.
    expect(chosen({ text: rant, context: "积分怎么用" }, shop)).toBe("hotline");
  });

  test("a rant longer than what is ranked keeps the word added at its end: the complaints article still", () => {
    // Its words the complaints article's own ("a problem with our service or staff"): ranked whole, with the word.
    const rant = `the staff were so rude. ${"a problem with your service and staff. ".repeat(20)}`;
    expect(rant.length).toBeGreaterThan(RANKING_LIMITS.questionChars);
    const r = rank(rant, pharmacy);
    expect(r.rankedAs).toBeUndefined();
    expect(r.terms.map((t) => t.term)).toContain("complain");
    // Past what is ranked, a complaint is none: "rude" after the first RANKING_LIMITS.questionChars characters.
    expect(complaint(`${"I waited at the counter. ".repeat(30)}the pharmacist was so rude`.slice(0, RANKING_LIMITS.questionChars))).toBeNull();
  });

  test("the fallback on the word alone sends nothing when no article holds it: an account without a complaints article offers nothing for a rant", () => {
    const shop = new MemorySource([
      { id: "hours", title: "营业时间", keywords: "营业时间", body: "每天10点到22点营业。" },
      { id: "returns", title: "退货说明", keywords: "退货", body: "七天无理由退货，商品需完好。" },
    ]);
    expect(chosen("你们店员态度太差了", shop)).toBeNull();
  });

  test("a message that says it complains is read as written, with no word added", () => {
    expect(namesComplaint("态度太差 我要投诉")).toBe(true);
    expect(namesComplaint("I want to complain")).toBe(true);
    expect(namesComplaint("态度太差")).toBe(false);
    // Said and rude, on our transit account: the complaints article alone, as before complaint.ts —
    // with "complaint" added beside its "complain" it had listed two more.
    expect(chosen("bus driver on route 22 was really rude to my mom today around 5pm, i want to complain", evalAccount("faq-en", "en-transit-metro"))).toBe("feedback-complaints");
  });
});
