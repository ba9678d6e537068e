/**
 * What `replyd teach` refuses as leaning on the question before it (docs/answers.md "Teaching"):
 * words that, taught, would send their article alone to every follower sending them, whatever they
 * had asked. Each rule is its own predicate, so that the teach refuses by them and, beside a
 * phrasing taught with --as, says whether the message's own words would be refused (`message_leans`:
 * the client offers no teach of them then — a salon's operator was told to teach the message itself,
 * and was refused).
 */
import { asksOfItAlone, fewWords, FOLLOW_UP_WORDS, followsOn, leansOnBefore, namesByPronoun } from "../ranking/cues.ts";
import { continuesQuestion } from "../ranking/continuation.ts";
import { choose } from "../ranking/choice.ts";
import { fold } from "../ranking/fold.ts";
import { asksOnlyPrice } from "../ranking/price.ts";
import type { RankedArticle, Ranking } from "../ranking/types.ts";
import { placesOf, termsOf } from "../ranking/words.ts";
import { frameOnly } from "../ranking/asks-frame.ts";
import { isWord } from "../ranking/score.ts";

/** Whether there is a charge, of something unnamed: "is there a fee?", "are there any extra charges", "do you charge?". */
const WHETHER_CHARGED = /\b(?:is|are) there (?:a|an|any|extra|additional)\b|\bcharge\W*$/;
const HAN = /\p{Script=Han}/u;

/**
 * "要多少钱", "那中班呢", "and on sundays?": a follow-up that names its subject only with the question
 * before it — a few words opening on "那" or "and", or asking only what it costs as the reading leans
 * so ("how much?"; in Chinese any such message, 贵吗 and 收费吗 too: reading.ts). Taught, every
 * follower sending it would get that article alone, whatever they had asked (a service hall's
 * 要多少钱, taught to the card's replacement, answered the flexible-employment fee question's
 * follow-up with the card's fee: a walkthrough). The operator's phrasing names it. Not a short
 * question of its own that opens on a question word ("几点开门", "能开发票吗": a review), which
 * followers ask as it is. Asking only whether there is a charge names nothing either, though it does
 * not lean ("is there a charge", taught to the exchanges, answered every follower sending it after
 * any question with them: a theatre's walkthrough); "what are your fees" asks of the account's.
 */
export function followUpOnly(text: string): boolean {
  const onlyPrice = asksOnlyPrice(text, termsOf(text).map((term) => ({ term })));
  return (leansOnBefore(text) && followsOn(text) && fewWords(text)) || (onlyPrice && (leansOnBefore(text) || HAN.test(text) || WHETHER_CHARGED.test(fold(text))));
}

/**
 * Only what to bring (要带啥, 需要带什么东西, "what do i need to bring?"): it names nothing it is for,
 * and is the commonest follow-up at a counter. Taught from the inbox — where it lands when the card
 * before it says 所需材料, not 带 —, every follower asking what to bring for anything got that
 * article (要带啥 taught to the social-insurance transfer, then asked after the senior card and the
 * residence permit: a service centre's walkthrough). Not made a frame of the ranking's: read in a
 * conversation, 带 at a frame's weight cost the tenth fresh set's questions of their own asked after
 * another a point.
 */
function bringOnly(text: string): boolean {
  const terms = termsOf(text);
  return terms.length > 0 && termsOf(text.normalize("NFKC").replace(BRING, " ")).length === 0;
}
const BRING = /(?:要|需要|得)?[带帶](?:[什甚][么麼麽]|啥|哪些)(?:东西|東西)?|\bwhat (?:do|should|will) (?:i|we|you) (?:need to |have to )?bring\b|\bwhat to bring\b/giu;

/** Only a question's frame (how long, how much, when: asks-frame.ts) or what to bring: naming nothing it asks of — what teach refuses, set and add warn of, and the report does not offer to teach. */
export const namesNothing = (text: string): boolean => frameOnly(text) || bringOnly(text);

/**
 * A few words whose subject is only a pronoun for what was read, whose own words single out no
 * article ("is it free?", "does it need booking", 这个要预约吗): taught, "is it free?" answered every
 * follower with the safety check, after the classes' card too (a bike shop's walkthrough). Not
 * when the words name one article by themselves: "is it open today?" is the hours' (a review).
 */
export const ofItAlone = (text: string, ranked: readonly RankedArticle[]): boolean => asksOfItAlone(text) && choose(ranked).kind !== "one";

/**
 * A short message naming what it asks of only by a pronoun ("can I book it?" after the parking
 * card, "what time does it close", "where do i pick it up") whose words alone do not send this
 * article: taught, every follower sending it got that article alone, whatever they had asked
 * about (three walkthroughs: "can I book it?" then answered the rooms' follow-up with the parking
 * card). A pronoun, not how the callback read the message: "周一开门吗", read with 那周末呢 before it
 * because the article read held its words, is a question of its own, and teaching it is how the
 * operator puts right the list it got (a walkthrough); nor a question opening on a question word
 * or a modal, which Chinese asks without its subject (几点关门, 能开发票吗: a review); nor a longer
 * message, which names its need itself ("And how do I get my money back if it arrives broken?" after
 * delivery, to the returns).
 */
export const byPronoun = (text: string, ranked: readonly RankedArticle[], id: string): boolean => namesByPronoun(text) && (short(text) || fewOwnWords(text)) && !singlesOut(ranked, id);

/**
 * A longer English message whose own words are two at most: the rest are the frame's ("what age do
 * they have to be": age), and the pronoun says what it is about — taught after the mascots' question,
 * it answered a question about the academy's trials with the mascots (a football club's walkthrough,
 * Session 52). Not Chinese, whose characters and pairs are each a term.
 */
