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

/**
 * What reading them again may cost: the live articles holding questions looked at, the most
 * recently changed first, and the questions read of them (some 4 µs each: 20,000 are under 0.1 s of
 * the search worker's, once after the articles' questions change).
 */
export const LIVE_QUESTIONS = { articles: 20_000, questions: 20_000 };

/** Made at every open, as the deleted articles' index is (deleted-questions.ts): an index alone, which an older replyd neither needs nor minds. */
export const LIVE_QUESTIONS_INDEX = "CREATE INDEX IF NOT EXISTS articles_live_questions ON articles (updated_at) WHERE deleted = 0 AND questions != '[]'";

const LIVE_QUESTIONS_QUERY = "SELECT id, questions FROM articles WHERE deleted = 0 AND questions != '[]' ORDER BY updated_at DESC LIMIT ?";

/**
 * What moves when the live articles' questions may have: the latest change among the articles
 * holding any, and how many hold any (counted through the partial index, no further than the
 * articles read). Not the passage index's writes, which move with every batch of a rebuild: read
 * again after each, the questions had cost the questions asked during it their deadline (a review).
 * What it misses (a restore, a question taken from an article past the bound) stillTaught catches.
 */
export function liveQuestionsMark(db: Database): string {
  const { latest } = db.query("SELECT max(updated_at) AS latest FROM articles WHERE deleted = 0 AND questions != '[]'").get() as { latest: string | null };
  const { n } = db.query("SELECT count(*) AS n FROM (SELECT 1 FROM articles WHERE deleted = 0 AND questions != '[]' LIMIT ?)").get(LIVE_QUESTIONS.articles + 1) as { n: number };
  return `${latest ?? ""}|${n}`;
}

/** Each taught form's article id; of two articles taught the same words, the one changed last. */
export function liveQuestions(db: Database): Map<string, string> {
  const byId = new Map<string, string>();
  const rows = db.query(LIVE_QUESTIONS_QUERY).all(LIVE_QUESTIONS.articles) as { id: string; questions: string }[];
  let read = 0;
  for (const r of rows) {
    const questions = JSON.parse(r.questions) as string[];
    for (const q of questions) {
      const form = taughtForm(q);
      if (form && !byId.has(form)) byId.set(form, r.id);
    }
    read += questions.length;
    if (read >= LIVE_QUESTIONS.questions) break;
  }
  return byId;
}

/**
 * The row number of live article `id` when it still holds a question of taught form `form`: what
 * the map above says is checked against the row as it is now — a restore reinserts every article
 * under new row numbers with their dates and counts unchanged (the mark does not move), and a
 * question taken from an article past the bound leaves the mark as it was (a review).
 */
export function stillTaught(db: Database, id: string, form: string): number | undefined {
  const row = db.query("SELECT seq, questions FROM articles WHERE id = ? AND deleted = 0").get(id) as { seq: number; questions: string } | null;
  return row && (JSON.parse(row.questions) as string[]).some((q) => taughtForm(q) === form) ? row.seq : undefined;
}
