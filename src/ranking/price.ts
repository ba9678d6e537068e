import { stemWord } from "./stem.ts";
/**
 * A question asking what something costs, and a passage holding a price (score.ts shownPassage):
 * "how much is it" after the dog registration question had shown the article's opening, not its
 * fees; 要钱吗 after the broken bin's, the interpreter service's line (a council's walkthrough).
 * Not "how much luggage", "in charge of" or "charge my phone"; not "5 p.m.", "feel free" or "20
 * pounds" of weight (a review).
 */
export const ASKS_PRICE = /\bhow much(?= is| are| does| do| for| to| will| would| it|\s*[?？]|\s*$)|\b(?:cost|costs|price|prices|fee|fees)\b|多少钱|多少錢|几多钱|幾多錢|价格|價格|价钱|價錢|收费|收費|费用|費用|要钱|要錢|贵吗|貴嗎/iu;
export const PRICE = /[$¥￥£€]\s?\d|\d[\d,.]*\s?(?:元|块钱|塊錢|蚊|dollars?\b|aud\b|usd\b|rmb\b|hkd\b)|免费|免費|\bfree of charge\b|\bno charge\b|\bat no cost\b/iu;
/** A passage holding a price is shown unless the best one scores this many times it. */
export const PRICE_FAR = 4;
/**
 * The terms a question asks what it costs with, as ASKS_PRICE names them (as words.ts reads them:
 * stems, Chinese pairs and the characters that say money), which tell apart no two passages that
 * hold a price (score.ts shownPassage). Not "charge": its stem is charging's and charger's too (a review).
 */
export const PRICE_WORDS: ReadonlySet<string> = new Set([...["price", "cost", "fee"].map(stemWord), "价格", "价钱", "费用", "收费", "价", "钱", "费", "贵"]);
