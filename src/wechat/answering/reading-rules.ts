/**
 * The rules read() applies to a follow-up (reading.ts): whether a message that does not lean stays
 * on the article read, the article one asking of it is about (its price, a circumstance), words taught word for word, and the
 * shares they are tuned by (READING).
 */
import type { Choice } from "../../ranking/choice.ts";
import type { RankedArticle, Ranking } from "../../ranking/types.ts";
import type { Turn } from "./conversation.ts";
import { lastPicked } from "./turn.ts";
import { taughtOf } from "./taught.ts";
import { termsOf } from "../../ranking/words.ts";
import { ASKS_PRICE, isPriceWord } from "../../ranking/price.ts";
import { frameTerms } from "../../ranking/asks-frame.ts";
import { isWord } from "../../ranking/score.ts";

/**
 * `text` is one of `article`'s taught questions (taught.ts), as the ranking's articles hold them, and
 * nothing else names the article: no word of `text` is in its title or keywords that the title and
 * keywords of the article read before (`before`) do not hold too, price words aside. Then what leads
 * a follow-up to it is the teaching alone, not a subject the follower names (三室的呢 taught to the
 * daily cleaning, asked after the deep cleaning's price; 三室的保洁呢 too, 保洁 both heads', and 三室的价格呢
 * taught to 日常保洁价格 — a review). A question naming the article's own subject is that subject's,
 * taught or not: "烫完多久能洗头", taught to the perm's aftercare (烫发后如何护理), after 染发多少钱 had
 * listed the colouring's price first — its 烫 counted as the teaching alone (a salon's walkthrough, Session 51).
 */
export function taughtOnly(text: string, article: RankedArticle, ranked: readonly RankedArticle[], before?: RankedArticle): boolean {
  const t = taughtOf(text, ranked, NONE_DELETED);
  if (t === null || !("article" in t) || t.by !== "question" || t.article.id !== article.id) return false;
  const headOf = (a: RankedArticle) => new Set(termsOf(`${a.title}\n${a.keywords.join("\n")}`));
  const head = headOf(article);
  const shared = before === undefined ? new Set<string>() : headOf(before);
  // What it asks of the price says no subject: its words (价格, 多少钱, "how much") and their characters left out.
  return !termsOf(text.replace(PRICE_ASKED, " ")).some((term) => head.has(term) && !shared.has(term) && !isPriceWord(term));
}
const PRICE_ASKED = new RegExp(ASKS_PRICE.source, "giu");
const NONE_DELETED = { deletedTaught: () => null };

/**
 * `article`'s head (title, keywords, questions) holds a word of the message (`terms`, its ranking's;
 * a word, not a character: the 门 of a title's 门窗 named no subject of 多久能上门 — a review) other than
 * the words only its frame holds — how long, how much, when (asks-frame.ts): a head
 * holding those alone names no subject of the message. "多久能上门" after 量房要钱吗 had moved to the
 * building period's article, keyworded 多久, from the measuring visit the reading together led with
 * (a renovation company's fresh set; Session 52: three follow-up pairs gained over the sets, the
 * eighth's held out among them, none lost).
 */
export function namesBeyondFrame(asked: string, terms: readonly { term: string }[], article: RankedArticle): boolean {
  const frame = frameTerms(asked);
  if (!frame.size) return true;
  const head = new Set(termsOf([article.title, ...article.keywords, ...article.questions].join("\n")));
  return terms.some((t) => !frame.has(t.term) && isWord(t.term) && head.has(t.term));
}

/**
 * The article the follower reads, to lead a follow-up that asks of it (its price, a circumstance,
 * another kind of it): the card sent, the first of the ranking's list, or the one read before help
 * or a rule — not the first of a tag's or a rule's list, whose order is the operator's; none after
 * an entry picked (read() puts the entry first).
 */
export function ledRead(last: Turn): string | undefined {
  if (last.shown.length && lastPicked(last) !== undefined) return undefined;
  return last.shown.length === 0 ? last.read : last.shown.length === 1 || !last.byCode ? last.shown[0] : undefined;
}

/**
 * Whether a message that does not lean, of which its own ranking is not sure, stays on the article
 * the follower reads (`reading`): the reading together leads with it, it holds READING.ownHeld of
 * the follower's own words, those no article holds too ("is there a fee" after the cancelling
 * article, which names its fee; "I rent, do I need both?" after buildings and contents cover), and
 * no less of them than the article the message's own ranking puts first ("急诊从哪个门进" after the
 * reports question is about the fever clinic, not the reports: a review). Not what another
 * article answers ("do u ship to the uk" after changing an order: the order article holds "ship",
 * not "uk"). A message its own ranking offers nothing for stays only in a list ("listed"; `takenKind`, the
 * reading together's choice, read once by read()): the article read sent alone would be sure of
 * what no article was (a question no article answers had got one). Until Session 44 it then stood
 * alone and got the fallback ("充了能退吗" after the stored-value card's article: the follow-up
 * set's tuning half 0.828 → 0.836, no other set or mode moved).
 */
export function staysOn(together: Ranking, takenKind: Choice<RankedArticle>["kind"], reading: string, alone: Ranking, aloneKind: Choice<RankedArticle>["kind"]): "yes" | "no" | "listed" {
  const led = together.articles[0];
  if (led === undefined || led.id !== reading || led.ownCoverage < READING.ownHeld) return "no";
  if (led.ownCoverage < (alone.articles[0]?.coverage ?? 0)) return "no";
  return aloneKind === "none" && takenKind === "one" ? "listed" : "yes";
}

/** Tunable by bench/followups.ts (`--set namesAnother=…`); nothing else changes them. */
export const READING: { namesAnother: number; pickedClose: number; ownHeld: number } = {
  /**
   * The share of a follow-up's own words an article's head holds (ranking/score.ts headCoverage)
   * for the follow-up to be read alone, moving to that article. On the follow-up set
   * (bench/followups.ts) any value from 0.2 to 0.8 gives the same readings: an article's head holds
   * all of a follow-up's few words, or hardly any (docs/performance.md Session 21).
   */
  namesAnother: 0.5,
  /**
   * After an entry picked from a list, a follow-up read together goes to it first when it scores at
   * least this share of the best. Not after one article sent without a pick — on the follow-up set
   * that moved follow-ups meant for a neighbouring article back (0.796 → 0.754 at 0.5; no gain at
   * any share on our set's tuning; the sets hold no pick, so none moves: Session 34) — unless the
   * follow-up asks only what it costs and that article shows a price (Session 37: 0.810 → 0.815).
   */
  pickedClose: 0.5,
  /**
   * The share of a message's own words (every one, those no article holds too) the article read
   * before must hold for a message that does not lean, and that its own ranking is not sure of, to
   * stay on it (staysOn). Session 35, with staysOn's other tests: the follow-up set's tuning half
   * 0.789 → 0.797, held out 0.795 unchanged, fresh 0.458 → 0.510; questions of their own after
   * another (`--cross`) lose 0.2–0.3 points of right first, refusals unchanged. 0.5 gained less on
   * the fresh set; over the words some article holds only, questions no article answers stayed on
   * the article before.
   */
  ownHeld: 0.35,
};
