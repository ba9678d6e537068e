/**
 * What a teach changed for other followers' questions (docs/answers.md "Teaching"): the account's
 * recent questions the ranking answered alone, asked again before and after the question is taught,
 * those the taught article now comes first for that it did not before. A taught question's everyday
 * word pulls others ("how old" taught to the children's lessons brought them to "how old is the
 * pool"; 打针 taught to a vaccine, to every 打针 question: two walkthroughs), and the operator,
 * told nothing, learned it only from the followers.
 * Bounded: the newest TEACH_MOVES.entries of the log, at most TEACH_MOVES.texts texts, each pass
 * within TEACH_MOVES.ms; what the time leaves out is not said to have moved.
 */
import { taughtForm } from "../ranking/taught-form.ts";
import { unprefixed } from "../store/log-kinds.ts";
import { firstOffered, offeredNow } from "./answered-now.ts";
import type { AppContext } from "./context.ts";
import type { Choice } from "../ranking/choice.ts";
import type { RankedArticle } from "../ranking/types.ts";

export const TEACH_MOVES = {
  /** Log entries read, newest first (replies among them). */
  entries: 500,
  /** Distinct texts asked again. */
  texts: 100,
  /** Time for each pass (before and after), in ms. */
  ms: 1500,
  /** Moved questions listed (all are counted). */
  listed: 5,
};

/** The recent questions asked again before a change, each with its log entry and the first article it was offered (null: the fallback), and whether alone. */
export type FirstsBefore = Map<string, { seq: number; first: string | null; alone: boolean }>;

/** A question of the log the taught article now comes first for: `was` the first article offered before (null: nothing, the fallback). */
export interface MovedQuestion {
  seq: number;
  text: string;
  was: string | null;
  /** Now sent alone, or first of a list (a walkthrough's operator could not tell). */
  alone: boolean;
}

/** Before the teach is written: the recent questions ranked alone and what each is offered first now, `taught` and the message taught left out. */
export async function beforeTeaching(ctx: Pick<AppContext, "clock" | "read" | "write">, taught: string, seqs: readonly number[]): Promise<FirstsBefore> {
  const items = await ctx.write.log.newest(TEACH_MOVES.entries);
  const taughtAs = taughtForm(taught);
  const texts: FirstsBefore = new Map();
  const until = ctx.clock.monotonic() + TEACH_MOVES.ms;
  for (const m of items) {
    if (texts.size >= TEACH_MOVES.texts || ctx.clock.monotonic() > until) break;
    if (m.direction !== "in" || (m.type !== "text" && m.type !== "voice") || !m.content || seqs.includes(m.seq) || texts.has(m.content)) continue;
    // Read alone and answered by the ranking (an article, a list, or nothing): what a follower
    // sending it alone gets, as asked again here. Not a follow-up, read with what came before it.
    const kind = m.answer.split(":")[0];
    if (unprefixed(m.answer) !== m.answer || !(kind === "answer" || kind === "answers" || kind === "fallback" || kind === "not_found")) continue;
    if (taughtForm(m.content) === taughtAs) continue;
    const c = await offeredNow(ctx, m.content);
    if (c) texts.set(m.content, { seq: m.seq, first: firstOffered(c), alone: c.kind === "one" });
  }
  return texts;
}

/**
 * The questions of `before` that `keep` (their first article then) selects, asked again now within
 * TEACH_MOVES.ms: what each is offered now. One not asked again (late, busy, failed) is left out —
 * not said to have moved.
 */
async function askedAgain(ctx: Pick<AppContext, "clock" | "read">, before: FirstsBefore, keep: (first: string | null) => boolean) {
  const again: { seq: number; text: string; was: string | null; wasAlone: boolean; now: Choice<RankedArticle> }[] = [];
  const until = ctx.clock.monotonic() + TEACH_MOVES.ms;
  for (const [text, b] of before) {
    if (ctx.clock.monotonic() > until) break;
    if (!keep(b.first)) continue;
    const now = await offeredNow(ctx, text);
    if (now) again.push({ seq: b.seq, text, was: b.first, wasAlone: b.alone, now });
  }
  return again;
}

/**
 * A question of the log that was sent an article alone, and now gets a list with `id` behind that
 * article: the follower who had a card gets a choice. Said beside what moved, which had named only
 * the questions the article now comes first for (Session 45's walkthroughs left this unsaid).
 */
export interface ListedBeside {
  seq: number;
  text: string;
  /** The article it was sent alone, now first of the list. */
  first: string;
}

/** After the teach is written: the questions of `before` that `id` now comes first for, and those sent another article alone that now list `id` behind it; newest first. */
export async function movedTo(ctx: Pick<AppContext, "clock" | "read">, id: string, before: FirstsBefore): Promise<{ moved: MovedQuestion[]; beside: ListedBeside[] }> {
  const again = await askedAgain(ctx, before, (first) => first !== id);
  const moved = again.filter((q) => firstOffered(q.now) === id).map((q) => ({ seq: q.seq, text: q.text, was: q.was, alone: q.now.kind === "one" }));
  const beside = again
    .filter((q) => q.wasAlone && q.was !== null && q.now.kind === "list" && q.now.articles[0]?.id === q.was && q.now.articles.some((a) => a.id === id))
    .map((q) => ({ seq: q.seq, text: q.text, first: q.was as string }));
  return { moved, beside };
}

/** A question of the log `id` no longer comes first for: `now` the first article offered now (null: nothing, the fallback). */
export interface LeftQuestion {
  seq: number;
  text: string;
  now: string | null;
}

/**
 * After a question or keyword is taken from `id` (`set ID questions-=…`): the questions of `before`
 * it came first for that it no longer does, newest first — the other side of what a teach moves
 * (a housekeeping company's operator took a question back and could not tell what went where).
 */
export async function movedFrom(ctx: Pick<AppContext, "clock" | "read">, id: string, before: FirstsBefore): Promise<LeftQuestion[]> {
  return (await askedAgain(ctx, before, (first) => first === id)).filter((q) => firstOffered(q.now) !== id).map((q) => ({ seq: q.seq, text: q.text, now: firstOffered(q.now) }));
}

/** What moved, as the admin API answers it: the first TEACH_MOVES.listed of each, and how many. */
export const movedJson = (m: { moved: MovedQuestion[]; beside: ListedBeside[] }) => ({
  moved: m.moved.slice(0, TEACH_MOVES.listed),
  moved_count: m.moved.length,
  listed_beside: m.beside.slice(0, TEACH_MOVES.listed),
  listed_beside_count: m.beside.length,
});
