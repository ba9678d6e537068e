import { conflict } from "../errors.ts";

/** The refusals of a single-article write, the same from either store and from the route's own checks. */
export const idExists = (id: string) => conflict(`an article with id "${id}" already exists; use PUT to revise it`, "id_exists");

export const codeTaken = (code: string, owner: string) => conflict(`the code "${code}" is already used by live article "${owner}"`, "code_taken", { id: owner });

/** `current`: the stored rev (null: no such article); `expected`: the rev the writer based its change on. */
export const revMismatch = (id: string, current: number | null, expected: number) =>
  current === null
    ? conflict(`no article "${id}" exists, so rev ${expected} cannot match`, "rev_mismatch", { current_rev: null })
    : conflict(`article "${id}" is at rev ${current}, not ${expected}: someone changed it since you read it`, "rev_mismatch", { current_rev: current });
