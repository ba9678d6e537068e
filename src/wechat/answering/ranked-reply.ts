/**
 * A ranked answer as the follower sees it (docs/answers.md "What followers get"): the article
 * alone as a news reply whose description is the passage that answers, or a text listing up to
 * three articles, each its title, its passage cut down around the sentence that matched, and its
 * link, within the platform's 2,048 bytes. No heading: the list reads the same in any language.
 */
import type { Choice } from "../../ranking/choice.ts";
import type { RankedArticle } from "../../ranking/types.ts";
import { truncateUtf8 } from "../../base/utf8.ts";
import type { ArticleSummary } from "../../article/article.ts";
import { cardDescription, NEWS_DESCRIPTION_BYTES } from "../../article/card-description.ts";
import { MAX_TEXT_BYTES, type NewsItem, type Reply } from "../door/message.ts";


/**
 * An article as a news reply's item: its title, description, picture and link. An article written
 * with a body and no description (most are) shows its body's opening instead, as a ranked answer
 * shows its passage: a card of a title alone says nothing on a phone. A listing's summaries have no
 * body and keep the description as it is.
 */
export const news = (a: ArticleSummary & { body?: string }): NewsItem => ({
  title: a.title,
  description: cardDescription(a),
  picurl: a.picurl,
  url: a.url,
});

/**
 * How the log names a choice that offers something (store/log-kinds.ts): answer:<id> alone,
 * answers:<id>,<id>… a list — a list of one ("another" with one article left) as the card it is sent as.
 */
export function loggedAnswer(choice: Exclude<Choice<RankedArticle>, { kind: "none" }>): string {
  const ids = choice.kind === "one" ? [choice.article.id] : choice.articles.map((a) => a.id);
  return ids.length === 1 ? `answer:${ids[0]}` : `answers:${ids.join(",")}`;
}

/** `labels`: each list entry's (entryLabels); numbers from 1 without them. */
export function answerReply(choice: Exclude<Choice<RankedArticle>, { kind: "none" }>, labels?: readonly string[]): Reply {
  if (choice.kind === "list" && choice.articles.length > 1) return { type: "text", content: listText(choice.articles, labels) };
  // A list of one ("another" with one article left) reads as a card, not as "1." with nothing after it.
  const a = choice.kind === "one" ? choice.article : (choice.articles[0] as RankedArticle);
  const description = truncateUtf8(afterTitle(a.passage ?? a.description, a), NEWS_DESCRIPTION_BYTES);
  return { type: "news", articles: [{ title: a.title, description, picurl: a.picurl, url: a.url }] };
}

/** A code this long at most labels a list's entry; a longer one reads as no label. */
export const LABEL_CODE_CHARS = 8;

/**
 * How a list's entries are labelled: by the articles' codes when every one has a short one — the
 * follower sends what they read, and a number among them ("回复3") is the code it is everywhere, so
 * a list cannot hide the account's own numbering — else 1, 2, 3, which a number sent next picks
 * (docs/answers.md "Follow-ups").
 */
export function entryLabels(ids: readonly string[], codeOf: (id: string) => string | null | undefined): string[] {
  const codes = ids.map(codeOf);
  return codes.every((c): c is string => typeof c === "string" && c.length <= LABEL_CODE_CHARS) ? codes : ids.map((_, i) => String(i + 1));
}

/** Labels that are 1, 2, 3 in order (numbers, or codes that are those numbers): the list reads as numbered, and a number sent next picks from it. */
export const numberedLabels = (labels: readonly string[]): boolean => labels.every((l, i) => l === String(i + 1));

/**
 * What an article's passage says after its title: a body that opens with its title (an <h2> the
 * CMS repeats) showed it twice, "1. 营业时间 营业时间 …", and a card's description as its title again.
 * The description when nothing is left; the passage as it is when that is empty too.
 */
export function afterTitle(passage: string, a: { title: string; description: string }): string {
  const title = a.title.trim();
  const text = passage.trim();
  // A heading: the title on a line of its own ("Parking is free" under the title "Park" is running text).
  if (!title || !text.startsWith(title) || !/^[ \t]*(\n|$)/.test(text.slice(title.length))) return passage;
  const rest = text.slice(title.length).trim();
  return rest || (a.description.trim() && a.description.trim() !== title ? a.description : passage);
}

/** A list entry's excerpt on one line: its line breaks (and the spaces around them) as one space. */
const oneLine = (text: string): string => text.replace(/[ \t]*\n[\s]*/g, " ").trim();

/**
 * Labelled entries: "1. title" numbered without `labels`, "3  title" by codes (as help and a tag's
 * list show them: "3." read as the third of a list missing the first two); when they do not fit,
 * every excerpt is cut by the same share until they do.
 */
export function listText(articles: readonly RankedArticle[], labels?: readonly string[]): string {
  const numbered = !labels || numberedLabels(labels);
  // Each excerpt one line: a passage's own numbered steps ("1. 疫苗本…", "2. 以前的病历…") at a line's
  // start had read as more entries of the list (a pet hospital's walkthrough).
  const excerpts = articles.map((a) => oneLine(a.excerpt === null ? a.description : afterTitle(a.excerpt, a)));
  const entry = (a: RankedArticle, i: number, excerptBytes: number) => {
    const lines = [numbered ? `${i + 1}. ${a.title}` : `${labels[i]}  ${a.title}`];
    const excerpt = excerpts[i];
    if (excerpt && excerptBytes > 0) lines.push(truncateUtf8(excerpt, excerptBytes));
    lines.push(a.url);
    return lines.join("\n");
  };
  let room = Math.max(...excerpts.map((e) => Buffer.byteLength(e)), 0);
  for (;;) {
    const text = articles.map((a, i) => entry(a, i, room)).join("\n\n");
    if (Buffer.byteLength(text) <= MAX_TEXT_BYTES || room <= 0) return truncateUtf8(text, MAX_TEXT_BYTES);
    room = Math.floor(room * 0.85) - 3;
  }
}
