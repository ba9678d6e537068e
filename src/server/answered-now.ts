/**
 * What a follower's text nothing answered when it came gets now, asked again alone: a rule made since
 * (exact, prefix, contains, regex), else what the ranking offers — taught since (replyd teach: the taught
 * article alone, as followers get it), or its articles changed. Shown beside it by the report's questions
 * nothing answered and by `replyd inbox`, so that what is mended reads as mended. A regex rule runs on
 * the account's probe thread (regex.ts probe: a missed deadline is no strike against it, and that text
 * and the rest are then left out — a bike share's walkthrough: an entry a regex rule answered, and still
 * would, had read "→ now answers:refunds,…", the ranking's, which no follower gets). No conversation.
 * One after another, within ANSWERED_NOW_MS in all; one that fails, is busy or late is left out.
 */
import { choose, ordersByHead, type Choice } from "../ranking/choice.ts";
import type { RankedArticle } from "../ranking/types.ts";
import { saidBetweenQuestions } from "../ranking/cues.ts";
import { loggedAnswer } from "../wechat/answering/ranked-reply.ts";
import { readText } from "../wechat/answering/typed.ts";
import { taughtOf } from "../wechat/answering/taught.ts";
import type { AppContext } from "./context.ts";
import { unprefixed } from "../store/log-kinds.ts";
import { foldedPattern, regexRulesOf, ruleArticles, rulesMatchingText } from "../wechat/answering/rule-match.ts";
import type { Rule } from "../doc/rule.ts";

/** The time given the ranking in all (50 texts, a few ms each on an idle server). */
const ANSWERED_NOW_MS = 3_000;

/** Each text of `texts` the ranking answers now, with how it would be logged (answer:<id>, answers:<id>,…). */
export async function answeredNow(ctx: Pick<AppContext, "clock" | "read" | "regex">, texts: Iterable<string>): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const until = ctx.clock.monotonic() + ANSWERED_NOW_MS;
  const rules = ctx.read.content.rules();
  const patterns = rules.map(foldedPattern);
  const regex = regexRulesOf(rules);
  let regexKnown = true;
  for (const logged of new Set(texts)) {
    if (ctx.clock.monotonic() > until) break;
    // As the responder reads a follower's text (a review: a trailing space had kept a regex rule from matching here alone).
    const text = readText(logged);
    if (saidBetweenQuestions(text)) continue;
    // A rule made since answers it: said as followers get it, before the ranking ("are there any jobs
    // going" stayed "closest: digital-tickets" after a jobs rule answered it: a football club's walkthrough).
    let hits: ReadonlySet<number> = new Set();
    if (regex.patterns.length) {
      const probed = regexKnown ? await ctx.regex.probe(regex.patterns, text, ctx.read.content.rulesVersion) : null;
      if (probed === null) {
        regexKnown = false;
        continue;
      }
      hits = probed;
    }
    const rule = ruleAnswering(ctx, rules, patterns, text, regex.hit(hits));
    if (rule) {
      out.set(logged, `rule:${rule.id}`);
      continue;
    }
    const c = await offeredNow(ctx, text);
    if (c && c.kind !== "none") out.set(logged, loggedAnswer(c));
  }
  return out;
}

/**
 * The rule a follower sending `text` gets now, as the responder picks it: the first that matches and
 * still answers (its articles, or its tag's, not all gone: passed over, they had been said to answer — a review).
 */
function ruleAnswering(ctx: Pick<AppContext, "read">, rules: readonly Rule[], patterns: readonly string[], text: string, regexHit: (rule: Rule) => boolean): Rule | undefined {
  return rulesMatchingText(rules, patterns, text, regexHit).find((rule) => answers(ctx, rule));
}

/** A rule's reply is still something to send: a text, or a live article of its own (rule-match.ts ruleArticles). */
const answers = (ctx: Pick<AppContext, "read">, rule: Rule): boolean => rule.reply.type === "text" || ruleArticles(ctx.read.articles, rule.reply, 1).length > 0;

/**
 * What a follower sending `text` alone is offered now, as the callback's ranking offers it (the
 * taught article alone, else the choice); undefined for what is no question (thanks, "another", a
 * pick, a bare number), a question taught to an article deleted since, and a ranking that fails or is busy.
 */
export async function offeredNow(ctx: Pick<AppContext, "read">, text: string): Promise<Choice<RankedArticle> | undefined> {
  if (saidBetweenQuestions(text)) return undefined;
  try {
    const ranked = await ctx.read.searcher.rank(text);
    return ranked && ranked !== "busy" ? offerOf(ctx, text, ranked.articles) : undefined;
  } catch {
    // What is listed stands without it.
    return undefined;
  }
}

/** What `ranked`, the ranking's articles for `text`, offer a follower sending it (offeredNow), for a caller that reads those articles too. */
export function offerOf(ctx: Pick<AppContext, "read">, text: string, ranked: readonly RankedArticle[]): Choice<RankedArticle> | undefined {
  // Taught: that article alone, as a follower gets it (an inbox entry had said "now answers:…" of a question taught since).
  const taught = taughtOf(text, ranked, ctx.read.articles);
  if (taught && "deleted" in taught) return undefined;
  return taught ? { kind: "one", article: taught.article, margin: 0 } : choose(ranked, ordersByHead({ text }));
}

/** Every article an offer offers, in its order. */
export const offeredBy = (c: Choice<RankedArticle>): string[] => (c.kind === "one" ? [c.article.id] : c.kind === "list" ? c.articles.map((a) => a.id) : []);

/** The first article of an offer, null when it offers nothing. */
export const firstOffered = (c: Choice<RankedArticle>): string | null => (c.kind === "one" ? c.article.id : c.kind === "list" ? (c.articles[0]?.id ?? null) : null);

/** The articles a logged answer offered (answer:<id>, answers:<id>,…, or the model's ai:<id>,… citing them, after its reading's prefix). */
export const offeredIn = (answer: string): string[] => {
  const plain = unprefixed(answer);
  return /^(?:answers?|ai):/.test(plain) ? plain.slice(plain.indexOf(":") + 1).split(",").filter(Boolean) : [];
};
