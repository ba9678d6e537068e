/**
 * GET /api/cli?inbox=unmatched|lists|all|ai (an admin key's: the door checked it): the message log, newest
 * first, each follower message with whether they can be answered now, the question a "换一个" asked
 * another answer to, the entry a follower picked from the list their question got, and — of those
 * nothing answered, or answered with a list — what the ranking answers now when that changed
 * (docs/protocol.md).
 */
import { askedAnotherOf, asksAnotherIn } from "./asked-another.ts";
import { gotList, pickedFrom } from "./picked.ts";
import { badRequest } from "../base/errors.ts";
import { declaredName, type AppContext } from "./context.ts";
import type { Fields } from "./fields.ts";
import { answeredNow, offeredIn } from "./answered-now.ts";
import type { LoggedMessage, ReplyWindow } from "../store/follower-log.ts";
import { readingPrefix, unprefixed } from "../store/log-kinds.ts";

/** The answers the ranking gave, or nothing did: what it answers now is said beside them. */
const RANKED = new Set(["answer", "answers", "fallback", "not_found"]);

/** "Another" messages of a page whose question is looked up (each a few reads of the log), and lists whose pick is. */
const ANOTHERS_NAMED = 50;

export async function inbox(ctx: AppContext, f: Fields) {
  const which = f.get("inbox");
  if (which !== "unmatched" && which !== "lists" && which !== "all" && which !== "ai") throw badRequest('"inbox" must be unmatched, lists, all or ai');
  const limit = f.int("limit", 1, 1000, 50);
  const offset = f.int("offset", 0, Number.MAX_SAFE_INTEGER, 0);
  // The model's calls (docs/answers.md "What is logged"), whether or not a model is configured now.
  if (which === "ai") return { ...(await ctx.write.generated.list({ limit, offset })), limit, offset, account: declaredName(ctx) };
  const page = await ctx.write.log.list({ only: which === "all" ? null : which, limit, offset });
  // Whether each follower can still be answered, worked out once per follower on the page.
  const now = ctx.clock.now();
  const windows = new Map<string, ReplyWindow>();
  for (const m of page.items) if (m.direction === "in" && !windows.has(m.from_user)) windows.set(m.from_user, await ctx.write.log.window(m.from_user, now));
  // "换一个" names the question it asked another answer to: what replyd teach teaches for it (the first ANOTHERS_NAMED of a page).
  const askedOf = new Map<number, LoggedMessage & { seq: number }>();
  for (const m of page.items.filter(asksAnotherIn).slice(0, ANOTHERS_NAMED)) {
    const q = await askedAnotherOf(ctx.write.log, m);
    if (q) askedOf.set(m.seq, q);
  }
  // The entry the follower picked from a list ("第二个"): what answered them, to teach (the first ANOTHERS_NAMED lists of a page).
  const picked = new Map<number, { seq: number; article: string }>();
  for (const m of page.items.filter((m) => m.direction === "in" && gotList(m)).slice(0, ANOTHERS_NAMED)) {
    const p = await pickedFrom(ctx.write.log, m);
    if (p) picked.set(m.seq, p);
  }
  // What nothing answered then that the ranking answers now (taught since): said beside it. For
  // "换一个", its question's answer now when it is not the one the follower turned down (its
  // question taught since: the entry had stayed another:not_found, a walkthrough).
  // Of every message (--all), those the ranking answered or nothing did: what a code, a tag, help or a
  // rule sent is no ranking's to say again (a wedding venue's operator could not confirm a mend there).
  const eligible = (m: LoggedMessage) => which !== "all" || RANKED.has(unprefixed(m.answer).split(":")[0] as string);
  const texts = page.items.flatMap((m) => (m.direction === "in" && m.content && (m.type === "text" || m.type === "voice") && eligible(m) ? [m.content] : []));
  const answered = await answeredNow(ctx, [...texts, ...[...askedOf.values()].flatMap((q) => (q.content ? [q.content] : []))]);
  const items = page.items.map((m) => {
    if (m.direction !== "in") return m;
    const asked = askedOf.get(m.seq);
    const now = asked?.content ? answered.get(asked.content) : undefined;
    // Not an article the follower turned down: the first offered now, one of those offered then.
    const since = asked ? (now !== undefined && !offeredIn(asked.answer).includes(offeredIn(now)[0] as string) ? now : undefined) : m.content && eligible(m) ? answered.get(m.content) : undefined;
    // A list's question answered as it was is not news: only what changed since (taught, a rule, articles edited).
    // Nor what the ranking makes of a follow-up's words alone: it was read with the question before,
    // as answeredNow does not read it — only a rule, which reads no conversation, is said (a review:
    // 周末呢 after 营业到几点 had said "→ now answers:parking,vouchers", nothing changed).
    const unchanged = since !== undefined && !asked && (since === unprefixed(m.answer) || (readingPrefix(m.answer) === "followup:" && !since.startsWith("rule:")));
    const pick = picked.get(m.seq);
    const also = pick ? { picked: pick } : {};
    if (unchanged) return { ...m, reply_window: windows.get(m.from_user), ...also };
    return { ...m, reply_window: windows.get(m.from_user), ...(since ? { answered_now: since } : {}), ...(asked !== undefined ? { asked_of: asked.seq } : {}), ...also };
  });
  // Without the platform (no AppSecret) nothing can be sent: the windows say when it could be, not that it can.
  return { items, total: page.total, limit, offset, reply_limit: ctx.write.log.replyLimit, platform_configured: !!ctx.platform, account: declaredName(ctx) };
}
