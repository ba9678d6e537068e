import { fold } from "./fold.ts";
import { stemWord } from "./stem.ts";
/** "Charge" asked as a price (below): ASKS_PRICE holds it, and asksOnlyPrice reads its stem as a price word then. */
const CHARGE_ASKED = /\b(?:is|are) there (?:a|an|any) (?:extra |additional )?charges?\b|\b(?:any|extra|additional|no) charges?\b(?! (?:cable|port|point|lead|level))|\bthe charges? (?:for|of|to)\b|\bwhat(?:'?s| is| are) the (?:\w+ )?charges?\b(?! (?:cable|port|point|lead|level))|\bthe charges?\s*[?？.!]*$|\b(?:do|does|will|would) (?:you|u|they) charge(?= for\b| extra\b| anything\b| an?\b| per\b| by\b|\s*[?？.!]|\s*$)/;
/**
 * A question asking what something costs, and a passage holding a price (score.ts shownPassage):
 * "how much is it" after the dog registration question had shown the article's opening, not its
 * fees; 要钱吗 after the broken bin's, the interpreter service's line (a council's walkthrough).
 * Not "how much luggage", "in charge of" or "charge my phone"; not "5 p.m.", "feel free" or "20
 * pounds" of weight (a review). A fee's word before 多少 ("小班学费多少", "伙食费一个月多少"), or 多少 a
 * month, a time, a night ("多少一个月"): a kindergarten's walkthrough had shown the deposit sentence
 * under 小班学费多少 (no set moved). Not 多少 alone: how many, how long. "Charge" where it is a price:
 * "is there a charge", "any charges", "the charge for", "do you charge (for …)?" — not "will it charge my phone", "the charge cable" or "how long does a charge last" (a review) (a theatre's walkthrough: "is there a charge",
 * taught to the exchanges, then answered every follower sending it with them).
 */
export const ASKS_PRICE = new RegExp(String.raw`\bhow much(?= is| are| does| do| for| to| will| would| it|\s*[?？]|\s*$)|\b(?:cost|costs|price|prices|fee|fees)\b|${CHARGE_ASKED.source}|多少钱|多少錢|几多钱|幾多錢|价格|價格|价钱|價錢|收费|收費|费用|費用|要钱|要錢|贵吗|貴嗎|贵不贵|貴不貴|[费費][^，。？?！!]{0,4}多少|多少一(?:个月|個月|次|节|節|天|年|晚|小时|小時|张|張)`, "iu");
export const PRICE = /[$¥￥£€]\s?\d|\d[\d,.]*\s?(?:元|块钱|塊錢|蚊|dollars?\b|aud\b|usd\b|rmb\b|hkd\b)|免费|免費|\bfree of charge\b|\bno charge\b|\bat no cost\b/iu;
/** A passage holding a price is shown unless the best one scores this many times it. */
export const PRICE_FAR = 4;
/**
 * The terms a question asks what it costs with, as ASKS_PRICE names them (as words.ts reads them:
 * stems, Chinese pairs and the characters that say money), which tell apart no two passages that
 * hold a price (score.ts shownPassage). Not "charge": its stem is charging's and charger's too (a review).
 */
const PRICE_WORDS: ReadonlySet<string> = new Set([...["price", "cost", "fee"].map(stemWord), "价格", "价钱", "费用", "收费", "价", "钱", "费", "贵"]);

/**
 * Whether an article's title names a price (shown-passage.ts `Priced.titled`: its priced passage is
 * shown to a price question however far below the best it scores): 阶梯水价, 收费标准, "Ticket
 * prices", 学费. Not by a character that says money in other words — 贵宾厅, 会员评价规则, 钱包充值,
 * 免费WiFi, 消费记录 (a review: each had counted, by 贵, 价, 钱 or 费).
 */
export const titledPrice = (title: string): boolean => TITLE_PRICE.test(fold(title));
const TITLE_PRICE = /价格|价钱|价目|价位|收费|费用|多少钱|(?<![评代身等估])价(?![值])|(?<![免消浪])费|\b(?:prices?|pricing|fees?|costs?|charges|rates|tariffs?|fares?)\b/iu;

/** A word of PRICE_WORDS, or a pair naming a fee (学费, 运费, 食费 of 伙食费): every priced passage answers it alike. */
export const isPriceWord = (term: string): boolean => PRICE_WORDS.has(term) || FEE_PAIR.test(term);
const FEE_PAIR = /^\p{Script=Han}费$/u;

/**
 * A question's terms without those asking what it costs, which tell apart no two passages or
 * sentences holding a price (shown-passage.ts, excerpt.ts): "学位预留金…抵扣学费" had been the answer to
 * 小班学费多少 by its 学费, not "小班每月3800元" (a kindergarten's walkthrough).
 */
export const withoutPriceWords = <T extends { term: string }>(q: readonly T[]): T[] => q.filter((t) => !isPriceWord(t.term));

/**
 * A Chinese message of a price word with only particles, a pronoun, 请问 or 怎么 around it ("收费吗", "那价格呢",
 * "贵不贵", "费用多少", "请问怎么收费的", "价格贵吗", "价格怎么样"), matched whole on the folded text: its terms pair the word's characters
 * with the particles (格呢, 贵不) and split 收费 into 收 — no price words, so it had read as naming
 * something ("收费吗" after a card got the fallback: a walkthrough). Not "收费标准", "价格表" or
 * "停车收费吗", which name what they ask of.
 */
const HAN_ONLY_PRICE = /^(?:那|请问|这个|那个|它|要|是|怎么)*(?:收不收费|收费|价格|价钱|费用|多少钱|要钱|贵不贵|贵)(?:是)?(?:多少|怎么算|怎么样|贵不贵|贵)?(?:吗|么|呢|嘛|啊|呀|吧|的)*$/u;

/**
 * A message that asks what something costs and names nothing else ("多少钱", "要多少钱", 贵吗, 收费吗, "how
 * much is that"): it asks so (ASKS_PRICE) and no term of it (`terms`, as the ranking reads them) is
 * other than a price word, or it is a Chinese price word with particles alone (HAN_ONLY_PRICE). What
 * it asks the price of was said before: teach refuses it (server/teach.ts), and a follow-up so is
 * about the article read (wechat/answering/reading.ts).
 */
export function asksOnlyPrice(text: string, terms: readonly { term: string }[]): boolean {
  const f = fold(text);
  if (!ASKS_PRICE.test(f)) return false;
  // "Charge" asked as a price ("is there a charge") is a price word there, though not in a passage, where charging's stem is the same.
  const asked = CHARGE_ASKED.test(f) ? withoutPriceWords(terms).filter((t) => t.term !== CHARGE) : withoutPriceWords(terms);
  return !asked.length || HAN_ONLY_PRICE.test(f.replace(/ /g, ""));
}
const CHARGE = stemWord("charge");
