/** The read model's rules checked against its articles and tags (src/rule-targets.ts). */
import type { Rule } from "../rule.ts";
import { ruleTargetWarnings } from "../rule-targets.ts";
import type { AppContext } from "./context.ts";

export function ruleWarnings(ctx: AppContext, rules: readonly Rule[] = ctx.read.content.rules()): string[] {
  if (!rules.length) return [];
  const tags = ctx.read.articles.tagCounts();
  return ruleTargetWarnings(rules, { article: (id) => ctx.read.articles.get(id), tagged: (tag) => tags.get(tag) ?? 0 });
}
