/**
 * A weekday read as one word however it is written (docs/answers.md "How articles are ranked"), so
 * that a follower asking about Sunday meets the opening hours an article writes another way.
 */

/**
 * 星期日, 礼拜天 and 周天 are the 周日 of an article's opening hours (a walkthrough's 星期日有冇開 had
 * met only the invoice article's 开). 星期 and 礼拜 become 周周 — the same length, so places do not
 * move: the pair 周日 is there, 周周 is no article's word — only before a weekday's numeral: 一个星期
 * (a week) and 做礼拜 stay. Sunday's 天 is 日, not in 周天气 (a week's weather).
 */
const HAN_WEEKDAY = /(?:星期|礼拜)(?=[一二三四五六日天])/gu;
const HAN_SUNDAY = /(?<=周)天(?!气)/gu;

/** `text` (simplified) with every weekday written 周X. */
export const hanWeekdays = (text: string): string => text.replace(HAN_WEEKDAY, "周周").replace(HAN_SUNDAY, "日");

/** An English weekday's abbreviations, as opening hours write them ("Mon–Fri 9am–5pm", "Sun closed"). */
const ABBREVIATED: Readonly<Record<string, string>> = {
  mon: "monday", tue: "tuesday", tues: "tuesday", wed: "wednesday", thu: "thursday", thur: "thursday", thurs: "thursday",
  fri: "friday", sat: "saturday", sun: "sunday",
};
const FULL = new Set(Object.values(ABBREVIATED));
/** Words that come before a day: "open on sat?", "every Sun", "next Tues". */
const BEFORE_DAY = new Set(["on", "every", "this", "next", "last", "from", "till", "until", "by"]);
/** Words between two days of one span or list: "Sat and Sun", "Mon to Thu". */
const JOINS = new Set(["and", "or", "to", "through", "thru", "till", "until"]);
const DAY = (run: string | undefined) => run !== undefined && (run in ABBREVIATED || FULL.has(run) || FULL.has(run.replace(/s$/, "")));

/**
 * The full weekday an abbreviated run stands for, when its neighbours say it is one: a time after it
 * ("Sat 10am", "Sun 1pm–5pm"), "closed", another day beside it ("Mon–Fri", "Sat and Sun"), or a word
 * that comes before a day ("open on sat?", "every Tues"). Alone it is not: "SAT or ACT scores", "the
 * sun", "I sat the test". `runs`: a text's runs, lower case.
 */
export function weekdayAt(runs: readonly string[], i: number): string | null {
  const run = runs[i] as string;
  const full = ABBREVIATED[run];
  if (!full) return null;
  const next = runs[i + 1];
  const timed = next !== undefined && (/^\d/.test(next) || next === "closed" || next === "noon");
  const beside = (step: 1 | -1) => DAY(runs[i + step]) || (JOINS.has(runs[i + step] as string) && DAY(runs[i + 2 * step]));
  return timed || beside(1) || beside(-1) || BEFORE_DAY.has(runs[i - 1] as string) ? full : null;
}
