/**
 * What a follower is offered, from the ranked articles (docs/answers.md "What followers get"): one
 * article when the ranking is sure — the best scores at least `lead` times the second —, else the
 * relevant ones among the first three (also when the best is no answer and the second is), or the
 * fallback text when neither the best nor the second is relevant. A best scored close only by
 * articles that are none relevant goes alone too: nothing to confuse it with. Relevant: the share of the question the article holds,
 * plus `headCredit` times the share its head alone holds (an article about what is asked names it
 * in its title, keywords or questions; one that only mentions the words in passing does not).
 * The thresholds were chosen on the tuning halves of the evaluation sets (bench/answers-tune.ts;
 * docs/performance.md, Sessions 18, 21 and 23): the lead keeps single wrong articles on our FAQ
 * accounts at 3–4 %; the bar trades refusals of questions no article answers against right
 * answers, and the head's part moved that trade (on our FAQ accounts, all questions: right first
 * 0.676 → 0.697 Chinese, 0.719 → 0.741 English, refused 52 % → 52 % and 41 % → 53 %).
 */
/** What choosing reads of a ranked article. */
export interface Scored {
  score: number;
  /** The share of the question it holds (score.ts): every word of the question counts, those no article holds too. */
  coverage: number;
  /** The share its head alone holds (score.ts). */
  headCoverage: number;
  /** It holds a word of the question (a pair, a Latin word, or three of its characters), not only a character or two (score.ts). */
  word: boolean;
}

/** Tunable by bench/answers-tune.ts; nothing else changes them. */
export const ANSWERS: { minCoverage: number; minHeld: number; listCoverage: number; headCredit: number; lead: number; listed: number; listShare: number; aloneAmongIrrelevant: number; headOrder: number } = {
  /** The best article less relevant than this (the share it holds, and headCredit times its head's) is no answer: the fallback. */
  minCoverage: 0.4,
  /**
   * …and holding less than this share of the question, whatever its head, is no answer either: a
   * title naming one word of a question ("订单查询" for 订单退款什么时候到账: 17 % of it, all in the head)
   * does not make the article its answer. 0.2 refused one more question no article answers on the
   * tuning halves and changed nothing else.
   */
  minHeld: 0.2,
  /** Another article is listed beside it only if it is at least this relevant. */
  listCoverage: 0.15,
  /** How much the share the head alone holds adds to the share an article holds, in telling an answer from none. */
  headCredit: 2,
  /** The best article is offered alone when its score is at least this many times the second's. */
  lead: 2,
  /** At most this many articles in a list. */
  listed: 3,
  /** A list holds the relevant articles scoring at least this share of the best's. */
  listShare: 0.2,
  /**
   * 1: an answer whose close runners-up are none (no word of the question, or too little of it) is
   * sent alone; 0: it gets the fallback as not sure. Session 31: 1 answered one more question on the
   * tuning halves and sent no wrong article alone on any set.
   */
  aloneAmongIrrelevant: 1,
  /**
   * A list of a question read alone in Latin letters is ordered by score × (1 + headOrder × the
   * share of the question the head holds) — the article titled for what is asked first ("lost my
   * card and it had $40 on it, can i get that back": "Lost or stolen Loop card" behind "Autoload", which
   * says "card" and "$" more). Session 39, chosen on the tuning halves (0.25 / 0.5 / 0.75 / 1: our
   * English FAQ first 0.788 / 0.803 / 0.803 / 0.803, the Debian FAQ 0.552 / 0.566 / 0.572 / 0.559,
   * NQ 0.807 / 0.809 / 0.807 / 0.802). Not in Chinese, where a title's pair of an everyday verb
   * (绑定, 办卡) named the question as often as its subject did: our Chinese FAQ lost a right first
   * on the tuning half and two held out, at every weight. Nor for a follow-up, whose head share
   * counts the earlier question's words and pulled it back ("and my student email?" after the
   * password question). 0: the score's order.
   */
  headOrder: 0.75,
};

/**
 * `margin`, of an article offered alone: the best runner-up that could be listed, its score over the
 * article's (0: none) — how close the choice came to a list (from 1 / lead): the report's close
 * calls (store/log-kinds.ts CLOSE_MARGIN).
 */
export type Choice<T extends Scored> =
  | { kind: "none"; why?: NoneWhy }
  | { kind: "one"; article: T; margin: number; why?: OneWhy }
  | { kind: "list"; articles: T[]; why?: ListWhy };

