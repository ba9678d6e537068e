/**
 * What an import's record leaves out of what the article held in its taught fields (article.ts
 * TAUGHT_FIELDS): a record that lists keywords or questions sets them, and the import names the
 * articles that lost some (writer.ts ImportResult) — an operator's keywords+= or teach the CMS's
 * file does not know is not lost unseen.
 */
import { taughtForm } from "../ranking/taught-form.ts";

/** Keywords in any case. */
export function keywordsLeftOut(held: readonly string[], given: readonly string[]): string[] {
  const kept = new Set(given.map((k) => k.toLowerCase()));
  return held.filter((k) => !kept.has(k.toLowerCase()));
}

/** Questions as a follower's message meets them (ranking/taught-form.ts): "How much deposit??" is "how much deposit". */
export function questionsLeftOut(held: readonly string[], given: readonly string[]): string[] {
  const kept = new Set(given.map(taughtForm));
  return held.filter((q) => !kept.has(taughtForm(q)));
}
