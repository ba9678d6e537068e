/**
 * A verb and its object with 个 between them, as followers type them (洗个车, 办个卡, 打个折, 理个发,
 * 换个教练): read as the word written whole (洗车, 办卡, 打折) — the pairs 洗个 and 个车 meet nothing,
 * and a car dealer's 洗车 article's keyword did not answer 洗个车多少钱 (a walkthrough). Not after a
 * numeral, a demonstrative or a measure's companion (一个月, 两个人, 这个, 每个, 整个, 好几个), where 个
 * counts; nor before 人, 体, 性, 子, 别 or 案, which it makes words with (查个人信息 stays 个人).
 * Measured (Session 43): the fresh Chinese FAQ's held half first 0.796 → 0.816 ("我想换个教练"),
 * the fresh follow-ups 0.510 → 0.521, every other set's figures unchanged.
 */
const COUNTS = "一二三四五六七八九十两几这那每哪半整各某多好单另此";
const SPLIT = new RegExp(`(?<![${COUNTS}])([^\\P{Script=Han}${COUNTS}])个(?![人体性子别案])(?=\\p{Script=Han})`, "gu");

/** A Han run with 个 taken from between a verb and its object. */
export const joinedSplitVerbs = (run: string): string => (run.includes("个") ? run.replace(SPLIT, "$1") : run);
