/**
 * A weekday read as one word however it is written (docs/answers.md "How articles are ranked"), so
 * that a follower asking about Sunday meets the opening hours an article writes another way. Only
 * the ranking's words: the text itself — what rules, taught questions and titles are matched on — is
 * left as written (a rule for 星期 still matches 星期六上班吗).
 */
import { stemWord } from "./stem.ts";

/**
 * 星期日 and 礼拜天 are the 周日 of an article's opening hours (a walkthrough's 星期日有冇開 had met
 * only the invoice article's 开); 星期三 and 礼拜三 are 周三. Not where 星期 or 礼拜 counts weeks
 * or is worship: after a count or 每 (一个星期五天班, 两个星期一定到, 每星期一次, 做礼拜), nor 一 that
 * starts another word (星期一次 is no Monday).
 */
const NOT_A_WEEKDAY = "(?<![个每做一二两三四五六七八九十几多半])";
const HAN_WEEKDAY = new RegExp(`${NOT_A_WEEKDAY}(?:星期|礼拜)(?=[二三四五六]|一(?![次定般样起直共下些点会]))`, "gu");
/** 星期天, 礼拜天: Sunday, whatever follows (星期天气温 is Sunday's temperature). */
const HAN_WEEK_SUNDAY = new RegExp(`${NOT_A_WEEKDAY}(?:星期|礼拜)[天日]`, "gu");
/** Sunday's 天 is 日 after 周 (周天 written for 周日) only before what asks of a day: not 本周天猫, 每周天天, 四周天花板. */
const HAN_SUNDAY = /(?<=周)天(?=[开营上下休有能可几是吗呢到去来和与及或]|$)/gu;

/** A run of Han characters (simplified) with each weekday written 周X. */
export function hanWeekdays(run: string): string {
  if (!/[期拜周]/u.test(run)) return run;
  return run.replace(HAN_WEEK_SUNDAY, "周日").replace(HAN_WEEKDAY, "周").replace(HAN_SUNDAY, "日");
}

/**
 * Saturday and Sunday are the weekend: an article's 周六、周日 10:00-18:00 holds a follower's 周末 (a
 * swimming pool's 周末开到几点 had got the parking article's 周末下午车位紧张 alone, sure), and
 * "Sat 9am–5pm, Sun closed" "weekends"; a follower's 周六 meets an article's 周末. The weekend's term
 * is said after the day's (words.ts), as an operator's synonym's is: the day's own term stays.
 */
const WEEKEND: ReadonlyMap<string, string> = new Map([
  ["周六", "周末"],
  ["周日", "周末"],
  [stemWord("saturday"), stemWord("weekend")],
  [stemWord("sunday"), stemWord("weekend")],
]);

/** The weekend's term when `term` is Saturday's or Sunday's (as the ranking reads them), else undefined. */
export const weekendOf = (term: string): string | undefined => WEEKEND.get(term);

/** An English weekday's abbreviations, as opening hours write them ("Mon–Fri 9am–5pm", "Sun closed"). */
const ABBREVIATED: Readonly<Record<string, string>> = {
  mon: "monday", tue: "tuesday", tues: "tuesday", wed: "wednesday", thu: "thursday", thur: "thursday", thurs: "thursday",
  fri: "friday", sat: "saturday", sun: "sunday",
};
const FULL = new Set(Object.values(ABBREVIATED));
/** The day a run names, abbreviated or in full (plural too: "sundays"), or null. */
const dayOf = (run: string | undefined): string | null =>
  run === undefined ? null : (ABBREVIATED[run] ?? (FULL.has(run) ? run : FULL.has(run.replace(/s$/, "")) ? run.replace(/s$/, "") : null));
/** Words between two days of one span or list: "Sat and Sun", "Mon to Thu". */
const JOINS = new Set(["and", "or", "to", "through", "thru", "till", "until"]);
/** Words before a day a follower asks about ("open on sat?", "every Tues", "open sun?"). */
const BEFORE_DAY = new Set(["on", "every", "open"]);
/** What may follow such a day: nothing, or a part of the day ("open sat morning?"). */
const DAY_PARTS = new Set(["morning", "mornings", "afternoon", "afternoons", "evening", "evenings", "night", "nights", "hours"]);
/** A time of day as hours are written: 10am, 9:30, 9pm; or a number starting a range (9–5, 10:00-18:00). */
const timeAt = (runs: readonly string[], i: number): boolean => {
  const run = runs[i];
  if (run === undefined) return false;
  if (run === "closed" || run === "noon" || /^\d{1,2}(?:am|pm)$/.test(run)) return true;
  return /^\d{1,2}$/.test(run) && /^\d/.test(runs[i + 1] ?? "");
};

