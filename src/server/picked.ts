/**
 * The entry a follower picked from the list their question got ("第二个", "2", "the second one"):
 * the article that answered them, by their own choice. `replyd inbox --lists` shows it beside the
 * list, for the operator to teach that question to it (docs/answers.md "Teaching") — a list says
 * the ranking was unsure, and the follower's pick is the one reading of it nobody had to guess.
 */
import type { FollowerLog, LoggedMessage } from "../store/follower-log.ts";
import { unprefixed } from "../store/log-kinds.ts";
import { CONVERSATION } from "../wechat/answering/conversation.ts";

type Entry = LoggedMessage & { seq: number };

/** What a follower picked from the list `entry` got: the pick's message and the article; null when `entry` got no list, or their next message was no pick. */
export async function pickedFrom(log: Pick<FollowerLog, "after">, entry: Entry): Promise<{ seq: number; article: string } | null> {
  if (entry.direction !== "in" || !gotList(entry)) return null;
  // Their very next message, within the window the conversation remembers the list for.
  const until = new Date(Date.parse(entry.received_at) + CONVERSATION.windowMs).toISOString();
  const next = await log.after(entry.seq, entry.from_user, entry.received_at, until);
  const answer = next ? unprefixed(next.answer) : "";
  return next && answer.startsWith("pick:") ? { seq: next.seq, article: answer.slice("pick:".length) } : null;
}

/** A list of articles from the ranking (answers:…, followup:answers:…, another:answers:…): what a pick after it picks from. */
export const gotList = (entry: Pick<LoggedMessage, "answer">): boolean => unprefixed(entry.answer).startsWith("answers:");
