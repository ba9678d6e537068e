/**
 * The words of a question no article holds (`replyd ask`'s "not held"): its Latin words and pairs
 * of Chinese characters not among the terms the ranking read — nor covered by a synonym group the
 * ranking read ("没水" in ["停水", "没水"] is held when an article says 停水: a water utility's
 * operator had been told to make 没水 a synonym it already was). Nothing when the ranking read as
 * many terms as it may: past RANKING_LIMITS.terms a word left unread is not known to be unheld. Not a
 * pair that straddles a word held and the next (a kindergarten's operator was told 有校 and 班呢 were
 * words no article holds, and to teach them).
 */
import { RANKING_LIMITS } from "./rank.ts";
import { isWord } from "./score.ts";
import { withSynonyms, type SynonymTable } from "./synonyms.ts";
import { termsOf } from "./words.ts";
import { withoutOpening } from "./courtesy.ts";
import { HAN_STOP } from "./stop-words.ts";

const HAN_PAIR = /^\p{Script=Han}{2}$/u;

/**
 * A pair of Chinese characters holding one that says nothing alone (HAN_STOP: 的, 了, 能, 有, 吗, 那 …):
 * the seam of two words, 里的 and 的钱 of 卡里的钱, 钱能 of 钱能退吗, 那烫 — a salon's operator had been told
 * to teach them (Session 51). Not 会, 过, 快, 还, 请, 地, which open or close words followers write —
 * 会员, 过敏, 快递, 还款, 请假, 地址 (a review); the few words the others make (能力, 没有) go unnamed.
 */
const OPEN_WORDS = new Set([..."会过快还请地"]);
const withStopChar = (t: string): boolean => HAN_PAIR.test(t) && [...t].some((c) => HAN_STOP.has(c) && !OPEN_WORDS.has(c));

/** At most this many are named. */
const NAMED = 12;

export function unheldWords(question: string, held: readonly string[], synonyms: SynonymTable | null): string[] {
  if (held.length >= RANKING_LIMITS.terms) return [];
  const read = new Set(held);
  // What the ranking reads: without the greeting it opens with ("Dear sir, …", "老师您好，…": not named as not held).
  const terms = withSynonyms(null, () => termsOf(withoutOpening(question)));
  const cover = synonyms?.cover(terms);
  const isHeld = (t: string, i: number) => read.has(t) || (cover?.[i] !== undefined && read.has(cover[i] as string));
  // A pair of Chinese characters overlapping a held pair beside it straddles that word and the next
  // (有校 of 有校车吗, 班呢 of 那中班呢): no word a follower wrote, nothing to teach. Only its neighbours:
  // 学籍 in "学费 学籍怎么办" is a word of its own, though 学费 holds its 学 (a review).
  const pairs = terms.map((t, i) => ({ t, i })).filter((p) => HAN_PAIR.test(p.t));
  const straddling = new Set<number>();
  pairs.forEach((p, k) => {
    const before = pairs[k - 1];
    const after = pairs[k + 1];
    if ((before && isHeld(before.t, before.i) && before.t[1] === p.t[0]) || (after && isHeld(after.t, after.i) && p.t[1] === after.t[0])) straddling.add(p.i);
  });
  const unheld = terms.filter((t, i) => isWord(t) && !isHeld(t, i) && !straddling.has(i) && !withStopChar(t));
  return [...new Set(unheld)].slice(0, NAMED);
}