/** Why one article, when not for being `lead` times ahead: those scoring close to it are none of them relevant ("unrivalled"). */
export type OneWhy = "unrivalled";
/** Why a list: the best not far enough ahead of the next ("close"), or no answer itself with the one behind it an answer ("behind"). */
export type ListWhy = "close" | "behind";
/** Why nothing: neither the best nor the one behind it is an answer ("no_answer"), or the best is one but not sure and nothing else is relevant ("unsure"). */
export type NoneWhy = "no_answer" | "unsure";

// Sharing a character or two ("天" in 七天 and 天气) is no relevance (score.ts `word`: a pair, a Latin word or three characters).
const relevant = (a: Scored, share: number) => a.word && a.coverage + ANSWERS.headCredit * a.headCoverage >= share;

/** Relevant enough to be an answer: to be offered first, or at all when the article before it is not. */
const isAnswer = (a: Scored | undefined): boolean => !!a && a.score > 0 && a.coverage >= ANSWERS.minHeld && relevant(a, ANSWERS.minCoverage);

/**
 * Whether a list is ordered by how much of the question each head names (ANSWERS.headOrder): a
 * question read alone, in Latin letters more than Chinese characters (a trailing 谢 or a place's
 * name does not make an English question Chinese; Cyrillic or Hangul were not measured).
 */
export const ordersByHead = (q: { text: string; context?: string }): boolean => q.context === undefined && count(q.text, LATIN) > count(q.text, HAN);

const LATIN = /\p{Script=Latin}/gu;
const HAN = /\p{Script=Han}/gu;
const count = (text: string, script: RegExp) => text.match(script)?.length ?? 0;

/** `list` reordered when `byHead` (ANSWERS.headOrder says why). */
const listOrder = <T extends Scored>(list: T[], byHead: boolean): T[] => {
  if (!byHead || !ANSWERS.headOrder) return list;
  const key = (a: T) => a.score * (1 + ANSWERS.headOrder * a.headCoverage);
  return [...list].sort((a, b) => key(b) - key(a));
};

/** `ranked` best first; `byHead`: a list is ordered by what the heads name too (ordersByHead). */
export function choose<T extends Scored>(ranked: readonly T[], byHead = false): Choice<T> {
  const best = ranked[0];
  const second = ranked[1];
  if (!best || best.score <= 0) return { kind: "none", why: "no_answer" };
  // Beside the best in a list: relevant enough, and not far below it.
  const listable = (a: T) => a.score >= best.score * ANSWERS.listShare && relevant(a, ANSWERS.listCoverage);
  if (!isAnswer(best)) {
    // The best is no answer but the one just behind it is: the score and the relevance disagree,
    // so the ranking is not sure which — a list of the first three, as when the best is not far
    // ahead (科目一考过了 成绩能保留多久: the right article scored best holding 35 % of the
    // question; the next held more and named 成绩 in its head). The second is listed however far
    // below the best it scores; the best and the third as any list's others.
    if (!isAnswer(second)) return { kind: "none", why: "no_answer" };
    const listed = ranked.slice(0, ANSWERS.listed).filter((a) => a === second || listable(a));
    // A list of one would be one article sent without the ranking sure of it.
    return listed.length > 1 ? { kind: "list", articles: listed, why: "behind" } : { kind: "none", why: "no_answer" };
  }
  // How close the best runner-up that could be listed came, however far down it ranks: the report's close calls.
  const rival = ranked.slice(1).find((a) => relevant(a, ANSWERS.listCoverage));
  const margin = (rival?.score ?? 0) / best.score;
  if (!second || second.score * ANSWERS.lead <= best.score) return { kind: "one", article: best, margin };
  const others = ranked.slice(1, ANSWERS.listed).filter(listable);
  if (others.length) return { kind: "list", articles: listOrder([best, ...others], byHead), why: "close" };
  // Close only to articles that are no answer, sharing a character or two ("AppSecret忘了在哪看": the
  // download article held 忘 and 看, the API-key article 59 % of the question in its head): nothing
  // it could be confused with, so it goes alone — the fallback it got had hidden the one answer.
  // Not when a relevant article further down scores close too: then the best is not sure (the
  // fallback), as when ANSWERS.aloneAmongIrrelevant is off.
  // Nor when its head holds none of the question: an article naming the question's subject only in
  // passing is no answer sure enough to go alone — "会所几点开门", the clubhouse's article deleted, had
  // got the pets article, sure, for its "犬只不得进入…会所" (a residential compound's walkthrough; no
  // evaluation set moved, Session 38).
  const unrivalled = ANSWERS.aloneAmongIrrelevant && !(rival && rival.score * ANSWERS.lead > best.score) && best.headCoverage > 0;
  return unrivalled ? { kind: "one", article: best, margin, why: "unrivalled" } : { kind: "none", why: "unsure" };
}
