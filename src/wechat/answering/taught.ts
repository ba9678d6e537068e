/**
 * A follower's message that is one of an article's questions, as taught (replyd teach, questions+=):
 * that article alone, whatever the ranking's lead. The operator said which article answers these
 * words; the ranking may still find a neighbour close behind ("how much deposit" ranks the rental
 * article first, the cancellation one near it) and list both, where the teach promised the article.
 * Only the words as taught, in any case, white space and the ends' punctuation and symbols aside: a
 * paraphrase is the ranking's to read. Two articles taught the same words: the one the ranking puts
 * first. Logged as the ranking's one article (`answer:<id>`, margin 0: no close call).
 *
 * A question taught to an article deleted since gets the fallback and waits in the inbox, not the
 * neighbour the ranking finds without it: the operator removed the answer those words were given,
 * and is the one to say where they go now (teach them anew, or `rm --purge` the article to leave
 * them to the ranking).
 */
import { withoutOpening } from "../../ranking/courtesy.ts";
import { memoized } from "../../ranking/memo.ts";
import { askedForms, taughtForm } from "../../ranking/taught-form.ts";
import { withoutNumber } from "../../ranking/passages.ts";
import type { RankedArticle } from "../../ranking/types.ts";
import type { ArticleReads } from "../../store/read-model.ts";

/** Taught questions as compared. */
const formOf = memoized(20_000, taughtForm);

/**
 * A message as taught: to a ranked (live) article — one of its questions, its title, or one of its
 * keywords ("退票" of the refund article: it had got a list of three, an airline's walkthrough) — or
 * to one deleted since.
 * `by` "title": the message is the article's title, or the question it opens with ("Where is the
 * school? Address and directions" for "where is the school"), no other article's: a follower who types what the
 * account titled an article means that article (a language school's walkthrough: "How to pay",
 * the exact title, got a list of three; "where is the school" an article about transfers to the school first).
 */
export type Taught = { article: RankedArticle; by: "question" | "title" | "keyword" | "heading"; as: string } | { deleted: string };

/**
 * A title as compared: whole, and its question when it opens with one ("Where is the school?
 * Address and directions": "where is the school"). Not a part at a colon, which names a category as
 * often ("签证：F-1申请流程", "FAQ: …": "签证" alone would be sent that article, a review), nor at a
 * dash or a bar, which on the web set a site's name off a page's title (DuReader's pages "银耳和什么
 * 搭配最好 - 三九养生堂" were sent alone so, answering neither question: its held-out half 0.583 → 0.573).
 */
function titleForms(title: string): string[] {
  const asked = /^[^?？]+[?？]/.exec(title)?.[0];
  const question = asked && asked.length < title.trim().length ? formOf(asked) : "";
  return [formOf(title), ...([...question].length >= 2 ? [question] : [])];
}

/**
 * What the operator taught `text` to, or null. The ranking's articles are live ones and carry their
 * questions (ranking/rank.ts): a taught question's article is among them, its head holding every
 * word of the message; the first of them in the ranking's order. Else a deleted article's, looked
 * up by the read model (store/model/deleted-questions.ts). Else the one article titled so, else
 * the one holding it as a keyword (two alike: the ranking's to choose). `as`: that question, title or
 * keyword as the article holds it ("金卡" for 金卡呢), what the operator would take from it.
 */
export function taughtOf(text: string, ranked: readonly RankedArticle[], articles: Pick<ArticleReads, "deletedTaught">): Taught | null {
  for (const asked of askedForms(text, withoutOpening(text))) {
    const taught = taughtAs(asked, ranked, articles);
    if (taught) return taught;
  }
  return null;
}

/** What the operator taught a message of taught form `asked` to, or null. */
function taughtAs(asked: string, ranked: readonly RankedArticle[], articles: Pick<ArticleReads, "deletedTaught">): Taught | null {
  for (const candidate of ranked) {
    const question = candidate.questions.find((q) => formOf(q) === asked);
    if (question !== undefined) return { article: candidate, by: "question", as: question };
  }
  const deleted = articles.deletedTaught(asked);
  if (deleted !== null) return { deleted };
  const titled = ranked.filter((candidate) => titleForms(candidate.title).includes(asked));
  if (titled.length) return titled.length === 1 ? { article: titled[0] as RankedArticle, by: "title", as: (titled[0] as RankedArticle).title } : null;
  const keyworded = ranked.filter((candidate) => candidate.keywords.some((k) => formOf(k) === asked));
  if (keyworded.length > 1) return null;
  if (keyworded.length === 1) {
    const article = keyworded[0] as RankedArticle;
    return { article, by: "keyword", as: article.keywords.find((k) => formOf(k) === asked) as string };
  }
  // A question the article's body asks as a heading of its own ("When is rent due?" over the
  // paragraph that answers it), no other ranked article's: a letting agency's "when is rent due" had
  // got a list of three, the rent article first (a walkthrough, Session 51). Among the passages the
  // ranking read best, as the ranking found them.
  let headed: { article: RankedArticle; line: string } | null = null;
  for (const candidate of ranked) {
    const line = candidate.passages.flatMap((p) => askedLines(p.text)).find((l) => formOf(l) === asked);
    if (line === undefined) continue;
    if (headed) return null;
    headed = { article: candidate, line };
  }
  return headed ? { article: headed.article, by: "heading", as: headed.line } : null;
}

/**
 * A passage's lines that ask a question as a heading does: one short line ending on a question mark,
 * without the number or "Q:" an FAQ lists it by ("1. When is rent due?", "二、房租什么时候交？", "Q: …", "问：…": a review).
 */
const askedLines = (text: string): string[] =>
  text
    .split("\n")
    .map((l) => withoutNumber(l.trim()).replace(ASKED_LABEL, ""))
    .filter((l) => ASKED_LINE.test(l));
const ASKED_LINE = /^[^\n?？]{2,80}[?？]$/u;
const ASKED_LABEL = /^(?:q|question|问|问题)\s*[:：.、]\s*/iu;
