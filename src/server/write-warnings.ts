/**
 * What a write is answered with beside its counts: the read model's rules checked against its
 * articles and tags (src/doc/rule-targets.ts), its tags against what followers can reach, and a
 * document another account's backup.
 */
import type { Article } from "../article/article.ts";
import type { Rule } from "../doc/rule.ts";
import { ruleTargetWarnings } from "../doc/rule-targets.ts";
import { HAN_CODE_CHARS, MAX_CODE_CHARS, tellsToSend, TOLD_THEN } from "../ranking/told-codes.ts";
import { termsOf } from "../ranking/words.ts";
import { followUpOnly, namesNothing } from "./teach-leaning.ts";
import { asksOfItAlone } from "../ranking/cues.ts";
import { tagShadowed } from "../wechat/answering/lists.ts";
import { declaredName, type AppContext } from "./context.ts";
import { namedItems, type Dropped } from "../store/writer.ts";

export function ruleWarnings(ctx: AppContext, rules: readonly Rule[] = ctx.read.content.rules()): string[] {
  if (!rules.length) return [];
  const tags = ctx.read.articles.tagCounts();
  return ruleTargetWarnings(rules, { article: (id) => ctx.read.articles.get(id), tagged: (tag) => tags.get(tag) ?? 0 });
}

/**
 * Tags of live articles that followers can never have listed (a help word, an article's code), and
 * descriptions of tags no live article carries (a tag renamed in the file: the old one's description
 * stays, and travels in backups); `only`: those tags alone.
 */
export function tagWarnings(ctx: AppContext, only?: readonly (string | null | undefined)[]): string[] {
  const out: string[] = [];
  const asked = only && new Set(only.filter((t): t is string => !!t).map((t) => t.toLowerCase()));
  const counts = ctx.read.articles.tagCounts();
  for (const [tag, n] of counts) {
    if (asked && !asked.has(tag)) continue;
    const why = n > 0 ? tagShadowed(tag, ctx.read.articles, ctx.read.content.tags()[tag]) : null;
    if (why) out.push(why);
  }
  if (!asked)
    for (const tag of Object.keys(ctx.read.content.tags()))
      if (!counts.get(tag.toLowerCase())) out.push(`tag "${tag}" has a description but no live article carries it (renamed?): a merge import (not --init) whose "tags" give it null drops it ("tags": {"${tag}": null} in your file's tags)`);
  return out.sort();
}

/**
 * Questions of `a` that hold no word the ranking reads ("where are you": where, are and you are
 * filler and stop words): a taught question is found among the articles the ranking finds for the
 * message (wechat/answering/taught.ts), and for these it finds none, so they answer nobody — said
 * where they are set (replyd set questions+=…, add), with what answers such words: a rule. `replyd
 * teach` refuses them (not_a_question).
 */
export function wordlessQuestionWarnings(a: Pick<Article, "id" | "questions">): string[] {
  const wordless = a.questions.filter((q) => !termsOf(q).length);
  if (!wordless.length) return [];
  const many = wordless.length > 1;
  return [`${questionsOf(a.id, wordless)} hold${many ? "" : "s"} no word the ranking reads (only words such as "where", "are", "you", 在, 吗): no follower's message finds the article by ${many ? "them" : "it"} — answer those words with an exact rule (replyd import rules.json)`];
}

/**
 * Keywords that hold no word the ranking reads ("how much": how and much are filler): a keyword is
 * ranked as the title is, and these are nothing to it — a bike share's prices article keyworded
 * "how much" was imported unsaid, and "how much is it" got the fallback (a walkthrough, Session 57).
 * Of the articles given: one added or set, or an import's records, when it holds at most
 * WORDLESS_SCAN_MAX (a bulk load's million is not read a second time for it).
 */
