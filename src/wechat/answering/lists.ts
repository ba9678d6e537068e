/**
 * The text lists a follower is sent that no ranking made (docs/wechat.md §3): help with the tags,
 * a tag's articles, a rule's articles when more than a reply may carry — each a code a line, and
 * what it listed, kept as the follower's turn to pick from (responder.ts `movedOn`).
 */
import type { ArticleSummary } from "../../article/article.ts";
import { RESERVED_CODES } from "../../article/text-rules.ts";
import type { ReadModel } from "../../store/read-model.ts";
import { truncateUtf8 } from "../../base/utf8.ts";
import { MAX_TEXT_BYTES } from "../door/message.ts";
import type { Decision } from "./decision.ts";
import { RULE_LIMITS, type Tags } from "../../doc/rule.ts";
import { folded } from "../../ranking/words.ts";
import { withoutEnd } from "./end-marks.ts";

/** What asks for help (docs/wechat.md §3, 2.): the codes reserved for it, and a full-width question mark. */
export const HELP_WORDS = new Set([...RESERVED_CODES, "？"]);
/** A tag's articles read for its list at most (as many lines as fit in one text reply are shown, then how many more). */
export const TAG_LISTED = 100;

/**
 * Why followers sending a tag never get its list (help and codes are answered before tags), or null
 * when they do: the help text leaves such a tag out, and the operator is warned (server/write-warnings.ts).
 */
export function tagShadowed(tag: string, articles: Pick<ReadModel["articles"], "getLiveByCode">, description?: string): string | null {
  // Its description still lists it (tagDescribed); help, which shows the key, leaves it out.
  const listed = description?.trim() ? `is listed to followers only by its description "${description.trim().slice(0, 40)}" (help leaves it out)` : "is never listed to followers";
  if (HELP_WORDS.has(tag)) return `tag "${tag}" ${listed}: sending "${tag}" gets the help text; give the tag another name`;
  const holder = articles.getLiveByCode(tag);
  return holder ? `tag "${tag}" ${listed}: "${tag}" is the code of article "${holder.id}", which they get instead; give the tag or the code another name` : null;
}

/**
 * Whether a tag's key is shown to followers beside its description: not beside one in Chinese, which
 * followers send to list it as they read it — a tag's key is Latin ([a-z0-9]), and a Chinese
 * account's residents had been shown "干洗 (gx)" and "gx — 干洗" (a parcel chain's walkthrough).
 * Beside a Latin description it is the short word to send.
 */
const keyShown = (description: string | undefined): boolean => !description?.trim() || !HAN.test(description);
const HAN = /\p{Script=Han}/u;

/** A text list of articles, and what it listed (Decision `listed`). */
export interface ArticleList {
  text: string;
  listed: NonNullable<Decision["listed"]>;
}

/** h, help: the operator's help text, then each tag followers can have listed, its description and count. */
export function helpText(store: ReadModel, help: string): string {
  const counts = store.articles.tagCounts();
  const described = store.content.tags();
  const tags = [...new Set([...Object.keys(described), ...counts.keys()])].filter((t) => (counts.get(t) ?? 0) > 0 && !tagShadowed(t, store.articles)).sort();
  const lines = tags.map((t) => `${keyShown(described[t]) ? `${t} — ` : ""}${described[t] ?? t} (${counts.get(t)})`);
  return truncateUtf8(lines.length ? `${help}\n\n${lines.join("\n")}` : help, MAX_TEXT_BYTES);
}

/**
 * The tag whose description the follower sent as it is ("门店" for the tag `store` described 门店),
 * read as an exact rule reads a message (case, width, traditional characters, a phone's end mark):
 * help lists a tag by its key and description, and a Chinese account's followers send the
 * description — it had been ranked (门店 got 如何预约 and 洗吹价格: a salon's walkthrough, Session 51),
 * unless the operator had written a rule for it. A description two tags share names neither.
 */
export function tagDescribed(store: ReadModel, text: string): string | null {
  const tags = store.content.tags();
  let keys = DESCRIBED.get(tags);
  if (!keys) {
    keys = new Map();
    for (const [tag, description] of Object.entries(tags)) {
      const k = folded(description.trim());
      if (k) keys.set(k, [...(keys.get(k) ?? []), tag]);
    }
    DESCRIBED.set(tags, keys);
  }
  // A description is at most 128 characters: a longer message is none, and is not folded for it.
  if (!keys.size || text.length > 2 * RULE_LIMITS.tagDescription) return null;
  const lower = folded(text.trim());
  const named = keys.get(lower) ?? keys.get(withoutEnd(lower));
  // Of the tags so described, those with live articles: a description a renamed tag left behind
  // (a merge keeps it: data.md) does not hide the live tag that took it over (a review).
  const counts = store.articles.tagCounts();
  const live = named?.filter((t) => (counts.get(t) ?? 0) > 0) ?? [];
  return live.length === 1 ? (live[0] as string) : null;
}
/** Each tag set's descriptions as read (tagDescribed), kept while the store hands out the same one. */
const DESCRIBED = new WeakMap<Tags, Map<string, string[]>>();

/** A tag's live articles as a list; null when it has none. */
export function tagList(store: ReadModel, tag: string): ArticleList | null {
  const articles = store.articles.byTag(tag, TAG_LISTED);
  if (!articles.length) return null;
  return articleList(store, articles, tag);
}

/**
 * As many `code  title` lines as fit in one text reply, then how many were left out (of the tag's
 * live articles, or of `articles`); `listed`, what was listed, about the tag's description (or
 * `about`: what the follower sent for a rule's).
 */
export function articleList(store: ReadModel, articles: ArticleSummary[], tag: string | null, about = ""): ArticleList {
  const described = tag ? store.content.tags()[tag] : undefined;
  const total = (tag !== null ? store.articles.tagCounts().get(tag) : undefined) ?? articles.length;
  // A tag's list is headed by its description, in the account's words; a rule's by nothing, as a ranked
  // list: a fixed English heading ("Send a code to read the article:") had stood over a Chinese account's
  // list, with no setting to change it (a pet hospital's walkthrough). Its entries say what to send.
  const lines = tag ? [`${described ?? tag}${keyShown(described) ? ` (${tag})` : ""}:`] : [];
  const ids: string[] = [];
  let bytes = Buffer.byteLength(lines[0] ?? "");
  for (const a of articles) {
    // An article without a code cannot be sent for: its link instead, which the follower can open, or "第二个".
    const line = a.code ? `${a.code}  ${a.title}` : `·  ${a.title}  ${a.url}`;
    bytes += Buffer.byteLength(line) + 1;
    if (bytes > MAX_TEXT_BYTES - 40) break;
    lines.push(line);
    ids.push(a.id);
  }
  // How many more, in figures: it reads the same in any language ("… and 5 more" had been English to every account).
  if (ids.length < total) lines.push(`… +${total - ids.length}`);
  return { text: lines.join("\n"), listed: { about: tag ? (described ?? tag) : about, ids } };
}
