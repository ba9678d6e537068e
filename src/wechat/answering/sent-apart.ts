/**
 * A follower's turns after a code, a tag, help or a rule answered them (responder.ts `movedOn`;
 * docs/answers.md "Follow-ups"): the list their newest turn showed is no longer what they read, so a
 * number they send next is a code, not a pick from it. A code's article is what they read now: their
 * newest turn, its title what they asked, so that a follow-up is read with it ("多少钱" after 回复20's
 * meeting-room card had been read alone: a co-working account's followers asked by codes) — unless
 * the list showed it, which is then that list's entry picked, as "第二个" would (a walkthrough's
 * follower sent "3" from a tag's list, then "another", and got the tag's description ranked).
 *
 * Kept as one mark, when and which code, beside the turns — in this instance's memory and, in a
 * cluster, in Redis (`markOf`) — and applied when the turns are next read (conversation.ts): a
 * code's reply, the commonest there is, costs one small write, not a read and a write of the turns
 * (in Redis, a turn another instance kept between them would be lost). One mark: the last code,
 * tag, help or rule sent is what counts.
 */
import type { Turn } from "./turn.ts";

/** An article a code sent: `entry` its id, `key` the message's (conversation.ts turnKey), `about` its title (at most 64 characters: article fields). */
export interface Coded {
  entry: string;
  key: string;
  about: string;
}

/** When a code, tag, help or rule answered, and what a code sent; none at 0. */
export interface Mark {
  at: number;
  code?: Coded;
}

/** `turn` showed a list (two entries or more) that holds `entry`. */
const shows = (turn: Turn | undefined, entry: string): boolean => turn !== undefined && turn.shown.length > 1 && turn.shown.includes(entry);

/**
 * `turns` (newest first) after a code, tag, help or rule answered at `at` (`code`: what a code sent).
 * As they are when a turn came since, or when this code's turn is among them already (read
 * through this instance's mark and Redis's).
 */
export function afterSent(turns: readonly Turn[], at: number, code?: Coded): Turn[] {
  const [newest, ...older] = turns;
  if ((newest && newest.at > at) || (code && turns.some((t) => t.key === code.key))) return [...turns];
  // After the newest turn, whatever the clock says (conversation.ts turnTime).
  const when = Math.max(at, (newest?.at ?? -Infinity) + 1);
  if (newest && code && shows(newest, code.entry)) return newest.picked?.includes(code.entry) ? [...turns] : [{ ...newest, picked: [...(newest.picked ?? []), code.entry] }, ...older];
  const rest = newest?.shown.length ? [{ ...newest, shown: [] }, ...older] : [...turns];
  return code ? [{ key: code.key, at: when, text: code.about, earlier: [], offered: [code.entry], shown: [code.entry], coded: true }, ...rest] : rest;
}

/** The mark as Redis holds it: when, and after a code what it sent (its title last: it may hold spaces). */
export const markOf = (at: number, code?: Coded): string => (code ? `${at} ${code.entry} ${code.key} ${code.about}` : String(at));

/** A mark as stored; none (at 0) when absent or unreadable. */
export function parseMark(value: string | null | undefined): Mark {
  const [when, entry, key, ...about] = (value ?? "").split(" ");
  const at = Number(when) || 0;
  return entry && key && about.length ? { at, code: { entry, key, about: about.join(" ") } } : { at };
}
