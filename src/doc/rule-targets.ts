/**
 * Rules whose answer points at nothing (docs/data.md "Rules"): an articles reply naming an article
 * that does not exist or is deleted, a tag reply naming a tag no live article carries. The
 * callback passes such a rule over (a follower gets whatever answers next), so the operator is told
 * at import, by `ask` and in health — as a menu button whose key no rule answers is.
 */
import type { Rule } from "./rule.ts";

export interface TargetReads {
  /** The article with this id, or null. */
  article(id: string): { deleted: boolean } | null;
  /** Live articles carrying this tag. */
  tagged(tag: string): number;
}

/** One line per rule that points at something missing, naming what. */
export function ruleTargetWarnings(rules: readonly Rule[], reads: TargetReads): string[] {
  const out: string[] = [];
  for (const r of rules) {
    if (r.reply.type === "articles") {
      const missing = r.reply.ids.filter((id) => reads.article(id) === null);
      const deleted = r.reply.ids.filter((id) => reads.article(id)?.deleted === true);
      if (!missing.length && !deleted.length) continue;
      const parts = [...(missing.length ? [`${missing.map((i) => `"${i}"`).join(", ")} ${missing.length > 1 ? "do" : "does"} not exist`] : []), ...(deleted.length ? [`${deleted.map((i) => `"${i}"`).join(", ")} ${deleted.length > 1 ? "are" : "is"} deleted`] : [])];
      const none = missing.length + deleted.length === r.reply.ids.length;
      // Said as a sentence ("answers with article "booking" is deleted" had read wrong: two walkthroughs).
      const [only] = r.reply.ids;
      if (r.reply.ids.length === 1) out.push(`rule "${r.id}" answers with article "${only}", which ${missing.length ? "does not exist" : "is deleted"}: it answers nothing and is passed over`);
      else out.push(`rule "${r.id}" answers with articles ${r.reply.ids.map((i) => `"${i}"`).join(", ")}: ${parts.join(" and ")}${none ? "; it answers nothing and is passed over" : ""}`);
    } else if (r.reply.type === "tag" && reads.tagged(r.reply.tag) === 0) out.push(`rule "${r.id}" answers with tag "${r.reply.tag}", which no live article carries: it answers nothing and is passed over`);
  }
  return out;
}
