/**
 * A follower's message that is one of an article's questions, as taught (replyd teach, questions+=):
 * that article alone, whatever the ranking's lead. The operator said which article answers these
 * words; the ranking may still find a neighbour close behind ("how much deposit" ranks the rental
 * article first, the cancellation one near it) and list both, where the teach promised the article.
 * Only the words as taught, in any case, white space and the ends' punctuation and symbols aside: a
 * paraphrase is the ranking's to read. Two articles taught the same words: the one the ranking puts
 * first. Logged as the ranking's one article (`answer:<id>`, margin 0: no close call).
 */
import { questionForm } from "../../article/text-rules.ts";
import type { RankedArticle } from "../../ranking/types.ts";
import type { ReadModel } from "../../store/read-model.ts";

/** How many of the ranking's first articles are looked at: a taught question's article is among them (its head holds every word). */
const LOOKED_AT = 5;

/** A message or question as compared: full-width folded (NFKC), white space folded, case and the punctuation and symbols at its ends ("~", an emoji) left out. */
export const taughtForm = (text: string): string => questionForm(text.normalize("NFKC")).toLowerCase().replace(/^[\s\p{P}\p{S}]+|[\s\p{P}\p{S}]+$/gu, "");

/** The ranked article `text` is a taught question of (the first, in the ranking's order), or null. */
export function taughtArticle(text: string, ranked: readonly RankedArticle[], articles: Pick<ReadModel["articles"], "get">): RankedArticle | null {
  const asked = taughtForm(text);
  if (!asked) return null;
  for (const candidate of ranked.slice(0, LOOKED_AT)) {
    const article = articles.get(candidate.id);
    if (article && !article.deleted && article.questions.some((q) => taughtForm(q) === asked)) return candidate;
  }
  return null;
}
