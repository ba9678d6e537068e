/**
 * A message a person should read, whatever answers it (docs/answers.md "What followers get"): it
 * says it is urgent, tells of a death, of money taken twice, of waiting on the phone with no one
 * answering, of someone hurt or nearly, asks for a person, or tells of a complaint, a lawyer or the regulator. Answered as any message is, and listed in
 * the inbox too: a theatre's box office had sent "I need to cancel my booking, my mum has died" the
 * ticket transfer article, "my booking ref …, i paid twice!!" the group bookings, "been on hold for
 * 20 mins" the running times — lists counted as answered, seen by no one (a walkthrough).
 * Strong words only, each in the sense a follower in trouble writes it: the topics an account
 * answers are not cues (急诊, 紧急避孕, 加急, "urgent care", a membership put on hold, a phone that
 * died, a tablet taken twice a day, 物业费交两次, 多媒体教室, 曝光补偿: a review found those read so).
 */
import { fold } from "./fold.ts";

/** The cue and what it says, in the inbox's words. */
export type PersonCue = "urgent" | "bereavement" | "charged_twice" | "no_answer" | "complaint" | "escalation" | "safety" | "asks_for_a_person";

/** Not in a hurry: 不着急, 不是很急, 不用急 say the opposite. */
const CALM_HAN = /(?:不|不是|没|没有|不用|别|无需)(?:很|太|那么|特别|这么)?(?:着急|急)/gu;

const HAN: [PersonCue, RegExp][] = [
  // Not a service's name (加急: express service), the emergency exit or contraception (紧急出口, 紧急避孕).
  ["urgent", /紧急(?!出口|联系人|情况下|避孕)|急急|很急|好急|太急|着急|急用|急死|十万火急|火急|急(?:[！!]|$)/u],
  ["bereavement", /去世|过世|病逝|离世|逝世|丧事|葬礼/u],
  // Money taken: 扣 with or without 了; paying twice said as done (交了两次), not a schedule (一年交两次).
  ["charged_twice", /扣了?(?:两|2|二)(?:次|遍|笔|回)|(?:付|交|收|刷|缴)了(?:两|2|二)(?:次|遍|笔|回)|重复(?:扣|付|支付|收|缴)|多扣了?|扣(?:款|费)?重复/u],
  // The account not answering: its phone, its service, its replies — not a parcel no one was in for (没人接快递).
  ["no_answer", /没(?:有)?人(?:回|理)|(?:电话|客服|热线|人工)[^，。,.!?！？]{0,6}(?:没人接|没有人接|打不通|占线)|打不通|联系不上|不回(?:消息|复|我)/u],
  ["complaint", /投诉|差评|服务太差/u],
  // Someone hurt, or nearly, as it happened: 摔伤了, 被车撞了, 差点撞上, 流血 (a bike share's walkthrough: a
  // snapped brake cable read as any question) — not 受伤 asked of a rule (受伤了可以停卡吗, 意外受伤险: a review).
  ["safety", /摔伤|撞伤|摔倒了|摔了一跤|被(?:车|电动车|汽车)?撞了|差点(?:撞|摔|出事|出车祸)|出车祸了|流血了|骨折了/u],
  // Asking for a human: 转人工, 人工客服, 人工 alone — not 人工湖, 人工草坪 or 真人认证 (a review).
  ["asks_for_a_person", /转人工|找人工|要人工|人工客服|人工服务|^人工(?:呢|吗|啊)?$|真人客服|找(?:个)?真人|我要找客服/u],
  // Not 报警器, the alarm an article is about; 曝光 as exposing the account, not a camera's.
  ["escalation", /律师|起诉|报警(?!器)|12315|消协|消费者协会|市场监管|(?:要|去|找)曝光|曝光你们|找媒体|(?:告诉|联系)媒体/u],
];