export function wordlessKeywordWarnings(articles: Iterable<{ id?: string; keywords?: readonly string[] }>): string[] {
  const wordless: string[] = [];
  for (const a of articles) for (const k of a.keywords ?? []) if (!termsOf(k).length) wordless.push(`${a.id ?? "(new)"}'s ${JSON.stringify(k.slice(0, 40))}`);
  if (!wordless.length) return [];
  const many = wordless.length > 1;
  const listed = wordless.slice(0, 5).join(", ") + (wordless.length > 5 ? ` and ${wordless.length - 5} more` : "");
  return [`keyword${many ? "s" : ""} ${listed} hold${many ? "" : "s"} no word the ranking reads (only words such as "how", "much", "where", 在, 吗): no follower's message finds the article by ${many ? "them" : "it"} — its title and other keywords still do; after an article, such words are read with it (a rule matching them would come first and answer "how much" after every article alike: a review)`];
}
export const WORDLESS_SCAN_MAX = 10_000;

/** `id's question "a"`, `id's questions "a", "b", "c" and 2 more`: the first three, each cut to 40 characters. */
function questionsOf(id: string, questions: readonly string[]): string {
  const quoted = questions.slice(0, 3).map((q) => JSON.stringify(q.slice(0, 40))).join(", ");
  return `${id}'s question${questions.length > 1 ? "s" : ""} ${quoted}${questions.length > 3 ? ` and ${questions.length - 3} more` : ""}`;
}

/**
 * Phrases of a document's synonym groups that hold no word the ranking reads ("how much": how and
 * much are filler): accepted, as doc/synonyms.ts says why, and said — a football club's operator
 * imported ["how much", "price", "cost"] and saw "6 added", while no follower's "how much" ever met
 * the group (a walkthrough, Session 52).
 */
export function wordlessSynonymWarnings(groups: readonly (readonly string[])[] | undefined): string[] {
  const wordless = (groups ?? []).flatMap((g, i) => g.filter((p) => !termsOf(p).length).map((p) => `${JSON.stringify(p.slice(0, 40))} (group ${i})`));
  if (!wordless.length) return [];
  const listed = wordless.slice(0, 5).join(", ") + (wordless.length > 5 ? ` and ${wordless.length - 5} more` : "");
  return [`synonym phrase${wordless.length > 1 ? "s" : ""} ${listed} hold${wordless.length > 1 ? "" : "s"} no word the ranking reads (only words such as "how", "much", "where", 在, 吗): ${wordless.length > 1 ? "they match" : "it matches"} nothing — the phrases of a group that hold a word still do; a rule answers such words (replyd import rules.json)`];
}

/**
 * Questions of `a` that name nothing they ask about — a follow-up's few words (要多少钱, "and on
 * sundays?"), only how long or when ("how long"), a pronoun's few words ("is it free?"): `replyd teach`
 * refuses them (teach-leaning.ts), and `set questions+=`, `add` took them unsaid, after which every
 * follower sending them got this article alone, whatever they had asked (an airport's walkthrough:
 * "is it free?" added to the flight information, Session 52). Said where they are set.
 */
export function leaningQuestionWarnings(a: Pick<Article, "id" | "questions">): string[] {
  const leaning = a.questions.filter((q) => termsOf(q).length > 0 && (followUpOnly(q) || namesNothing(q) || asksOfItAlone(q)));
  if (!leaning.length) return [];
  const many = leaning.length > 1;
  return [`${questionsOf(a.id, leaning)} name${many ? "" : "s"} nothing ${many ? "they ask" : "it asks"} about (a follow-up's few words, only how long, how much or what to bring, or a pronoun): every follower sending ${many ? "them" : "it"} gets this article alone, whatever they had asked before — give a phrasing that names the thing (replyd set ${a.id} questions-=… questions+=…)`];
}

/** A backup another account's data was taken of (document.ts `account`): restored or imported as asked, and said, as copying an account is allowed. */
export function accountWarnings(ctx: AppContext, of: string | undefined, done: "restored" | "imported"): string[] {
  if (of === undefined || of === ctx.account) return [];
  // A server without [accounts] names its one account "default"; a declared account may be called that too.
  const into = declaredName(ctx);
  return [`the document is a backup of account ${of}; it was ${done} into ${into === null ? "this server's one account" : `account ${into}`}`];
}

/**
 * What still points at an article just deleted: rules answering with it (or with its tag, no live
 * article carrying it now) are passed over, so followers sending their words get whatever answers
 * next; a welcome or help text telling followers to send its code ("回复3", "reply 3") sends them to
 * the fallback. Said by `replyd rm`, where it happens (a walkthrough's operator found the rule
 * dead only from health, and the welcome still said "回复 3 晚托介绍").
 */
