import type { Article } from "../article/article.ts";
import { conflict } from "../base/errors.ts";
import type { ArticleEdit } from "./writer.ts";

/** The refusals of a single-article write, the same from either store. */
export const idExists = (id: string) => conflict(`an article with id "${id}" already exists; use PUT to revise it`, "id_exists");

export const codeTaken = (code: string, owner: string) => conflict(`the code "${code}" is already used by live article "${owner}"`, "code_taken", { id: owner });

/** `current`: the stored rev (null: no such article); `expected`: the rev the writer based its change on. */
export const revMismatch = (id: string, current: number | null, expected: number) =>
  current === null
    ? conflict(`no article "${id}" exists, so rev ${expected} cannot match`, "rev_mismatch", { current_rev: null })
    : conflict(`article "${id}" is at rev ${current}, not ${expected}: someone changed it since you read it`, "rev_mismatch", { current_rev: current });

/**
 * The part of an edit both stores decide alike, inside their transaction: the operator's rev
 * against the stored one, then the edit's own decision (null: nothing changes). The live code is
 * each store's own lookup, refused with codeTaken.
 */
export function decideEdit(id: string, stored: Article | null, edit: ArticleEdit): Article | null {
  if (edit.onlyIfNew && stored) throw idExists(id);
  if (edit.expectRev !== undefined && stored?.rev !== edit.expectRev) throw revMismatch(id, stored?.rev ?? null, edit.expectRev);
  const next = edit.decide(stored);
  if (next && next.id !== id) throw new Error(`an edit of "${id}" decided to write "${next.id}"`);
  return next;
}
