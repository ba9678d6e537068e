/**
 * The entry a follower picked from the list their question got ("第二个", "2", "the second one"):
 * the article that answered them, by their own choice. `replyd inbox --lists` shows it beside the
 * list, for the operator to teach that question to it (docs/answers.md "Teaching") — a list says
 * the ranking was unsure, and the follower's pick is the one reading of it nobody had to guess.
 */
import { asksAnother } from "../ranking/another.ts";
import { standsAlone } from "../ranking/courtesy.ts";
import type { FollowerLog, LoggedMessage } from "../store/follower-log.ts";
import { unprefixed } from "../store/log-kinds.ts";
import { CONVERSATION } from "../wechat/answering/conversation.ts";
import { textOf } from "./asked-another.ts";

type Entry = LoggedMessage & { seq: number };

/** The follower's messages after the list read at most: each a look-up of the log's time index. */
export const MOST_READ = 4;

/**
 * What a follower kept of the list `entry` got: the last entry they picked (a "换一个" after a pick
 * is logged a pick of the next entry, and names that one: a review had been shown the entry turned
 * down), past thanks and greetings, which the conversation reads past too; null when `entry` got no
 * list, they picked nothing, or turned down every entry picked ("another" with nothing left).
 */
export async function pickedFrom(log: Pick<FollowerLog, "after">, entry: Entry): Promise<{ seq: number; article: string } | null> {
  if (entry.direction !== "in" || !gotList(entry)) return null;
  // Within the window the conversation remembers the list for.
  const until = new Date(Date.parse(entry.received_at) + CONVERSATION.windowMs).toISOString();
  let at = entry;
  let picked: { seq: number; article: string } | null = null;
  for (let step = 0; step < MOST_READ; step++) {
    const next = await log.after(at.seq, entry.from_user, at.received_at, until);
    if (!next) break;
    const answer = unprefixed(next.answer);
    const text = textOf(next);
    if (answer.startsWith("pick:")) picked = { seq: next.seq, article: answer.slice("pick:".length) };
    else if (picked && text !== null && asksAnother(text)) return null;
    else if (text === null || !standsAlone(text)) break;
    at = next;
  }
  return picked;
}

/** A list of articles from the ranking (answers:…, followup:answers:…, another:answers:…): what a pick after it picks from. */
export const gotList = (entry: Pick<LoggedMessage, "answer">): boolean => unprefixed(entry.answer).startsWith("answers:");
