/**
 * What the message log keeps for `replyd report` (docs/operations.md "The report"), decided where a
 * message is logged, the same on both stores: how it was answered (its kind), the quarter hour it
 * was logged in, its reply time's bucket, and whether it is a follower asking again right after an
 * answer the ranking or the model chose. The stores add each logged message to per-quarter-hour
 * counts (log_counts, log_reply_ms) in the transaction that logs it, so a report reads a few rows per
 * quarter hour, however many messages the log holds (bench/report.ts).
 */

import { asksForAnother } from "../ranking/another.ts";
import { picksEntry } from "../ranking/picks.ts";
import { asksOfVariant, continuesQuestion, dayAlone } from "../ranking/continuation.ts";
import { standsAlone } from "../ranking/courtesy.ts";
import { folded, termsOf } from "../ranking/words.ts";

/** A follower's text this soon after an answer the ranking or the model chose is "asked again". */
export const AGAIN_MS = 120_000;

/**
 * An article sent alone is a close call when the best relevant runner-up scored at least this share
 * of it: a list starts at 1 / ANSWERS.lead (0.5, ranking/choice.ts), and a runner-up within 0.15 of
 * that came close to one. The partial index messages_close has this figure in its predicate
 * (store/model/db.ts, postgres/schema.ts): a query with another one reads the log.
 */
export const CLOSE_MARGIN = 0.35;

/** Kinds of answer a follower may ask again after: an article or a list the ranking chose, the word search's article, a generated answer. */
export const CHOSEN_KINDS: readonly string[] = ["answer", "answers", "search", "ai"];

/**
 * How a follower's message was read before it was answered (wechat/answering/questions.ts): a follow-up read
 * with the question before it, or "another" asking for the next articles. The answer after it is
 * what the ranking gave, and counts as that.
 */
export const READINGS: readonly string[] = ["followup", "another"];

/** The reading an answer was made in, as its prefix: "followup:" of followup:answer:returns, "" of answer:returns. */
export function readingPrefix(answer: string): string {
  return answer.slice(0, answer.length - unprefixed(answer).length);
}

/** The answer without the reading it was made in: followup:answer:returns is answer:returns. */
export function unprefixed(answer: string): string {
  const colon = answer.indexOf(":");
  return colon > 0 && READINGS.includes(answer.slice(0, colon)) ? answer.slice(colon + 1) : answer;
}

/**
 * How a message was answered, from its log entry, the reading's prefix left out (followup:,
 * another:): the answer's name before any ":" (rule, help, pick,
 * code, tag, answer, answers, search, search_busy, ai, ai-pending, welcome, courtesy, not_found, none);
 * `fallback` for a follower's text, menu key or empty message that nothing matched and `media` for
 * a message replyd cannot read (an image, a location: logged as `media`; before 0.2.5 as the
 * fallback, not unmatched); `reply`, or
 * `reply_ai` for a generated answer, for what the account sent as a customer-service message. The
 * migrations that count the rows logged before (store/model/db.ts, postgres/schema.ts) say the same in SQL.
 */
export function kindOf(direction: string, answer: string, unmatched: boolean, sentBy: string | null): string {
  if (direction === "out") return sentBy === "ai" ? "reply_ai" : "reply";
  const plain = unprefixed(answer);
  const colon = plain.indexOf(":");
  const name = colon < 0 ? plain : plain.slice(0, colon);
  return name === "fallback" && !unmatched ? "media" : name;
}

/** The quarter hour (UTC) an ISO time falls in, as the counts are kept: `2026-11-21T10:45`. */
export function periodOf(iso: string): string {
  const minute = Number(iso.slice(14, 16));
  return `${iso.slice(0, 14)}${String(minute - (minute % 15)).padStart(2, "0")}`;
}

/**
 * A reply time's bucket, its lower bound in ms: two significant figures (exact below 100 ms, 10 ms
 * steps below a second, 100 ms steps below 10 s), a tenth of the time at most; past 10 minutes, 10 minutes.
 */
export function replyBucket(ms: number): number {
  const t = Math.min(Math.max(0, Math.floor(ms)), 600_000);
  if (t < 100) return t;
  const step = 10 ** (Math.floor(Math.log10(t)) - 1);
  return t - (t % step);
}

/** What the log needs of a follower's previous interaction to see them asking again. */
export interface PreviousInteraction {
  seq: number;
  at: string;
  kind: string | null;
  /** What they said then (null: an event, or not read). */
  text: string | null;
}

/**
 * How Chinese questions open, whatever they ask ("我想咨询一下…", "你好，请问…", "怎么办理…"): two
 * questions of a follower's sharing them ask nothing twice. Taken out before the words are read,
 * so that no pair straddles them either (问停 in 请问停车场).
 */
const PHRASING = /你好|您好|请问|请教|我想|想问|问一下|咨询|一下|怎么|如何|办理|可以|能不能|是不是|了解|知道|需要/gu;

