/**
 * What an unknown article id may have meant, said beside "no article": the id written with `_` for
 * `-` (or `-` for `_`), in capitals, or with spaces — the slips a hand-typed id makes ("card_refund"
 * for card-refund: a salon's operator was told only that there was none, a walkthrough, Session 51).
 * Looked up by those few spellings, never by scanning the account: an error on a million articles
 * costs what it costs on ten. And the live article an operator's name for one stands for (liveByIdOrCode).
 */
import type { ArticleReads } from "../store/read-model.ts";

const variants = (id: string): string[] => {
  const base = id.trim().toLowerCase().replace(/\s+/g, "-");
  return [...new Set([base, base.replaceAll("_", "-"), base.replaceAll("-", "_"), base.replaceAll(/[_-]/g, "")])].filter((v) => v !== id);
};

/**
 * ` ("14" is the code of article "hz-fee": name it by its id)` when the id typed is a live article's
 * code (an admissions office's operator typed the codes followers send: `replyd show 14` had said only
 * "no article"; `redo`: the command to name it in instead, `replyd rm hz-fee`), else ` (did you mean
 * "card-refund"?)` when a live article is so spelt, else "".
 */
export function idHint(id: string, articles: Pick<ArticleReads, "get" | "getLiveByCode">, redo?: string): string {
  const typed = id.trim();
  const coded = articles.getLiveByCode(typed);
  if (coded) return ` ("${typed}" is the code of article "${coded.id}": ${redo ? `${redo} ${coded.id}` : "name it by its id"})`;
  for (const v of variants(id)) {
    const a = articles.get(v);
    if (a && !a.deleted) return ` (did you mean "${a.id}"?)`;
  }
  return "";
}

/**
 * The live article `named` names: by its id, else by its live code ("2" where articles are numbered
 * 1–14) — followers and the help text know articles by their codes, and so do many operators
 * (teach, reply --article); null when none.
 */
export function liveByIdOrCode(articles: Pick<ArticleReads, "get" | "getLiveByCode">, named: string) {
  const byId = articles.get(named);
  return byId && !byId.deleted ? byId : articles.getLiveByCode(named);
}
