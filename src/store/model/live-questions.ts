/**
 * The questions taught to live articles, by their taught form (ranking/taught-form.ts), for the
 * ranking to score the article a follower's message was taught to whatever its words' weight: "do i
 * need to book", taught to the bars' article, found "book" in a dozen articles and left the bars'
 * out of the five ranked, so the teach that said "followers asking it get this article alone" gave
 * them booking fees and groups (a theatre's walkthrough). Read again after the passage index was
 * written (an article's questions are part of its head), from a partial index of the live articles
 * that hold questions.
 */
import type { Database } from "bun:sqlite";
import { taughtForm } from "../../ranking/taught-form.ts";

/** Live articles holding questions looked at, the most recently changed first: a bound on what reading them again costs after a write. */
export const LIVE_QUESTIONS_ARTICLES = 20_000;

/** Made at every open, as the deleted articles' index is (deleted-questions.ts): an index alone, which an older replyd neither needs nor minds. */
export const LIVE_QUESTIONS_INDEX = "CREATE INDEX IF NOT EXISTS articles_live_questions ON articles (updated_at) WHERE deleted = 0 AND questions != '[]'";

const LIVE_QUESTIONS_QUERY = "SELECT seq, questions FROM articles WHERE deleted = 0 AND questions != '[]' ORDER BY updated_at DESC LIMIT ?";

/** Each taught form's article row number; of two articles taught the same words, the one changed last. */
export function liveQuestions(db: Database): Map<string, number> {
  const bySeq = new Map<string, number>();
  const rows = db.query(LIVE_QUESTIONS_QUERY).all(LIVE_QUESTIONS_ARTICLES) as { seq: number; questions: string }[];
  for (const r of rows)
    for (const q of JSON.parse(r.questions) as string[]) {
      const form = taughtForm(q);
      if (form && !bySeq.has(form)) bySeq.set(form, r.seq);
    }
  return bySeq;
}
