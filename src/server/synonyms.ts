import { badRequest } from "../errors.ts";
import type { SignedRequest } from "./auth.ts";
import type { AppContext } from "./context.ts";
import { Fields } from "./fields.ts";

/**
 * GET /api/cli/synonyms: the operator's synonyms as the ranking applies them (docs/answers.md
 * "Synonyms"), for any key that may read. They are written as documents of matter `synonyms`
 * (import merges, restore replaces), as rules are.
 */
export function getSynonyms(ctx: AppContext, req: SignedRequest) {
  new Fields(req.fields).only([]);
  if (req.files.size) throw badRequest("this route takes no file; synonyms are written by importing a document of matter synonyms");
  const synonyms = ctx.read.content.synonyms();
  return { synonyms, groups: synonyms.length };
}