export function deletedWarnings(ctx: AppContext, a: Pick<Article, "id" | "code" | "tag">): string[] {
  const rules = ctx.read.content.rules().filter((r) => (r.reply.type === "articles" && r.reply.ids.includes(a.id)) || (r.reply.type === "tag" && a.tag !== null && r.reply.tag === a.tag));
  const out = ruleWarnings(ctx, rules);
  if (a.code) {
    const texts = ctx.read.content.texts();
    for (const key of TOLD_TEXTS)
      if (tellsToSend(texts[key] ?? "", a.code)) out.push(`the ${key} text tells followers to send "${a.code}", the code of ${a.id}: they now get ${whatTheyGet(ctx, a.code)} — edit the text (replyd import texts.json), or give the code to another article`);
  }
  return out;
}

/** What a follower sending a code no article has gets (wechat.md §3): a number is no question — an article whose title or keywords hold it, else the not_found text; a word is ranked as one. */
const whatTheyGet = (ctx: AppContext, code: string) =>
  /^\d+$/.test(code.normalize("NFKC"))
    ? // Said as it is: the not_found text once written (a B&B's operator had been told of the fallback's words after writing it).
      `the not_found text${ctx.read.content.texts().not_found ? "" : " (your fallback's words while it is unwritten)"}, or an article whose title or keywords hold the number`
    : "what the ranking finds for it, or the fallback";

/** The welcome and help texts: what followers are told to send. */
export const TOLD_TEXTS = ["welcome", "help"] as const;

/**
 * The live codes the welcome or help text tells followers to send, before a write that may remove
 * them (an import, a restore): what stands right after 回复 / reply (any code: 回复【缴费】, each of
 * its beginnings when no mark ends it, 回复缴费查看), or any word of the text with a digit in it,
 * that a live article has as its code.
 */
export function toldCodes(ctx: AppContext): Set<string> {
  const texts = ctx.read.content.texts();
  const out = new Set<string>();
  for (const key of TOLD_TEXTS) {
    const text = texts[key] ?? "";
    // A Latin run is one word; a Han run may go on into the text after the code (回复缴费查看): its beginnings, up to HAN_CODE_CHARS.
    const after = toldRuns(text).flatMap((chars) => (/\p{Script=Han}/u.test(chars[0] as string) ? chars.slice(0, HAN_CODE_CHARS).map((_, i) => chars.slice(0, i + 1).join("")) : [chars.join("")]));
    const digits = text.match(/[a-z0-9]*\d[a-z0-9]*/giu) ?? [];
    // The lookup first: a code no live article has needs no pattern built.
    for (const code of [...after, ...digits.slice(0, 64)]) if (ctx.read.articles.getLiveByCode(code) && tellsToSend(text, code)) out.add(code);
  }
  return out;
}

/** What stands right after 回复 / reply in `text`, each a run of letters and digits or of another script's characters ("回复1查看" tells 1, "回复【缴费】" 缴费), at most 32 of them. */
function toldRuns(text: string): string[][] {
  return [...text.matchAll(new RegExp(`${TOLD_THEN}([a-z0-9]{1,${MAX_CODE_CHARS}}|[^\\s\\p{P}a-z0-9]{1,${MAX_CODE_CHARS}})`, "giu"))].slice(0, 32).map((m) => [...(m[1] as string)]);
}

/**
 * Codes `before` (toldCodes) that the welcome or help text still tells followers to send and no
 * live article has since the write: `replyd import --init` of another file had removed the articles
 * a welcome's 回复1…6 named and said nothing, where `replyd rm` warns (two walkthroughs).
 */
export function toldCodeWarnings(ctx: AppContext, before: ReadonlySet<string>): string[] {
  const texts = ctx.read.content.texts();
  const out: string[] = [];
  for (const code of before)
    for (const key of TOLD_TEXTS)
      if (tellsToSend(texts[key] ?? "", code) && !ctx.read.articles.getLiveByCode(code))
        out.push(`the ${key} text tells followers to send "${code}", and no article has that code now: they get ${whatTheyGet(ctx, code)} — edit the text (replyd import texts.json), or give the code to an article`);
  return out;
}

