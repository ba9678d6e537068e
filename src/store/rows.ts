/**
 * The articles table's rows as both stores keep them (SQLite, and PostgreSQL's same columns), and
 * the mapping to articles: written once, beside the backend interface, for both.
 */
import type { Article } from "../article.ts";

export interface Row {
  seq?: number;
  id: string;
  code: string | null;
  tag: string | null;
  title: string;
  description: string;
  url: string;
  picurl: string | null;
  keywords: string;
  deleted: number;
  rev: number;
  created_at: string;
  updated_at: string;
}

/**
 * Keywords as searched: the words of their JSON text (as JSON.stringify wrote it) joined by U+001F,
 * which no keyword holds — the same as the articles table's keyword_text column (db.ts).
 */
export const keywordText = (json: string): string => json.slice(2, -2).replaceAll('","', "\u001f");

/** A stored row, from either store: keywords as stored (JSON text), deleted as 0/1 or a boolean, rev as a number or a bigint's text. */
export type StoredRow = Omit<Row, "seq" | "deleted" | "rev"> & { deleted: number | boolean; rev: number | string };

/** A stored row as an article. */
export const fromRow = (r: StoredRow): Article => ({
  id: r.id,
  code: r.code,
  tag: r.tag,
  title: r.title,
  description: r.description,
  url: r.url,
  picurl: r.picurl,
  keywords: JSON.parse(r.keywords) as string[],
  deleted: r.deleted === 1 || r.deleted === true,
  rev: Number(r.rev),
  created_at: r.created_at,
  updated_at: r.updated_at,
});