/**
 * The full weekday an abbreviated run stands for, when its neighbours say it is one: a time after it
 * ("Sat 10am", "Sun 1pm–5pm", "Sat 9–5"), "closed", another day beside it ("Mon–Fri", "Sat and
 * Sun"), or on / every / open before it with nothing after but a part of the day ("open on sat?",
 * "open sun?"). Alone it is not: "SAT or ACT scores", "SAT 1400", "SAT and SAT subject tests", "the
 * next SAT", "sun damage", "I sat 2 exams". `runs`: a text's runs, lower case.
 */
export function weekdayAt(runs: readonly string[], i: number): string | null {
  const run = runs[i] as string;
  const full = ABBREVIATED[run];
  if (!full) return null;
  const otherDay = (k: number) => {
    const d = dayOf(runs[k]);
    return d !== null && d !== full;
  };
  const beside = (step: 1 | -1) => otherDay(i + step) || (JOINS.has(runs[i + step] as string) && otherDay(i + 2 * step));
  const next = runs[i + 1];
  const asked = BEFORE_DAY.has(runs[i - 1] as string) && (next === undefined || DAY_PARTS.has(next));
  return timeAt(runs, i + 1) || beside(1) || beside(-1) || asked ? full : null;
}

const DAYS_EN = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"] as const;
const DAY_EN = "(mon|monday|tue|tues|tuesday|wed|wednesday|thu|thur|thurs|thursday|fri|friday|sat|saturday|sun|sunday)s?";
/** "Monday to Thursday", "Mon–Fri", "Tuesday through Saturday": a span of days (lower case, folded). */
const RANGE_EN = new RegExp(`\\b${DAY_EN}\\s*(?:-|–|—|~|to|through|thru|till|until)\\s*${DAY_EN}\\b`, "g");
const DAYS_HAN = "一二三四五六日";
/** 周一至周五, 周一到周四, 周二~周日 (星期 and 礼拜 read as 周 first: hanWeekdays). */
const RANGE_HAN = /周([一二三四五六日天])\s*(?:至|到|-|–|—|~|～)\s*周?([一二三四五六日天])/gu;

/**
 * The days inside a span an article writes ("Monday to Thursday £3,500", "周一至周五 9:00-18:00"), as
 * terms: a follower asking about a Wednesday meets the prices or hours of the span holding it (a
 * wedding venue's "20 of us on a wednesday. how much?" had met no article's word for it). The span's
 * ends are the text's own terms already; a span running into the week after (Fri–Mon) wraps.
 */
export function daysWithin(text: string): string[] {
  const lower = text.toLowerCase();
  const out: string[] = [];
  if (/\b(?:mon|tue|wed|thu|fri|sat|sun)/.test(lower))
    for (const m of lower.matchAll(RANGE_EN)) {
      const from = DAYS_EN.indexOf((ABBREVIATED[m[1] as string] ?? m[1]) as (typeof DAYS_EN)[number]);
      const to = DAYS_EN.indexOf((ABBREVIATED[m[2] as string] ?? m[2]) as (typeof DAYS_EN)[number]);
      if (from < 0 || to < 0 || from === to) continue;
      for (let d = (from + 1) % 7; d !== to; d = (d + 1) % 7) out.push(stemWord(DAYS_EN[d] as string));
    }
  if (/[周期拜]/u.test(text)) {
    const days = hanWeekdays(text.replace(/\s+/g, " "));
    for (const m of days.matchAll(RANGE_HAN)) {
      const from = DAYS_HAN.indexOf(m[1] === "天" ? "日" : (m[1] as string));
      const to = DAYS_HAN.indexOf(m[2] === "天" ? "日" : (m[2] as string));
      if (from < 0 || to < 0 || from === to) continue;
      for (let d = (from + 1) % 7; d !== to; d = (d + 1) % 7) out.push(`周${DAYS_HAN[d]}`);
    }
  }
  return out;
}
