/**
 * A follower's turns after a code, help or a rule answered them (responder.ts `movedOn`; a tag's
 * list, or a rule's, is a turn of its own; docs/answers.md "Follow-ups"): the list their newest turn
 * showed is no longer what they read, so a number they send next is a code, not a pick from it. A code's article is what they read now: their
 * newest turn, its title what they asked, so that a follow-up is read with it ("多少钱" after 回复20's
 * meeting-room card had been read alone: a co-working account's followers asked by codes) — unless
 * the list showed it, which is then that list's entry picked, as "第二个" would (a walkthrough's
 * follower sent "3" from a tag's list, then "another", and got the tag's description ranked).
 *
 * Kept as marks beside the turns — in this instance's memory and, in a cluster, in Redis — and
 * applied when the turns are next read (conversation.ts): a code's reply, the commonest there is,
 * costs one small write, not a read and a write of the turns (in Redis, a turn another instance
 * kept between them would be lost). The last code counts, and the last help or rule.
 */
import { articleRead, lastPicked, type Turn } from "./turn.ts";

/** An article a code sent: `entry` its id, `key` the message's (conversation.ts turnKey), `about` its title (at most 64 characters: article fields). */
export interface Coded {
  entry: string;
  key: string;
  about: string;
}

/**
 * The marks beside a follower's turns: the last code sent them, with what it sent, and the last
 * time help or a rule answered them. Two, not one: help after a code had lost the code's turn
 * (a review), where a question's survives, its list forgotten.
 */
export interface Marks {
  coded?: { at: number; code: Coded };
  unlisted?: number;
}

/** `turn` showed a list (two entries or more) that holds `entry`. */
const shows = (turn: Turn | undefined, entry: string): boolean => turn !== undefined && turn.shown.length > 1 && turn.shown.includes(entry);

/**
 * `turns` (newest first) after a code, help or a rule answered at `at` (`code`: what a code sent).
 * As they are when a turn came since, or when this code's turn is among them already (read
 * through this instance's mark and Redis's).
 */
function afterSent(turns: readonly Turn[], at: number, code?: Coded): Turn[] {
  const [newest, ...older] = turns;
  // A turn kept in the mark's millisecond came after it, when the mark forgets a list (it read the turns the mark had changed).
  if ((newest && (code ? newest.at > at : newest.at >= at)) || (code && turns.some((t) => t.key === code.key))) return [...turns];
  // After the newest turn, whatever the clock says (conversation.ts turnTime).
  const when = Math.max(at, (newest?.at ?? -Infinity) + 1);
  // From a tag's or a rule's list, whose text is its description, what they read is the entry's
  // title, as after a pick by place (reading.ts nextTurn): "how much is it" after "menu" and "8" had
  // been read with the menu's words (a bed-and-breakfast's walkthrough).
  // Sent again after another entry was picked, it is the one read again: last among the picks.
  if (newest && code && shows(newest, code.entry))
    return lastPicked(newest) === code.entry ? [...turns] : [{ ...newest, picked: [...(newest.picked ?? []).filter((id) => id !== code.entry), code.entry], ...(newest.byCode ? { text: code.about, earlier: [] } : {}) }, ...older];
  // The code of the article just sent alone: what the follower read already, their question kept ("换一个" next is its next articles: a review).
  if (newest && code && newest.shown.length === 1 && newest.shown[0] === code.entry) return [...turns];
  const read = newest && articleRead(newest);
  const rest = newest?.shown.length ? [{ ...newest, shown: [], ...(read === undefined ? {} : { read }) }, ...older] : [...turns];
  return code ? [{ key: code.key, at: when, text: code.about, earlier: [], offered: [code.entry], shown: [code.entry], coded: true }, ...rest] : rest;
}

/** `turns` (newest first) after `marks`, each applied in the order it was made. */
export function afterMarks(turns: readonly Turn[], marks: Marks): Turn[] {
  const steps: { at: number; code?: Coded }[] = [];
  if (marks.coded) steps.push(marks.coded);
  if (marks.unlisted) steps.push({ at: marks.unlisted });
  // In one millisecond, a code's card after the forgetting: the card is what was sent last, or as good.
  steps.sort((a, b) => a.at - b.at || (a.code ? 1 : 0) - (b.code ? 1 : 0));
  return steps.reduce<Turn[]>((t, m) => afterSent(t, m.at, m.code), [...turns]);
}

/** The newer of each of two sets of marks (this instance's memory and Redis's). */
export const newerMarks = (a: Marks, b: Marks): Marks => ({
  coded: (a.coded?.at ?? 0) >= (b.coded?.at ?? 0) ? a.coded : b.coded,
  unlisted: Math.max(a.unlisted ?? 0, b.unlisted ?? 0) || undefined,
});

/** A code's mark as Redis holds it: when, what it sent (its title last: it may hold spaces). */
export const codedMarkOf = (at: number, code: Coded): string => `${at} ${code.entry} ${code.key} ${code.about}`;

/** Marks as Redis holds them (`unlisted`: when, as 0.2.2 on wrote it, an entry after it read past; `coded`: codedMarkOf's). */
export function parseMarks(unlisted: string | null | undefined, coded: string | null | undefined): Marks {
  const at = Number((unlisted ?? "").split(" ")[0]) || 0;
  const [when, entry, key, ...about] = (coded ?? "").split(" ");
  const codedAt = Number(when) || 0;
  return { unlisted: at || undefined, coded: codedAt && entry && key && about.length ? { at: codedAt, code: { entry, key, about: about.join(" ") } } : undefined };
}
