/**
 * The questions taught to articles deleted since (soft-deleted: `rm` without --purge), by their
 * taught form (ranking/taught-form.ts). A follower's message that is one of them is not
 * the ranking's to answer with a neighbour: the operator said which article answers it, and removed
 * that answer (wechat/answering/taught.ts). Read again after any write to the articles, from a
 * partial index that holds only such rows: a few microseconds on an account that deleted none.
 */
import type { Database } from "bun:sqlite";
import { taughtForm } from "../../ranking/taught-form.ts";

/** The most recently changed deleted articles looked at: a bound on what a write costs the next message (each holds at most 50 questions). */
export const DELETED_QUESTIONS_ARTICLES = 500;

/**
 * Made at every open, not a migration: an index alone, which a replyd before it neither needs nor
 * minds, so going back to the release before stays safe (docs/install.md).
 */
export const DELETED_QUESTIONS_INDEX = "CREATE INDEX IF NOT EXISTS articles_deleted_questions ON articles (updated_at) WHERE deleted = 1 AND questions != '[]'";

/** Read through the index above: the live articles are not read. */
export const DELETED_QUESTIONS_QUERY = "SELECT id, questions FROM articles WHERE deleted = 1 AND questions != '[]' ORDER BY updated_at DESC LIMIT ?";

export class DeletedQuestions {
  private byForm: Map<string, string> | null = null;
  /**
   * Each question's taught form, kept across reads: a write to any article empties the map above,
   * and reading 500 articles' 25,000 questions into their forms again had cost the next follower's
   * message 140 ms — seconds for questions of characters normalisation multiplies (a review). Only
   * what was read last time is kept.
   */
  private forms = new Map<string, string>();

  constructor(private readonly db: Database) {}

  /** The articles were written: read again when next asked. */
  changed(): void {
    this.byForm = null;
  }

  /** The deleted article a message in taught form was taught to (the most recently changed of several), or null. */
  articleOf(form: string): string | null {
    this.byForm ??= this.load();
    return this.byForm.get(form) ?? null;
  }

  private load(): Map<string, string> {
    const byForm = new Map<string, string>();
    const rows = this.db
      .query(DELETED_QUESTIONS_QUERY)
      .all(DELETED_QUESTIONS_ARTICLES) as { id: string; questions: string }[];
    const forms = new Map<string, string>();
    for (const r of rows)
      for (const q of JSON.parse(r.questions) as string[]) {
        const form = forms.get(q) ?? this.forms.get(q) ?? taughtForm(q);
        forms.set(q, form);
        if (form && !byForm.has(form)) byForm.set(form, r.id);
      }
    this.forms = forms;
    return byForm;
  }
}
