/**
 * GET /api/cli/rules: the rules in effect, in the order they are matched (docs/wechat.md §4), each
 * as written — a regex rule timed out twice marked disabled —, the operator's texts, and what points
 * at nothing. For any key that may read, as the synonyms are: what followers are answered with, not
 * what they wrote. Two walkthroughs' operators had read their rules only by taking a backup of them
 * (each one kept against --keep).
 */
import { badRequest } from "../base/errors.ts";
import type { SignedRequest } from "./auth.ts";
import type { AppContext } from "./context.ts";
import { Fields } from "./fields.ts";
import { ruleWarnings } from "./write-warnings.ts";

export function getRules(ctx: AppContext, req: SignedRequest) {
  new Fields(req.fields).only([]);
  if (req.files.size) throw badRequest("this route takes no file; rules and texts are written by importing a document (replyd import rules.json)");
  const rules = ctx.read.content.rules();
  const disabled = new Set(ctx.regex.disabled().map((d) => d.pattern));
  return {
    rules: rules.map((r) => (r.match === "regex" && disabled.has(r.pattern) ? { ...r, disabled: true } : r)),
    count: rules.length,
    texts: ctx.read.content.texts(),
    warnings: ruleWarnings(ctx, rules),
  };
}
