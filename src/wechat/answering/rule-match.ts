/**
 * Which rules match a follower's text (docs/wechat.md §3): exact, prefix and contains compared with the
 * text folded as followers' words are read (case, width, traditional characters); a regex rule as
 * `regexHit` says — the responder runs them in a worker, bounded in time, and `replyd inbox` and the
 * report's "answered now" on a thread of their own (regex.ts probe, server/answered-now.ts).
 */
import type { Article, ArticleSummary } from "../../article/article.ts";
import type { Rule, RuleReply } from "../../doc/rule.ts";
import type { ReadModel } from "../../store/read-model.ts";
import { folded } from "../../ranking/words.ts";
import { withoutEnd } from "./end-marks.ts";
import { MAX_INPUT } from "./regex.ts";

/** `rules` whose pattern matches `text`, in order; `patterns`: each rule's pattern folded (foldedPattern). */
export function rulesMatchingText(rules: readonly Rule[], patterns: readonly string[], text: string, regexHit: (rule: Rule) => boolean): Rule[] {
  const lower = folded(text.slice(0, MAX_INPUT));
  // The message as typed first: its end marks are dropped only when no exact rule has them ("hours?" and "hours" both rules).
  const bare = rules.some((r, i) => r.match === "exact" && patterns[i] === lower) ? lower : withoutEnd(lower);
  return rules.filter((rule, i) => {
    const p = patterns[i] as string;
    return rule.match === "exact" ? lower === p || (bare !== "" && bare === p) : rule.match === "prefix" ? lower.startsWith(p) : rule.match === "contains" ? lower.includes(p) : regexHit(rule);
  });
}

/** The regex rules of `rules`: their patterns in order, and how the positions of those that matched read each rule (rulesMatchingText's `regexHit`). */
export function regexRulesOf(rules: readonly Rule[]): { patterns: string[]; hit: (hits: ReadonlySet<number>) => (rule: Rule) => boolean } {
  const regex = rules.filter((r) => r.match === "regex");
  const at = new Map(regex.map((r, i) => [r, i]));
  return { patterns: regex.map((r) => r.pattern), hit: (hits) => (rule) => hits.has(at.get(rule) ?? -1) };
}

/** A rule's pattern as followers' words are read: 營業時間 matches 营业时间, ＷＩＦＩ wifi. */
export const foldedPattern = (rule: Rule): string => folded(rule.pattern.trim());

/**
 * The live articles a rule's reply of articles sends: its tag's first `limit`, or those it names not
 * deleted. None: the rule is passed over, for followers (responder.ts) and for what the inbox says
 * answers a message now (server/answered-now.ts).
 */
export const ruleArticles = (articles: Pick<ReadModel["articles"], "byTag" | "get">, reply: Exclude<RuleReply, { type: "text" }>, limit: number): ArticleSummary[] | Article[] =>
  reply.type === "tag" ? articles.byTag(reply.tag, limit) : reply.ids.map((id) => articles.get(id)).filter((a): a is Article => a !== null && !a.deleted);
