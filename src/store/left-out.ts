/**
 * What an import's record leaves out of what the article held in its taught fields (article.ts
 * TAUGHT_FIELDS): a record that lists keywords or questions sets them, and the import names the
 * articles that lost some (writer.ts ImportResult) — an operator's keywords+= or teach the CMS's
 * file does not know is not lost unseen.
 */
import { taughtForm } from "../ranking/taught-form.ts";
import { LIMITS } from "../article/text-rules.ts";

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

/**
 * A record's questions with those the article holds that it does not list kept after them (taught
 * on the server with replyd teach or questions+=, which a CMS's file does not know): `questions`,
 * what of the article's was `kept`, and what did not fit under LIMITS.questions, `lost`. The
 * article's own list when the two hold the same questions, so an unchanged file changes nothing.
 * An airport's operator re-imported its file to mend one body and lost the day's teaching (Session 52).
 */
export function questionsMerged(held: readonly string[], given: readonly string[]): { questions: string[]; kept: string[]; lost: string[] } {
  const others = questionsLeftOut(held, given);
  if (!others.length) return { questions: [...given], kept: [], lost: [] };
  const room = Math.max(0, LIMITS.questions - given.length);
  const kept = others.slice(0, room);
  const questions = [...given, ...kept];
  const same = questions.length === held.length && [...questions].sort().join("\n") === [...held].sort().join("\n");
  return { questions: same ? [...held] : questions, kept, lost: others.slice(room) };
}
