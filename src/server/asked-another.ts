/**
 * The question a follower's "换一个 / another / 不是这个" asked another answer to (docs/answers.md
 * "Teaching"): what `replyd teach` teaches for it, and what `replyd inbox` names beside it. The
 * articles offered did not answer that question, and the question itself was answered, so it is
 * not in the inbox: this message is the operator's one trace of it.
 */
import { asksAnother, asksForAnother } from "../ranking/another.ts";
import { standsAlone } from "../ranking/courtesy.ts";
import type { FollowerLog, LoggedMessage } from "../store/follower-log.ts";
import { CONVERSATION } from "../wechat/answering/conversation.ts";
import { unprefixed } from "../store/log-kinds.ts";

type Entry = LoggedMessage & { seq: number };

/**
 * Messages passed over on the way back, at most: a follower saying "another" again and again, with
 * thanks between, is still asking of one question; past this many, the chain names none (each step
 * is a read of the log).
 */
export const MOST_PASSED = 8;

/** A follower's text or recognised voice message, trimmed; null for any other message. */
export const textOf = (e: Entry): string | null => (e.type === "text" || e.type === "voice" ? (e.content ?? "").trim() : null);

/** As the callback read it: another, with what is meant after it too ("not that one, i use the website"). */
export const asksAnotherIn = (e: Entry): boolean => {
  const t = textOf(e);
  return t !== null && asksForAnother(t);
};

/**
 * Said between questions as the conversation reads them (wechat/answering/reading.ts): another
 * "another", thanks, a greeting, or an entry picked from the list a question got ("2", 第二个: "none
 * of these" after it is about that list — a theatre's walkthrough had been told to teach "2").
 */
const passedOver = (e: Entry): boolean => {
  const t = textOf(e);
  return t !== null && (asksAnother(t) || standsAlone(t) || unprefixed(e.answer).startsWith("pick:"));
};

/**
 * The follower's message before `entry`, within the conversation's window of the one after it
 * (CONVERSATION.windowMs, as the callback read "another"), past the messages said between
 * questions; null when `entry` asks no other answer, or none is found within MOST_PASSED steps.
 * Not the log's again_of, which links an answer the ranking chose within two minutes only: a third
 * "another" after two that found nothing had named no question (a walkthrough).
 */
export async function askedAnotherOf(log: Pick<FollowerLog, "before">, entry: Entry): Promise<Entry | null> {
  return entry.direction === "in" && asksAnotherIn(entry) ? questionBefore(log, entry) : null;
}

/**
 * The follower's question before `entry` — a text or a voice message, past thanks, greetings and
 * "another" (at most MOST_PASSED of them), within the conversation's window of `entry` —; null when
 * there is none: a subscription, a menu's click or a picture before it asks nothing (following and
 * then asking is how most conversations open: a review).
 */
export async function questionBefore(log: Pick<FollowerLog, "before">, entry: Entry): Promise<Entry | null> {
  const since = new Date(Date.parse(entry.received_at) - CONVERSATION.windowMs).toISOString();
  let at = entry;
  for (let step = 0; step < MOST_PASSED; step++) {
    const before = await log.before(at.seq, at.from_user, since);
    if (!before || textOf(before) === null) return null;
    if (!passedOver(before)) return before;
    at = before;
  }
  return null;
}
