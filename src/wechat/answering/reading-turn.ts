/**
 * What a reading (reading.ts) leads to: the articles it offers, and the turn it leaves for the
 * follower's next message (docs/answers.md "Follow-ups").
 */
import { choose, ordersByHead, type Choice } from "../../ranking/choice.ts";
import type { RankedArticle, RankingResult } from "../../ranking/types.ts";
import type { Turn } from "./conversation.ts";
import { earlierOf, type Reading } from "./reading.ts";

const articlesOf = (r: RankingResult) => (r && r !== "busy" ? r.articles : []);

/**
 * What a reading offers: the ranking's choice; for "another" and a follow-up `listed`, a list of up
 * to ANOTHER_LISTED of the articles that hold a word of the question (for "another", those left),
 * the choice's first — the follower asked for more, or the ranking is sure only with the question
 * before, and a list claims no certainty. One alone only for "another", when no other article left
 * holds a word; a follow-up `listed` that one article alone holds gets nothing (reading.ts staysOn);
 * one `sure`, its article (reading.ts).
 */
export function offer(r: Exclude<Reading, { how: "pick" }>): Choice<RankedArticle> {
  const ranked = articlesOf(r.ranked);
  if (r.how === "followup" && r.sure && ranked[0]) return { kind: "one", article: ranked[0], margin: 0 };
  const c = choose(ranked, ordersByHead(r.question));
  const listed = r.how === "followup" && r.listed === true;
  if ((r.how !== "another" && !listed) || c.kind === "list") return c;
  // Never one alone: ranked behind the articles turned down, the first left is sure only of beating
  // the rest ("my card got declined what now", then "换一个", got the deposit article alone: a walkthrough).
  const more = [...(c.kind === "one" ? [c.article] : []), ...ranked.filter((a) => a.word && (c.kind !== "one" || a !== c.article))].slice(0, ANOTHER_LISTED);
  if (more.length > 1) return { kind: "list", articles: more };
  if (listed) return { kind: "none", why: "unsure" };
  return more.length === 1 && c.kind === "none" ? { kind: "list", articles: more } : c;
}

export const ANOTHER_LISTED = 3;

/**
 * The turn a reading leaves, `shown` what its reply showed: "another" keeps the question and adds
 * to what it was offered; a pick keeps the list, so that the next pick is from it too.
 */
export function nextTurn(r: Reading, turns: readonly Turn[], key: string, at: number, shown: readonly string[], pickedTitle?: string): Turn {
  const last = turns[0];
  // From a tag's or a rule's list, whose text is its description, what they read is the entry's
  // title: a follow-up is read with it ("多少钱" after 第二个 had picked the fillings of a treatments
  // tag got the price list and the insurance article, not the fillings: a dental chain's walkthrough).
  if (last && r.how === "pick") return { ...last, key, at, picked: [...(last.picked ?? []), r.id], ...(last.byCode && pickedTitle !== undefined ? { text: pickedTitle, earlier: [] } : {}) };
  // Its list is the ranking's, numbered or labelled as lists of answers are, whatever the list before
  // showed, and none of it picked yet: "换一个" next asks for more, not for its first entry.
  if (last && r.how === "another") return { ...last, key, at, offered: [...last.offered, ...shown.filter((id) => !last.offered.includes(id))], shown: [...shown], byCode: undefined, picked: undefined, read: undefined };
  return { key, at, text: r.question.text, earlier: last && r.how === "followup" ? earlierOf(last) : [], offered: [...shown], shown: [...shown] };
}
