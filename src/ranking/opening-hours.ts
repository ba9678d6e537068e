/**
 * A message asking when the account's place opens or closes, and naming nothing else but a day or a
 * time (几点关门, 今天开门吗, 周末几点关门, "what time do you close", "are you open sundays"): its words
 * name the doors, not the hours an article is titled by — 关门 is no word of 营业时间, "close" none
 * of "Opening hours" — and a hotpot restaurant's 几点关门 got the fallback beside its 营业时间
 * article (our Chinese FAQ). Read with the words an hours article is titled by. Not when it names
 * something else (你们客服几点下班, "are you open for emergencies at night", 报名大厅几点开门): those
 * are its subject's hours, and the words added had made a list of what the message alone was sure of.
 */
import { fold } from "./fold.ts";

const WHEN_HAN = "(?:几点|几点钟|什么时候|什么时间|啥时候|几时)";
// 开 and 关 alone at the end only: 几点开始报名 asks when the registration starts.
const DOORS_HAN = "(?:开门|关门|打烊|营业|开业|闭店|闭馆|开馆|下班|上班|(?:关|开)(?=$|[吗嘛么呢啊呀了]))";
const HOURS_HAN = new RegExp(`${WHEN_HAN}${DOORS_HAN}|(?:营业|开门|开|上班)到${WHEN_HAN}|(?:开门|关门|营业|开着|开业|上班|开)了?(?:吗|嘛|么|没|不)|还(?:开着|开门|营业|在营业)|是否(?:营业|开门|正常营业)`, "gu");
/**
 * What may stand beside it: whose place, a day, a time of day, a particle. Not a holiday's name
 * (春节开门吗, "are you open labor day"): an account has an article for its holidays more often than
 * not, and the hours words had pulled the fresh follow-up set's holiday questions to the weekly hours.
 */
const BESIDE_HAN = /你们|您们|咱们|贵店|门店|店|今天|今晚|明天|后天|周末|周[一二三四五六日天]|星期[一二三四五六日天]|礼拜[一二三四五六日天]|早上|上午|中午|下午|晚上|平时|工作日|节假日|每天|一般|大概|现在|正常|请问|都|是|的|[吗嘛么呢啊呀哦了吧]/gu;

const HOURS_LATIN = new RegExp(
  [
    "\\b(?:what time|what times|when|how late|how early|till when|until when) (?:do|does|are|r|is) (?:you|u|ya|the (?:shop|store|office|clinic|surgery|practice|centre|center|branch|salon|place|restaurant|studio|gym|library))(?: guys)? (?:open|close|shut|opening|closing)\\b",
    "\\b(?:are|r) (?:you|u|ya)(?: guys)? (?:still )?open\\b",
    "\\bis (?:the|your|ur) (?:\\w+ )?(?:shop|store|office|clinic|surgery|practice|centre|center|branch|salon|restaurant|studio|gym|library) (?:still )?open\\b",
    "\\b(?:opening|closing|business) (?:hours|times)\\b",
    // Not "what are the times" (of the lessons just asked of: a review).
    "\\b(?:what are|whats|what s|what is) (?:(?:your|ur|the) (?:opening )?hours|(?:your|ur) (?:opening )?times|the opening times)\\b",
  ].join("|"),
  "g",
);
const BESIDE_LATIN = new Set(
  "hi hello hey please pls plz and on at in the a this next today tonight tomorrow now still late early till until weekend weekends weekday weekdays daily every day days morning mornings evening evenings night nights monday mondays tuesday tuesdays wednesday wednesdays thursday thursdays friday fridays saturday saturdays sunday sundays mon tue tues wed thu thur thurs fri sat sun bank holiday holidays christmas easter 24 7 hours".split(" "),
);
/** A time of day as typed: 8, 8am, 8:30, 8.30pm. */
const CLOCK = /^\d{1,2}(?:[:.]\d{2})?(?:am|pm)?$/;

/** The words added to a message asking when the account's place opens or closes; null when it asks something else. */
export function openingHours(text: string): string | null {
  const f = fold(text.replace(/[\u2019']/g, " ")).trim();
  if (/\p{Script=Han}/u.test(f)) {
    const han = f.replace(/ /g, "");
    const rest = han.replace(HOURS_HAN, "");
    return rest !== han && rest.replace(BESIDE_HAN, "") === "" ? "营业时间" : null;
  }
  const rest = f.replace(HOURS_LATIN, " ");
  return rest !== f && rest.split(" ").every((w) => !w || BESIDE_LATIN.has(w) || CLOCK.test(w)) ? "opening hours" : null;
}
