/**
 * A message a person should read (ranking/needs-person.ts; docs/answers.md "The inbox"): answered
 * as any message is, and in the inbox too — each cue on its own, the topics an account answers not
 * taken for one, through the callback and the inbox's listing.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { needsPerson } from "../../src/ranking/needs-person.ts";
import { parseXml, type XmlNode } from "../../src/wechat/door/xml.ts";
import { doc, testApp } from "../helpers.ts";
import { textMsg, TOKEN, wxPost } from "./helpers.ts";

describe("the cues", () => {
  test("each cue in each language", () => {
    for (const [text, cue] of [
      ["please help its urgent", "urgent"],
      ["my husband died and i need to cancel his subscription", "bereavement"],
      ["closing the account of a deceased relative", "bereavement"],
      ["you took the money twice", "charged_twice"],
      ["there are two payments for one order", "charged_twice"],
      ["交了两次钱 怎么退", "charged_twice"],
      ["客服电话一直没人接", "no_answer"],
      ["我要曝光你们", "escalation"],
      ["need my transcript asap", "urgent"],
      ["门锁没电了进不去 急", "urgent"],
      ["急死了 电脑包忘在车上了", "urgent"],
      ["I need to cancel my booking, my mum has died and I can't face going", "bereavement"],
      ["our old boy passed away last week", "bereavement"],
      ["我爸去世了 账户怎么销", "bereavement"],
      ["my booking ref LYR 229104, i paid twice!!", "charged_twice"],
      ["got charged twice for the same order", "charged_twice"],
      ["一次充电扣了两遍钱", "charged_twice"],
      ["😡😡😡 been on hold for 20 mins", "no_answer"],
      ["rang three times and nobody answers", "no_answer"],
      ["客服电话一直打不通", "no_answer"],
      ["how do i make a complaint", "complaint"],
      ["我要投诉他", "complaint"],
      ["I'll be taking legal action", "escalation"],
      ["再不退我就打12315", "escalation"],
      // A bike share's and a gym's walkthroughs (Session 57).
      ["the brakes on bike 31175 are really bad someone is going to get hurt", "safety"],
      ["brake cable snapped while riding, i nearly went into a bus", "safety"],
      ["骑到一半链条断了 摔伤了腿", "safety"],
      ["i need to talk to a real person my account got locked", "asks_for_a_person"],
      ["can i speak to someone please", "asks_for_a_person"],
      ["转人工", "asks_for_a_person"],
      ["honestly the worst service ever, the app still says im riding", "complaint"],
      ["thanks for nothing", "complaint"],
      // A review's: the usual ways to ask for a person, someone hurt as it happened, a complaint in other words.
      ["人工", "asks_for_a_person"],
      ["人工服务", "asks_for_a_person"],
      ["let me speak to your manager", "asks_for_a_person"],
      ["human please", "asks_for_a_person"],
      ["i fell off the bike and hurt my knee", "safety"],
      ["i injured my wrist on your bike", "safety"],
      ["被车撞了", "safety"],
      ["差评", "complaint"],
      ["terrible service", "complaint"],
      ["this is unacceptable", "complaint"],
    ] as const)
      expect({ text, cue: needsPerson(text) }).toEqual({ text, cue });
  });
  test("what an account answers is no cue: its emergency clinic, an express service, the emergency exit, an alarm, a house move's solicitor, a stolen card", () => {
    for (const text of [
      "急诊在哪", "晚上儿科有急诊吗", "有没有加急的 后天要穿", "紧急出口那排能选吗", "燃气报警器必须装吗", "our solicitor says completion may slip", "is there an emergency vet on sundays", "my card was stolen", "how do i pay", "退款多久到账", "can i pay twice a month", "how long does a refund for a double payment take",
      // A review's: everyday questions that had read as cues.
      "how do i put my membership on hold", "is my order on hold", "my phone has died, can i still show my ticket", "the scooter battery died on the way home", "is the tablet taken twice a day", "can the resit exam be taken twice", "do staff get paid double on bank holidays", "is there urgent care on sundays",
      "what happens if I have an accident", "is the injury cover included", "the worst case is a day late", "人工湖边能遛狗吗", "人工草坪多久换一次", "person of the year award",
      // A review's: a rule asked of, not a person hurt or wanted.
      "受伤了可以停卡吗", "意外受伤险包括哪些", "what if my child gets hurt on the trampoline", "is my dog covered if he is injured", "需要真人认证吗", "报名要真人照片吗", "do you sell real human hair extensions", "which items are unacceptable in the recycling bin",
      "家里没人接快递怎么办", "放学后孩子没人管可以托管吗", "物业费一年交两次吗", "门禁卡要刷两次才开吗", "多媒体教室怎么借", "新媒体专业在哪个学院", "曝光补偿怎么调", "紧急避孕药有卖吗", "不着急，下周发货也可以", "不是很急 慢慢来",
    ])
      expect({ text, cue: needsPerson(text) }).toEqual({ text, cue: null });
  });
});

describe("through the callback", () => {
  let t: Awaited<ReturnType<typeof testApp>>;
  beforeEach(async () => (t = await testApp({ wechat: { token: TOKEN } })));
  afterEach(() => t.close());

  const say = async (content: string) => {
    // An hour apart: each message read alone.
    t.clock.advance(60 * 60_000);
    const ts = Math.floor(t.clock.now() / 1000);
    const text = await (await t.handle(wxPost(textMsg(content, ts), ts))).text();
    return text === "success" ? null : parseXml(text);
  };
  const titleOf = (x: XmlNode | null) => (((x?.Articles as XmlNode | undefined)?.item as XmlNode | undefined)?.Title as string | undefined) ?? null;

  test("answered with the article all the same, and listed in the inbox; a question of the same article without a cue is not", async () => {
    const articles = [
      { id: "refunds", title: "Refunds for double payments", url: "https://e.com/refunds", body: "If you paid twice for the same booking, the second payment is refunded within 5 working days." },
      { id: "hours", title: "Box office hours", url: "https://e.com/hours", body: "The box office is open 10am to 6pm." },
    ];
    expect((await t.call("POST", "/api/cli", [["mode", "merge"]], { files: [{ name: "json", content: doc(articles) }] })).status).toBe(200);
    expect(titleOf(await say("i paid twice for my booking!!"))).toBe("Refunds for double payments");
    expect(titleOf(await say("how long does a refund for a double payment take"))).toBe("Refunds for double payments");
    await t.log.settled();
    const inbox = (await t.call("GET", "/api/cli", [["inbox", "unmatched"]])).data.items as { content: string; answer: string }[];
    expect(inbox.map((m) => [m.content, m.answer])).toEqual([["i paid twice for my booking!!", "answer:refunds"]]);
  });

  test("a rule's answer too: in the inbox when the message gives a cue; the rule's other messages not (a review)", async () => {
    const rules = [{ id: "cancel", match: "contains", pattern: "cancel", reply: { type: "text", text: "To cancel, call the box office on 0800 123 456." } }];
    expect((await t.call("POST", "/api/cli", [["mode", "merge"]], { files: [{ name: "json", content: JSON.stringify({ format: "replyd/1", matter: "rules", rules }) }] })).status).toBe(200);
    await say("I need to cancel my booking, my mum has died");
    await say("how do i cancel");
    await t.log.settled();
    const inbox = (await t.call("GET", "/api/cli", [["inbox", "unmatched"]])).data.items as { content: string; answer: string }[];
    expect(inbox.map((m) => [m.content, m.answer])).toEqual([["I need to cancel my booking, my mum has died", "rule:cancel"]]);
  });
});
