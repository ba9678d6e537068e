/**
 * A message a person should read, whatever article answers it (docs/answers.md "The inbox"): it says
 * it is urgent, tells of a death, of money taken twice, of waiting on the phone with no one
 * answering, or of a complaint, a lawyer or the regulator. Answered as any message is, and listed in
 * the inbox too: a theatre's box office had sent "I need to cancel my booking, my mum has died" the
 * ticket transfer article, "my booking ref …, i paid twice!!" the group bookings, "been on hold for
 * 20 mins" the running times — lists counted as answered, seen by no one (a walkthrough).
 * Strong words only: the topics an account answers (急诊, "emergency vet", "lost or stolen card")
 * are not cues.
 */
import { fold } from "./fold.ts";

/** The cue and what it says, in the inbox's words. */
export type PersonCue = "urgent" | "bereavement" | "charged_twice" | "no_answer" | "complaint" | "escalation";

const HAN: [PersonCue, RegExp][] = [
  // Not a service's name (加急: express service) nor the emergency exit (紧急出口).
  ["urgent", /紧急(?!出口|联系人|情况下)|急急|很急|好急|太急|着急|急用|急死|十万火急|火急|急(?:[！!]|$)/u],
  ["bereavement", /去世|过世|病逝|离世|逝世|丧事|葬礼|追悼/u],
  ["charged_twice", /(?:扣|付|交|收|刷)了?(?:两|2|二)(?:次|遍|笔|回)|重复(?:扣|付|支付|收|缴)|多扣了?|扣(?:款|费)?重复/u],
  ["no_answer", /(?:一直|始终|根本|都)?没(?:有)?人(?:回|理|接|管)|打不通|联系不上|不回(?:消息|复|我)/u],
  ["complaint", /投诉/u],
  // Not 报警器, the alarm an article is about.
  ["escalation", /律师|起诉|报警(?!器)|12315|消协|消费者协会|市场监管|曝光|媒体/u],
];

const LATIN: [PersonCue, RegExp][] = [
  ["urgent", /\burgent(?:ly)?\b|\basap\b/],
  ["bereavement", /\b(?:passed away|has died|had died|just died|died (?:on|last|this|yesterday|today)|bereave(?:ment|d)|funeral)\b/],
  ["charged_twice", /\b(?:charged|paid|billed|debited|taken)\b(?:\s+\S+){0,3}\s+(?:twice|two times|double)\b|\bdouble[- ]?(?:charged|billed)\b|\bcharged me twice\b/],
  ["no_answer", /\bon hold\b|\b(?:no ?one|nobody|no body)\b(?:\s+\S+){0,2}\s+(?:answers?|answering|answered|replies|replied|replying|picks? up|responds?|responded|gets? back)\b/],
  ["complaint", /\bcomplain(?:t|ts|ing|ed)?\b/],
  // Not "solicitor", a house move's everyday word.
  ["escalation", /\b(?:lawyer|legal action|small claims|trading standards|ombudsman|sue you|suing)\b/],
];

/** The cue a message gives that a person should read it, or null. */
export function needsPerson(text: string): PersonCue | null {
  const f = fold(text);
  if (/\p{Script=Han}/u.test(f)) {
    const joined = f.replace(/ /g, "");
    for (const [cue, re] of HAN) if (re.test(joined)) return cue;
  }
  for (const [cue, re] of LATIN) if (re.test(f)) return cue;
  return null;
}