/**
 * The numbers the welcome or help text tells followers to send right after 回复 / reply ("回复3",
 * "reply 3"), that no live article has as its code: health says so for as long as it lasts, where
 * the warnings of rm, an import and a restore said it once (a service hall's operator saw the rule
 * warnings stay in health, and the welcome's dead codes nowhere).
 */
export function deadToldCodes(ctx: AppContext): string[] {
  const texts = ctx.read.content.texts();
  const out: string[] = [];
  for (const key of TOLD_TEXTS) {
    const numbers = toldRuns(texts[key] ?? "").map((chars) => chars.join("")).filter((run) => /^\d{1,8}$/.test(run));
    for (const code of new Set(numbers))
      if (!ctx.read.articles.getLiveByCode(code)) out.push(`the ${key} text tells followers to send "${code}", and no article has that code: they get ${whatTheyGet(ctx, code)} — edit the text, or give the code to an article`);
  }
  return out;
}

/**
 * The articles an import kept questions of that their records do not list (store/writer.ts
 * ImportOptions): taught on the server, as a rule, which the file does not know. A warning, so that
 * a client before 0.2.26 — which asks nothing of it, knows no `questions_kept` and prints the
 * warnings — says it too: its operator expects a record's list to replace the article's.
 */
export function keptQuestionsWarnings(kept: Dropped | undefined): string[] {
  if (!kept?.count) return [];
  return [
    `${kept.count} article${kept.count === 1 ? "" : "s"} kept questions ${kept.count === 1 ? "its record does" : "their records do"} not list (${namedItems(kept)}), after the file's: taught on the server (replyd teach, questions+=), or taken out of the file since? to keep them, put them in the file; to drop them, replyd set ID "questions-=…", or import with --replace-questions (replyd 0.2.26 on)`,
  ];
}

/**
 * Tags live articles carry that no description names, after an import: followers' help lists each by
 * the tag itself ("xd — xd (4)", "venue — venue (1)") and a tag's list opens with it — three
 * walkthroughs' operators found out from the followers' side (a sheet's 分类 column gives articles
 * tags, and no sheet can describe them). Said by the import that may have brought them, only.
 */
export function undescribedTagWarnings(ctx: AppContext): string[] {
  const described = new Set(Object.keys(ctx.read.content.tags()).map((t) => t.toLowerCase()));
  const undescribed = [...ctx.read.articles.tagCounts()].filter(([tag, n]) => n > 0 && !described.has(tag)).map(([tag]) => tag);
  if (!undescribed.length) return [];
  const many = undescribed.length > 1;
  const named = undescribed.slice(0, 10).map((t) => JSON.stringify(t)).join(", ") + (undescribed.length > 10 ? ` and ${undescribed.length - 10} more` : "");
  return [
    `tag${many ? "s" : ""} ${named} ${many ? "have" : "has"} no description: followers' help lists ${many ? "them" : "it"} by the tag itself — describe ${many ? "them" : "it"} in a document's "tags" ({"format": "replyd/1", "matter": "articles", "articles": [], "tags": {${JSON.stringify(undescribed[0])}: "…"}}, imported: a CSV cannot)`,
  ];
}

/**
 * Rules stored that a merged document's rules section does not list: kept, and still answering —
 * a service desk's operator replaced two rules by one in the file, imported it, and the one left out
 * went on answering, unsaid (a walkthrough). Said with what drops them. Nothing for a document
 * without rules, which says nothing of them.
 */
export function keptRulesWarnings(ctx: AppContext, listed: readonly Rule[] | undefined): string[] {
  if (!listed) return [];
  const named = new Set(listed.map((r) => r.id));
  const kept = ctx.read.content.rules().filter((r) => !named.has(r.id)).map((r) => r.id);
  if (!kept.length) return [];
  const shown = kept.slice(0, 5).join(", ") + (kept.length > 5 ? ` and ${kept.length - 5} more` : "");
  return [`${kept.length} stored rule${kept.length > 1 ? "s" : ""} the file does not list ${kept.length > 1 ? "are" : "is"} kept and still answer${kept.length > 1 ? "" : "s"}: ${shown} (an import merges rules by id; replyd rules lists them; replyd restore --matter rules FILE makes the file's the only ones)`];
}
