/**
 * How a follower's text is read in its conversation (docs/answers.md "Follow-ups"): alone, as a
 * follow-up ranked with the question before it, as "another" (that question again, the articles
 * already offered left out), or as a pick from the list just sent. Pure but for the ranking it is
 * given: the responder gives the searcher's, bench/followups.ts the ranking over a set in memory.
 *
 * A follow-up is told by its words and by its ranking: a message that leans on what was said before
 * (cues.ts: "那运费呢", "can I undo it?", "会过期吗") is ranked again with the question before it,
 * and that reading is taken when it offers something — unless the message's own words name an
 * article in its head more than the one that reading leads with ("and sleep?" after the
 * period-tracking question), and that reading is not sure of the article read: the conversation moves there. A message that does not lean stands on
 * its own — "tell me a joke" after a question is not answered with that question's article — unless
 * its own ranking is not sure and the article the follower reads holds its words ("is there a fee"
 * after the cancelling article: staysOn). Measured on the follow-up set and on followers' questions
 * of their own asked one after another (bench/followups.ts, docs/performance.md Sessions 17, 21 and
 * 35): ranking every message with the one before drags new questions back to the old article;
 * reading any unsure message so answers questions no article answers with the old one; reading only
 * short messages so misses whole sentences that follow up; letting a leaning message that is sure
 * alone stand on its own lost follow-ups whose few words one article held by chance ("要带什么").
 */
import { choose } from "../../ranking/choice.ts";
import { isWord } from "../../ranking/score.ts";
import { CONTEXT, type Question } from "../../ranking/question.ts";
import { RANKING_LIMITS } from "../../ranking/rank.ts";
import type { RankedArticle, RankingResult } from "../../ranking/types.ts";
import { asksOfItByFrame } from "../../ranking/frame-of-it.ts";
import { anotherThen, asksAnother } from "../../ranking/another.ts";
import { asksOfItAlone, fewWords, FOLLOW_UP_WORDS, leansFewWords, leansOnBefore } from "../../ranking/cues.ts";
import { bareNumber, picksEntry } from "../../ranking/picks.ts";
import { asksOfVariant, continuesQuestion } from "../../ranking/continuation.ts";
import { standsAlone, withoutOpening } from "../../ranking/courtesy.ts";
import { CONVERSATION, type Turn } from "./conversation.ts";
import { articleRead, lastPicked } from "./turn.ts";
import { ledRead, namesBeyondFrame, READING, staysOn, taughtOnly } from "./reading-rules.ts";
import { fold } from "../../ranking/fold.ts";
import { asksOnlyPrice, PRICE } from "../../ranking/price.ts";
import { answersFrame, frameOnly } from "../../ranking/asks-frame.ts";

export type Reading = (
  /**
   * Ranked as it is: no question before it within the window, or it stands on its own; `moved`: it
   * leaned, or followed the article read, but its own words name another article's head (below).
   */
  | { how: "alone"; ranked: RankingResult; moved?: true; why?: AloneWhy }
  /**
   * Ranked with the question before it (and the one that question followed); `listed`: offered as a
   * list however sure that ranking is (staysOn), or nothing when one article alone holds its words;
   * `sure`: the one article ranked is the article read, asked only how long or what time, its
   * passage saying so — offered alone whatever share of the question it holds.
   */
  | { how: "followup"; ranked: RankingResult; listed?: true; sure?: true }
  /**
   * The question before it ranked again without the articles it was offered (`question.exclude`);
   * `meant`: what the follower said after "another" ("not that one, i use the website"), ranked
   * instead, with that question as its context; `ofNothing`: nothing before it to take the next of
   * or pick from (no question within the window, or a pick past the list's end).
   */
  | { how: "another"; ranked: RankingResult; meant?: string; ofNothing?: true }
  /** The entry `id` of the list just sent. */
  | { how: "pick"; id: string }
) & {
  /** What was ranked. */
  question: Question;
  /** The question as a model is given it: the earlier questions, oldest first, then this one, a line each. */
  asked: string;
};

/**
 * Why a message after a question was read alone (`replyd ask --after` says it: an operator whose
 * teach had turned a follow-up into a question of its own was told "read alone" and nothing more —
 * a bike share's walkthrough): `sure`, it does not lean on the question before and its own words are
 * sure of an article; `nothing_read`, it does not lean and no article was read (a list, or nothing,
 * was sent); `unheld`, it does not lean and the article read holds too little of its words; `unsure`,
 * read together with the question before nothing was sure enough. (`moved`: its own words name
 * another article's head; courtesy is answered as such, wechat/answering/questions.ts.)
 */
