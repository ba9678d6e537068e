/**
 * A message asking where the account's place is, and nothing else ("你们店在哪里", "你们在哪",
 * "where r u", "whats your address"): its words name no subject an article is titled by — 店 alone,
 * 在哪 filler, "r u" stop words — and two walkthroughs' followers got the fallback, an address article
 * there (a car dealer's 地址 keyword, a courier's 网点地址). Read as asking for the address: the words
 * an address article is titled or keyworded by are added to it.
 */
import { fold } from "./fold.ts";

/** Whose place, or which: 你们, 店, 门店 … — one of them at least (在哪 alone asks where the thing just asked of is: cues.ts). */
const PLACE_HAN = "(?:你们|您们|贵店|贵司|咱们)?(?:的)?(?:店|门店|店铺|店面|实体店|线下店|网点|营业厅|公司|办公室|门市|总店|分店|医院|诊所|学校|驾校)?";
const WHERE_HAN = new RegExp(`^(?=\\S*(?:你们|您们|贵|咱们|店|网点|营业厅|公司|办公室|门市|医院|诊所|学校|驾校))${PLACE_HAN}(?:具体)?(?:在哪里?|在哪儿|在什么地方|在什么位置|在哪个位置|位置在哪里?|怎么走|怎么去)(?:啊|呀|呢|吗)?$`, "u");
const WHERE_LATIN = /^(?:where (?:are|r) (?:you|u|ya)(?: guys)?(?: located| based)?|where(?: s| is) (?:the|your|ur) (?:shop|store|office|branch|place|clinic|salon|school|studio)|what(?:s| s| is) (?:the |your |ur )?address|(?:your|ur) address(?: pls| please)?|where can i find (?:you|u))$/;

/** The words added to a message asking where the account's place is; null when it asks something else. */
export function whereabouts(text: string): string | null {
  const f = fold(text.replace(/[\u2019']/g, " ")).trim();
  if (/\p{Script=Han}/u.test(f)) return WHERE_HAN.test(f.replace(/ /g, "")) ? "地址 位置 交通 路线 地铁 公交" : null;
  return WHERE_LATIN.test(f) ? "address location directions find map" : null;
}