/** Whom a follower tells of: a death is a person's, not a phone's or a battery's. */
const KIN = "(?:mum|mom|mother|dad|father|husband|wife|son|daughter|partner|brother|sister|grandma|grandmother|granny|gran|nan|nana|grandad|grandpa|grandfather|parent|parents|aunt|uncle|relative|friend|fiance|fiancee)";

const LATIN: [PersonCue, RegExp][] = [
  // Not "urgent care", a clinic's name.
  ["urgent", /\burgent(?:ly)?\b(?! care)|\basap\b/],
  ["bereavement", new RegExp(`\\b(?:passed away|deceased|bereaved)\\b|\\b${KIN}\\b(?:\\s+\\S+){0,2}\\s+(?:has |had |just )?died\\b`)],
  // Money: charged or billed twice, paid twice, the money or a payment taken twice, two payments — not a tablet taken twice a day, nor pay doubled on holidays.
  ["charged_twice", /\b(?:charged|billed|debited)\b(?:\s+\S+){0,3}\s+(?:twice|two times|double)\b|\bpaid(?:\s+\S+){0,3}\s+twice\b|\b(?:took|taken|take)\b(?:\s+\S+){0,2}\s+(?:money|payment|payments)\b(?:\s+\S+){0,2}\s+twice\b|\btwo payments\b|\bdouble[- ]?(?:charged|billed)\b/],
  // Waiting on the line: been, kept or left on hold, on hold for minutes — not a membership or an order put on hold.
  ["no_answer", /\b(?:been|kept|left|waiting|sat|sitting|stuck) on hold\b|\bon hold for\b|\b(?:no ?one|nobody|no body)\b(?:\s+\S+){0,2}\s+(?:answers?|answering|answered|replies|replied|replying|picks? up|responds?|responded|gets? back)\b/],
  // A complaint, said so or shouted: "worst service ever", "thanks for nothing", "terrible service" (a bike share's walkthrough) — not "the worst case" of a help article, nor what is "unacceptable" in a bin (a review).
  ["complaint", /\bcomplain(?:t|ts|ing|ed)?\b|\b(?:worst|terrible|awful|appalling|shocking) (?:service|company|experience|customer service|app)\b|\bthanks for nothing\b|\b(?:this|that|it)(?: is|'s|s) (?:totally |completely |absolutely )?(?:unacceptable|disgraceful)\b/],
  // Someone hurt, or nearly, as it happened: "someone is going to get hurt", "i fell off and hurt my knee", "i nearly went into a bus" — not asked of a rule ("what if my child gets hurt", "is my dog covered if he is injured": a review).
  ["safety", /\b(?:got|been|was|were) (?:badly |seriously )?(?:hurt|injured)\b|\bgoing to get (?:badly |seriously )?hurt\b|\binjured (?:my|his|her|their|our)\b|\bfell off (?:the|my|a|your|his|her) (?:bike|e-?bike|scooter|bicycle)\b|\bnearly (?:hit|crashed|crashed into|fell|fell off|went into|got hit|died|killed)\b|\bhad an accident\b/],
  // Asking for a human: "talk to a real person", "speak to your manager", "human please" — not "real human hair" (a review).
  ["asks_for_a_person", /\b(?:real|actual|live) person\b|\bhuman being\b|\b(?:speak|talk|chat) (?:to|with) (?:a |an |your |the )?(?:real |actual )?(?:person|human|someone|somebody|agent|manager|supervisor)\b|^(?:a )?human(?: please| pls| plz)?\W*$/],
  ["escalation", /\b(?:lawyer|legal action|small claims|trading standards|ombudsman|sue you|suing)\b/],
];

/** The cue a message gives that a person should read it, or null. */
export function needsPerson(text: string): PersonCue | null {
  const f = fold(text);
  if (/\p{Script=Han}/u.test(f)) {
    const joined = f.replace(/ /g, "").replace(CALM_HAN, "");
    for (const [cue, re] of HAN) if (re.test(joined)) return cue;
  }
  for (const [cue, re] of LATIN) if (re.test(f)) return cue;
  return null;
}
