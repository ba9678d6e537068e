/**
 * Words another live article answers already — taught to it, its title or one of its keywords —, as
 * a follower sending them would be answered (wechat/answering/taught.ts): `replyd teach` refuses
 * them (answered_by_another), and `set questions+=` and `add` say so, where they had taken them
 * unsaid — two articles then held one question, and the follower got whichever the ranking put
 * first (a bookkeeping app's walkthrough: "how to delete a customer" added to the invoices article,
 * taught to the customers' already).
 */
import type { RankedArticle, Ranking } from "../ranking/types.ts";
import { shellWord } from "../base/shell-word.ts";
import { taughtOf } from "../wechat/answering/taught.ts";
import { namesTitle, titleForm } from "../ranking/names.ts";
import type { AppContext } from "./context.ts";

/** The articles the ranking finds for `text`, as for a follower's message; null when it is busy or fails (the checks that read them are then skipped). */
export async function rankedFor(ctx: AppContext, text: string): Promise<RankedArticle[] | null> {
  return (await rankingFor(ctx, text))?.articles ?? null;
}

/** The ranking of `text` as a follower sending it would be ranked: its articles and the terms some article holds; null when busy or none. */
export async function rankingFor(ctx: AppContext, text: string): Promise<Ranking | null> {
  const ranking = await ctx.read.searcher.rank({ text });
  return ranking && ranking !== "busy" ? ranking : null;
}

/** The live article other than `id` that `text` is taught to, titled or a keyword of, as a follower sending it would be answered. */
export function answeredByAnother(ctx: AppContext, text: string, ranked: readonly RankedArticle[], id: string): { id: string; by: "question" | "title" | "keyword"; as: string } | null {
  const t = taughtOf(text, ranked, ctx.read.articles);
  // A heading in another article's body is no operator's word on these words: teaching them takes them there (taught questions come first).
  return t && "article" in t && t.article.id !== id && t.by !== "heading" ? { id: t.article.id, by: t.by, as: t.as } : null;
}

/** Questions a write added to each its own ranking, at most: what saying so may cost. */
export const ELSEWHERE_CHECKED = 10;

/** Of `added`, the questions of article `id` another live article answers already: said beside the write. */
export async function taughtElsewhereWarnings(ctx: AppContext, id: string, added: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  for (const q of added.slice(0, ELSEWHERE_CHECKED)) {
    // This article left out: it holds the words too, once added.
    const ranked = (await rankedFor(ctx, q).catch(() => null))?.filter((a) => a.id !== id);
    const other = ranked && answeredByAnother(ctx, q, ranked, id);
    if (!other) continue;
    const what = other.by === "question" ? `"${other.as}", a question taught to` : other.by === "title" ? "the title of" : `"${other.as}", a keyword of`;
    const take = other.by === "title" ? `retitle "${other.id}" (replyd set ${other.id} title=…)` : `take it from "${other.id}" (replyd set ${other.id} ${other.by === "keyword" ? "keywords" : "questions"}-=${shellWord(other.as)})`;
    out.push(`${id}'s question ${JSON.stringify(q.slice(0, 40))} is ${what} article "${other.id}": followers sending it may get that article instead — to answer it with "${id}", ${take}`);
  }
  return out;
}

/** Other articles' titles and keywords a taught question writes out, at most: what is said. */
export const NAMED_SHOWN = 3;

/**
 * The titles and keywords of other ranked articles that `text`, taught to `id`, writes out whole —
 * and `id`'s own head does not: taught, the question lends them to `id`, and followers asking of
 * those things may get it ("can i get spss matlab and office on my mac" taught to Office sent "matlab
 * on my mac" to Office before the MATLAB article, keyworded matlab, unsaid: a service desk's walkthrough).
 */
export function namesOthers(text: string, ranked: readonly RankedArticle[], id: string): { id: string; as: string }[] {
  const q = titleForm(text);
  const own = ranked.find((a) => a.id === id);
  const ownNames = (w: string) => !!own && (titleForm(own.title) === titleForm(w) || own.keywords.some((k) => titleForm(k) === titleForm(w)));
  const out: { id: string; as: string }[] = [];
  for (const a of ranked) {
    if (a.id === id) continue;
    const named = [a.title, ...a.keywords].find((w) => [...titleForm(w)].length >= 2 && namesTitle(q, w) && !ownNames(w));
    if (named !== undefined) out.push({ id: a.id, as: named });
    if (out.length >= NAMED_SHOWN) break;
  }
  return out;
}
