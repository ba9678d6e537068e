/** A follower's messages read in turn over an account in memory (src/wechat/answering/reading.ts), as the reading tests play them. */
import { rank } from "../../src/ranking/rank.ts";
import { read, type Reading } from "../../src/wechat/answering/reading.ts";
import { nextTurn } from "../../src/wechat/answering/reading-turn.ts";
import type { Turn } from "../../src/wechat/answering/conversation.ts";
import type { MemorySource } from "../../bench/eval/memory-source.ts";
import { shownBy } from "../../bench/followups.ts";

/** What a follower is shown for a reading, in order (the bench's own). */
export const shown = shownBy;

/** The follower's messages in turn; the last one's reading. */
export async function conversationIn(account: MemorySource, ...messages: string[]): Promise<Reading> {
  let turns: Turn[] = [];
  let r: Reading | undefined;
  for (const m of messages) {
    r = await read(m, turns, async (q) => rank(q, account));
    turns = [nextTurn(r, turns, `m${turns.length}`, 0, shown(r))];
  }
  return r as Reading;
}

/** What the follower was shown for `first`, and the reading of `then` after it. */
export async function firstThen(account: MemorySource, first: string, then: string): Promise<{ first: string[]; last: Reading }> {
  return { first: shown(await conversationIn(account, first)), last: await conversationIn(account, first, then) };
}