export type AloneWhy = "sure" | "nothing_read" | "unheld" | "unsure";

export type Ranker = (q: Question) => Promise<RankingResult>;

/** The question a turn was ranked on: its text, with the questions it was read with. */
export const questionOf = (t: Turn): Question => (t.earlier.length ? { text: t.text, context: t.earlier.join("\n") } : { text: t.text });

/** A follow-up's earlier questions, newest first: the turn before, and the one that turn followed. */
export const earlierOf = (last: Turn): string[] => [last.text, ...last.earlier].slice(0, CONVERSATION.turns);

const spoken = (text: string, earlier: readonly string[]) => [...earlier].reverse().concat(text).join("\n");

/** The entry of `last`'s list after the one picked last that is not picked yet (from its start again past its end); none before a pick. */
function nextEntry(last: Turn): string | undefined {
  const picked = last.picked ?? [];
  if (!picked.length || last.shown.length < 2) return undefined;
  const at = last.shown.indexOf(picked[picked.length - 1] as string);
  return [...last.shown.slice(at + 1), ...last.shown.slice(0, Math.max(at, 0))].find((id) => !picked.includes(id));
}

/** "The first one" after a single article is that article; "the second one" after a list, its second. */
const entryOf = (last: Turn, n: number): string | undefined => (n <= last.shown.length && (last.shown.length > 1 || n === 1) ? last.shown[n - 1] : undefined);

/** The entry `text` picks of the list `last` showed (a list: more than one article), if it picks one. */
export function pickedFromList(text: string, last: Turn | undefined): string | undefined {
  const n = last && last.shown.length > 1 ? picksEntry(text) : null;
  return n === null ? undefined : entryOf(last as Turn, n);
}

/**
 * `meant` ranked alone, nothing left out, when that ranking is sure of an article `last` offered. Not
 * with the question before: its words pulled back the article turned down ("not that one, it came
 * smashed" after the delivery article, "i use the website not the app" after the bank connection).
 */
async function sureOfOffered(meant: string, last: Turn, rank: Ranker): Promise<{ question: Question; ranked: RankingResult } | undefined> {
  const question: Question = { text: meant };
  const ranked = await rank(question);
  if (!ranked || ranked === "busy") return undefined;
  const c = choose(ranked.articles);
  return c.kind === "one" && last.offered.includes(c.article.id) ? { question, ranked } : undefined;
}

/** A price asked of the account itself ("what are your prices", 你们的价格): not of the article read. */
const ACCOUNTS_OWN = /\byour\b|你们|您们/u;

/** What nothing is ranked for: no article is offered. */
const NOTHING: RankingResult = { terms: [], postings: 0, candidates: 0, articles: [] };