const fewOwnWords = (text: string) => !HAN.test(text) && new Set(termsOf(text)).size <= 2 && !namedAfterPreposition(text);

/**
 * A dummy "it" ("is it cash only at the bar", "it's quiet in the library?") with a word of its own
 * after a preposition: the place names what the message is about, the "it" stands for nothing
 * (refused, and then said to make sense only after a question, which it followed none of: a
 * theatre's walkthrough). Only so: "how much does it cost for a child", "can i bring it with me to
 * the show" still ask of what was read (a review), and "what age do they have to be" names nothing.
 */
const DUMMY_IT = /^(?:is|was|will|would) it\b|^it(?:'s| is|s)\b/;
const AFTER_PREPOSITION = /\b(?:at|in|on|for|from|of|to|with|about|near|inside|outside|behind)\s+(?:(?:the|a|an|your|our|my|this|that)\s+)?([\p{L}\p{N}]+)/gu;
const namedAfterPreposition = (text: string) => DUMMY_IT.test(fold(text).trim()) && [...fold(text).matchAll(AFTER_PREPOSITION)].some((m) => termsOf(m[1] as string).length > 0);

/**
 * A few words the callback read with the question before them (`readWith`: 晚上呢 after the dog
 * bites, "what about if im on benefits" after the sofa's collection, 要打几针 after the HPV vaccine,
 * "do we have to pay upfront" after group bookings), or that continue the follower's question just
 * before them however they were read (`continuing`: "just for one day" after a friend's access,
 * read alone), or lean on it, an article offered for it (`continuing` too: 会过期吗 after 多少积分抵一块钱,
 * 券呢 after 拼团失败了钱退吗 — read alone when nothing was sure read together; taught with a note
 * until 0.2.29, and an operator clearing the inbox read past it: a grocery's walkthrough), whose
 * words alone do not send this article: taught, the next follower sending them after any question
 * got this article alone (five walkthroughs: 晚上呢 then answered a question about Saturday's hours
 * with the dog bites, "just for one day" a van's hire with the access article).
 * Longer than the rule above reads them (six Latin words); however they open — a question of its own
 * opening on a question word (几点关门, read with 周末呢 before it) is the operator's to say so, with
 * --as and the same words.
 */
export const leaningShort = (text: string, ranked: readonly RankedArticle[], id: string, how: { readWith: boolean; afterQuestion: boolean }): boolean =>
  short(text) && !singlesOut(ranked, id) && (how.readWith || (how.afterQuestion && (continuesQuestion(text) || leansOnBefore(text))));

const short = (text: string) => fewWords(text, FOLLOW_UP_WORDS.han, FOLLOW_UP_WORDS.latin);

/**
 * A few words sent just after the follower's question that offers this very article (`offeredBefore`:
 * as it was answered, or as it is now, taught since), naming no word of its title or keywords and
 * nothing the account's articles do not hold, whose words alone do not send it: 怎么操作 after 卡能停吗 got the freeze
 * article, "do i still pay" after a broken bike's report — words of the account's, asking of that
 * article only through the question before them, read alone or not. Taught, every follower sending
 * them after any question got this article alone (two walkthroughs, Session 57: 怎么操作 then answered
 * a class booking's follow-up with the freeze article). Taught: a question naming the article's
 * subject ("营业时间是几点" after 周末开吗, the hours' title), and one naming a thing no article holds
 * ("any concessions", "the chain came off" after the prices or a broken bike: what teaching is for —
 * a review found them refused). Others are the operator's to say so, with --as and the same words.
 */
export const afterItsArticle = (text: string, ranking: Pick<Ranking, "articles" | "terms">, article: { id: string; title: string; keywords: readonly string[] }, offeredBefore: boolean): boolean =>
  offeredBefore && short(text) && !singlesOut(ranking.articles, article.id) && !namesHead(text, article) && !namesUnheld(text, ranking);

/**
 * A place of `text` (words.ts placesOf: a Latin word, or a Han character with its pairs) no term of
 * which any article holds: a thing the account's words do not name yet. Not a Han pair alone — one
 * straddling two words (课冻 of 团课冻结) is held nowhere, its characters are.
 */
function namesUnheld(text: string, ranking: Pick<Ranking, "terms">): boolean {
  const held = new Set(ranking.terms.map((t) => t.term));
  return placesOf(text).some((p) => !held.has(p.term) && !p.by.some((b) => held.has(b)));
}

/** A word of `text` (a pair or a Latin word, not a character) is in the article's title or keywords. */
function namesHead(text: string, article: { title: string; keywords: readonly string[] }): boolean {
  const head = new Set(termsOf([article.title, ...article.keywords].join("\n")));
  return termsOf(text).some((t) => isWord(t) && head.has(t));
}

/** The ranking sends `id` alone for these words. */
export function singlesOut(ranked: readonly RankedArticle[], id: string): boolean {
  const c = choose(ranked);
  return c.kind === "one" && c.article.id === id;
}

/** Whether teaching `text` itself to `id` would be refused as leaning on the question before it (each rule above). */
export const leansAsSent = (text: string, ranking: Pick<Ranking, "articles" | "terms">, article: { id: string; title: string; keywords: readonly string[] }, how: { readWith: boolean; afterQuestion: boolean; offeredBefore: boolean }): boolean =>
  followUpOnly(text) || namesNothing(text) || ofItAlone(text, ranking.articles) || byPronoun(text, ranking.articles, article.id) || leaningShort(text, ranking.articles, article.id, how) || afterItsArticle(text, ranking, article, how.offeredBefore);