/** A message's terms without the phrasing of a question. */
const termsOfAsked = (text: string): string[] => termsOf(folded(text).replace(PHRASING, " "));
const isHanChar = (t: string) => /^\p{Script=Han}$/u.test(t);
/** Its words: Latin words and pairs of Chinese characters, not single characters ("办" is in half the questions asked). */
const wordsOf = (terms: readonly string[]): Set<string> => new Set(terms.filter((t) => !isHanChar(t)));
/** What it is made of, each once: Latin words and Chinese characters (a pair straddling two words, 卡补 in 社保卡补办, is no part of it). */
const unitsOf = (terms: readonly string[]): Set<string> => new Set(terms.filter((t) => isHanChar(t) || !/\p{Script=Han}/u.test(t)));

/** "What about …": 那…呢, "and …", "what about …", "how about …" (asksAbout). */
const ANOTHER_SIDE = /^(?:那(?![个些里边儿么]).*呢[\s\p{P}\p{S}]*$|(?:and|what about|how about)\b)/u;
/**
 * …or a few characters and 呢 naming something the question before did not (双机位呢 after
 * 单机位多少钱: a wedding studio's report had counted it). Not 退款呢 after 退款多久到账, 快递呢 after
 * 快递几天到 — the follower chasing what they asked, every character of it asked before (a review) —
 * nor 我的退款呢 or 怎么还没到呢, which ask again.
 */
const FEW_AND_NE = /^(?![^呢]*[我还没怎么啥什哪多几为到])(\p{Script=Han}{1,6})呢[\s\p{P}\p{S}]*$/u;
const namesAnotherSide = (content: string, before: string): boolean => {
  const f = folded(content).trim();
  if (ANOTHER_SIDE.test(f)) return true;
  const few = FEW_AND_NE.exec(f)?.[1];
  const asked = folded(before);
  return few !== undefined && [...few].some((c) => !asked.includes(c));
};

/**
 * The message asks about what the one before asked: a word of it again, and more than half of
 * what it is made of (its English words, its Chinese characters; half of one or two) that question's ("社保卡挂失" after "社保卡丢了咋办", "cancel subscription" after "how do i cancel sub"), or
 * "换一个 / another". A question of its own sent right after ("电话多少" after "办好了没有啊") is no
 * asking again, nor a follow-up on another side of it ("那周末呢"), nor a new question on the
 * same subject ("报到那天食堂几点开" after "报到那天要带什么材料", "京东店铺能对接吗" after "顺丰月结怎么对接":
 * a word shared, and little else, which two walkthroughs' reports had counted): the report would count
 * every busy follower's questions as answers that failed.
 */
export function asksAbout(content: string, before: string | null): boolean {
  if (asksForAnother(content)) return true;
  // "What about …" asks of another side of it ("那大保养呢" after 小保养多少钱 shares 保养: a car
  // dealer's walkthrough's report had counted it); "but i still cant reset my password", or
  // 那社保卡补办到底要多久, asks again.
  // Nor words continuing it (就两个小时, "for a 2 year old") or another kind of its thing (三室的呢): two walkthroughs' reports had counted them.
  // A day alone continues it, unless the question before named that day: "saturday?" after "are you
  // open on saturday?" asks again (a review).
  if (!before || namesAnotherSide(content, before) || (continuesQuestion(content) && !dayAlone(content)) || asksOfVariant(content)) return false;
  const [now, then] = [termsOfAsked(content), termsOfAsked(before)];
  const had = wordsOf(then);
  if (![...wordsOf(now)].some((w) => had.has(w))) return false;
  const held = unitsOf(then);
  const units = [...unitsOf(now)];
  // Half of a message of one or two units ("cancel subscription"); more than half of a longer one:
  // "周六可以装修吗" after 装修押金多少钱 shares 装修 and asks of Saturdays (a walkthrough's report
  // counted it), "报到那天食堂几点开" shares 报到那天 and asks of the canteen.
  const shared = units.filter((u) => held.has(u)).length * 2;
  return units.length <= 2 ? shared >= units.length : shared > units.length;
}

/**
 * A message a follower may ask again with: a text (or a voice message the platform recognised) —
 * not thanks, an acknowledgement or a greeting ("谢谢", "ok", "在吗", an emoji), nor a pick from the
 * list just sent ("2", "第二个"), which take the answer rather than ask again (ranking/cues.ts).
 * "换一个 / another" does ask again: the answer was not the one.
 */
export const asks = (type: string, content: unknown): boolean =>
  (type === "text" || type === "voice") && typeof content === "string" && content.trim() !== "" && !standsAlone(content) && picksEntry(content) === null;

/**
 * The log entry a follower's message asks again after, or null: their previous interaction, when
 * it was answered by an article or list the ranking chose, the word search or the model, came at
 * most AGAIN_MS before, and the message asks about what it asked (asksAbout).
 */
export function againOf(type: string, content: unknown, atMs: number, previous: PreviousInteraction | null): number | null {
  if (!previous || previous.kind === null || !asks(type, content) || !CHOSEN_KINDS.includes(previous.kind) || !asksAbout(content as string, previous.text)) return null;
  const gap = atMs - Date.parse(previous.at);
  return gap >= 0 && gap <= AGAIN_MS ? previous.seq : null;
}