/** `turns`: the follower's last turns within the window, newest first (conversation.ts). */
export async function read(text: string, turns: readonly Turn[], rank: Ranker): Promise<Reading> {
  const last = turns[0];
  const n = picksEntry(text);
  const picked = last && n !== null ? entryOf(last, n) : undefined;
  if (last && picked) return { how: "pick", question: questionOf(last), asked: spoken(last.text, last.earlier), id: picked };
  // "换一个" after an entry picked from a list: its next entry, whose title the follower has read
  // (after a pick from a tag's list it had ranked the tag's description: two walkthroughs).
  const next = last && asksAnother(text) ? nextEntry(last) : undefined;
  if (last && next) return { how: "pick", question: questionOf(last), asked: spoken(last.text, last.earlier), id: next };
  // "Another", or "the second one" after a single article: the next articles not yet offered — none
  // after a code's card, whose title is no question (ranked, it found articles sharing a word of it,
  // 说明 or 价格: a co-working account's walkthrough).
  // "Not that one, i use the website": another, ranked with the words after it, the question before as their context.
  const then = last && !last.coded ? anotherThen(text) : null;
  if (last && !last.coded && (then !== null || asksAnother(text) || (n === 2 && last.shown.length === 1))) {
    const question = then ? { text: then, context: earlierOf(last).join("\n"), exclude: last.offered } : { ...questionOf(last), exclude: last.offered };
    // As many offered as a turn remembers (CONTEXT.excluded): nothing left, said so — ranked again,
    // the first offered, no longer remembered, had come round again (a council's walkthrough: six
    // "not this one", then the first article again).
    if (last.offered.length >= CONTEXT.excluded) return { how: "another", question, asked: spoken(last.text, last.earlier), ranked: NOTHING };
    // What they meant, ranked on its own, is sure of an article offered: that article again,
    // its card now showing what answers the words meant — the follower had not read that far ("不是这个
    // 我问的是二套房的利率" after the rates article, which lists the second home's: the housing fund's walkthrough).
    const again = then ? await sureOfOffered(then, last, rank) : undefined;
    if (again) return { how: "another", ...again, asked: spoken(last.text, last.earlier), meant: then as string };
    return { how: "another", question, asked: spoken(last.text, last.earlier), ranked: await rank(question), ...(then ? { meant: then } : {}) };
  }
  // A pick of nothing ("第二个" after the fallback, "the fifth" after three), or "换一个" and "第二个"
  // with nothing before them (a new follower, the list on an instance Redis could not reach, or past
  // the window): nothing to take the next of, and no question — not ranked, where 换 found the
  // exchange article and 第二 a body's 第二年.
  if (n !== null || asksAnother(text) || anotherThen(text) === "") return { how: "another", question: { text }, asked: text, ranked: NOTHING, ofNothing: true };
  // A bare number that is no code and picks nothing ("5", "100": the welcome text's codes tried) is no
  // question: ranked, it found whatever body held the figure.
  const own = bareNumber(text) ? NOTHING : await rank({ text });
  // Only how long, when or what time, naming nothing ("要多久", "how long?"), read alone: no question of
  // an article's — ranked, its frame's words found whatever article was taught a question holding them
  // ("居住证怎么办理要多久" taught, a bare 要多久 got the residence permit's card, sure: a service
  // centre's walkthrough). Asking only the price is the price's (price.ts): one product's account is
  // asked 多少钱 first.
  const bare = withoutOpening(text);
  const nothingNamed = frameOnly(bare) && !(own && own !== "busy" && asksOnlyPrice(text, own.terms));
  const alone: Reading = { how: "alone", question: { text }, asked: text, ranked: own };
  const lone: Reading = nothingNamed ? { ...alone, ranked: NOTHING } : alone;
  if (!last || !alone.ranked || alone.ranked === "busy") return lone;
  // Not leaning on what was said ("tell me a joke", "谢谢", a question of its own): not a follow-up,
  // unless its own ranking is not sure of an article and the one read before holds it (staysOn). Read without the thanks or greeting it opens with, as it is ranked: "thanks! and on sundays?" leans as "and on sundays?" does.
  // As much of it as is ranked (RANKING_LIMITS.questionChars): a 也 or a 呢 past it had made a message
  // of 626 characters lean on the one before, an "it" there had not (a review).
  const asked = bare.slice(0, RANKING_LIMITS.questionChars);
  if (standsAlone(asked) || alone.ranked === NOTHING) return lone;
  // Asking only what it costs: about the article read (below). In Chinese such a message (贵吗) names
  // no subject and leans as 多少钱 does (after a card it had been read alone and got the fallback: a review).
  const onlyPrice = asksOnlyPrice(asked, alone.ranked.terms);
  // Words continuing the question before ("for a 2 year old", 就一天) say for whom, when or how many, not what about.
  const continues = continuesQuestion(asked);
  // Only a question's frame, naming nothing (多长时间, "how long?"), asks of what was said too (a review: 多长时间 after a card saying how long had got the fallback).
  const leans = leansOnBefore(asked) || (onlyPrice && /\p{Script=Han}/u.test(asked)) || continues || nothingNamed;
  // Not leaning, it can only stay on the article the follower reads: none (the fallback, or a code
  // or help since), or its own ranking sure of one, and it stands alone — no second ranking.
  const reading = articleRead(last);
  const aloneChoice = choose(alone.ranked.articles);
  // Asking only what it costs in English ("is there a fee") does not lean, but its own ranking's
  // sureness is a title's price word ("Holding fee"), no subject: it may stay on the article read
  // as an unsure message does, when that article holds its words (staysOn) — "is there a fee" after
  // leaving a contract early had got the holding fee's card (fresh12's student accommodation).
  // Not "what are your prices": the account's own, its price list's (a review).
  const priceOfRead = onlyPrice && !ACCOUNTS_OWN.test(fold(asked));
  const sureOfSubject = aloneChoice.kind === "one" && !(priceOfRead && reading !== undefined);
  if (!leans && (reading === undefined || sureOfSubject)) return { ...lone, why: aloneChoice.kind === "one" ? "sure" : "nothing_read" };
  // Naming nothing after nothing read (the fallback, or a question no more named than it): of nothing.
  if (nothingNamed && (reading ?? last.read) === undefined) return lone;
  const earlier = earlierOf(last);
  const question: Question = { text, context: earlier.join("\n") };
  const together = await rank(question);
  if (!together || together === "busy") return lone;
  // Taken when it offers something, and not when the choice lists it only because an article
  // behind a best that is no answer is one ("behind"): that would pull the follow-up to a best that
  // does not answer (a question of its own holding "them" went to the subscription article it held 27 % of).
  // Leaning, asking only what it costs after an article that shows a price, ranked close to the best
  // with the question before: that article, alone — the follower asks the price of what they read
  // ("多少钱" after the account-opening list had got the water-price article alone, on its keyword
  // 一吨多少钱; the reading together, led by the opening article showing 380元, was not sure of it: a
  // water company's walkthrough).
  // The article the follower reads, to lead a follow-up asking of it (not a tag's list's first: its order is the operator's).
  const leading = ledRead(last);
  const priced = onlyPrice ? leading : undefined;
  const itsPrice = priced === undefined || !leans ? undefined : together.articles.find((a) => a.id === priced && PRICE.test(a.passage ?? ""));
  if (itsPrice && (together.articles[0] as RankedArticle).score * READING.pickedClose <= itsPrice.score) return { how: "followup", question, asked: spoken(text, earlier), ranked: { ...together, articles: [itsPrice] } };
  // Asking only how long or what time ("要多久", "几点钟", "how long?"), naming nothing: of the article
  // the follower reads, when the passage the reading together shows of it says so — whatever the
  // reading together makes of it, as the price above. The third message of 开小卖部要办什么证 →
  // 多少钱 → 要多久 had got the criminal-record certificate's card, taught "开无犯罪记录要多久", or
  // the fallback: the licence's words were two messages back (a service centre's walkthrough).
  const timed = leans && frameOnly(asked) ? together.articles.find((a) => a.id === (leading ?? last.read) && answersFrame(asked, a.passage ?? "")) : undefined;
  if (timed) return { how: "followup", question, asked: spoken(text, earlier), ranked: { ...together, articles: [timed] }, sure: true };
  const taken = choose(together.articles);
  if (taken.kind === "none" || (taken.kind === "list" && taken.why === "behind")) return { ...lone, why: "unsure" };
  const stays = leans ? "yes" : staysOn(together, taken.kind, reading as string, alone.ranked, aloneChoice.kind);
  if (stays === "no") return { ...lone, why: "unheld" };
  // The follower's own words name an article in its head ("and sleep?" after the period
  // tracking question, "科目二呢" after 科目一): the conversation moves there, where the earlier
  // question's words would pull it back.
  // Not when the reading together already leads with an article whose head names them as much
  // (金卡会员有什么权益, then 那办理费用呢: both cards' fee articles name 办理费用; the question before says which).
  // A word of theirs, not a character: 要多少钱 names no article by the 钱 of a title's 停车多少钱.
  // A message that does not lean moves there too when the article read before names them as much:
  // it is a question of its own ("how do I apply?" after the deadlines article, whose head says "application").
  // Leaning, named as much by two heads, it names none of them ("and the van?": the van rates and
  // the van licences, after taking the car to Ireland — a car hire's walkthrough; no set moved).
  // Nor does a head name it by the message's frame words alone (多久 of a keyword: namesBeyondFrame).
  const first = alone.ranked.articles[0];
  // Nor by a price word alone ("is there a fee": the head of "Holding fee" names no subject asked).
  const named = !priceOfRead && alone.ranked.terms.some((t) => isWord(t.term)) && !(leans && alone.ranked.articles.slice(1).some((a) => first && a.headCoverage >= first.headCoverage)) && first !== undefined && namesBeyondFrame(asked, alone.ranked.terms, first) ? first : undefined;
  const led = together.articles[0];
  const ledHead = alone.ranked.articles.find((a) => a.id === led?.id)?.headCoverage ?? 0;
  // Not either when the reading together is sure of the article the follower reads: its body holds
  // their words, with the question before ("is it free?" after the car park, whose body says so, had
  // gone to the free-treatment article; "家人也能代办吗" after the SIM's replacement, to family plans).
  // Session 36: the follow-up set 0.796 → 0.801, the fresh one 0.510 → 0.521, those two alone moving.
  // Sure or not when a few words ask of the thing read by a pronoun as their subject ("is it free?"
  // after the study rooms' card had got the free Wi-Fi article and events: a walkthrough).
  // After help or a rule's reply forgot the list, a message that leans (one that does not has stood
  // alone above) is about the article read before it (Turn.read).
  const read = reading ?? last.read;
  const kept = led !== undefined && led.id === read && (taken.kind === "one" || asksOfItAlone(asked));
  // Nor when what names it is the message taught to it, word for word, and the message is a few
  // leaning words: the teaching, not a subject (要带什么 taught to the claims, after the annual inspection: questions.ts).
  // Nor when its words are a question's frame about the thing read by a pronoun ("how long does that
  // take" after transferring a prescription had moved to the article whose title asks "how long do
  // you hold it": the pharmacy's walkthrough) — the frame names no subject, and the article read
  // leads when the reading together ranks it close (sameSubject below).
  const framed = asksOfItByFrame(asked);
  if (named && !kept && !continues && !framed && !(leansFewWords(text) && taughtOnly(asked, named, alone.ranked.articles, together.articles.find((a) => a.id === (reading ?? last.read)))) && named.headCoverage >= READING.namesAnother && (named.headCoverage > ledHead || (!leans && named.id !== led?.id))) return { ...alone, moved: true };
  // The entry picked from the list is what the follower reads now: the follow-up is about it when
  // the reading together ranks it close (多少钱一针 after 第二个 had picked the cat's vaccines: the
  // dog's came first on its body's 一针 — a pet hospital's walkthrough). So is the article read when
  // the message asks only what it costs and that article shows a price ("多少钱" after the children's
  // swimming course's card had got the ticket prices first: a swimming pool's walkthrough).
  // The article sent, or the first of a list the ranking made — not of a tag's or a rule's list,
  // whose order is the operator's, not the question's (a tag's list then "多少钱" had put its first
  // course first: a review). So is the article read when the message continues the question before
  // ("for a 2 year old" after the cupcake party boxes had put first the classes, whose taught
  // question "classes for a 4 year old" holds its words: a bakery's walkthrough, Session 44).
  const entry = last.shown.length ? lastPicked(last) : undefined;
  // Led only because the operator taught those very few leaning words to it (三室的呢 taught to the
  // daily cleaning, after the deep cleaning's price: a housekeeping company's walkthrough), the
  // reading together is no surer of it: the article read first, however far behind.
  const taughtLead = leading !== undefined && led !== undefined && led.id !== leading && leans && fewWords(asked, FOLLOW_UP_WORDS.han, FOLLOW_UP_WORDS.latin) && taughtOnly(asked, led, together.articles, together.articles.find((a) => a.id === leading));
  // Another kind named by what sets it apart, not when the reading together leads with an article
  // whose head names it (外地的呢 after 本地医保: 外地医保); words continuing the question name a
  // circumstance, whatever head holds them (an operator's phrasing "classes for a 4 year old").
  const sameSubject = continues || (asksOfVariant(asked) && ledHead < READING.namesAnother) || taughtLead || framed;
  const chosen = entry ?? priced ?? (sameSubject ? leading : undefined);
  const it = chosen === undefined || led?.id === chosen ? undefined : together.articles.find((a) => a.id === chosen && (chosen === entry || (sameSubject && chosen === leading) || PRICE.test(a.passage ?? "")));
  // Continuing words lead with the article read however far behind it ranks: "and on android?" after
  // connecting a bank had the mobile app's article, keyworded android, at twice its score (a
  // bookkeeping app's walkthrough; no set moved).
  const ranked = it && led && (taughtLead || (continues && chosen === leading) || it.score >= led.score * READING.pickedClose) ? { ...together, articles: [it, ...together.articles.filter((a) => a !== it)] } : together;
  return { how: "followup", question, asked: spoken(text, earlier), ranked, ...(stays === "listed" ? { listed: true as const } : {}) };
}

export { READING };
