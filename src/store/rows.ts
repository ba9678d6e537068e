/**
 * The articles table's rows as both stores keep them, derived from the field table
 * (article-fields.ts): the columns in the order statements bind them, each content value as a
 * store keeps it (words as JSON text, a flag as 0/1 in SQLite and a boolean in PostgreSQL), and a
 * stored row back as an article. Written once, beside the backend interface, for both.
 */
import { CONTENT, LONG_FIELDS, type ArticleContent, type ContentName, type LongName } from "../article-fields.ts";
import type { Article, ArticleInput, ArticleSummary } from "../article.ts";

/** A content value as a column holds it. */
type StoredValue<K> = K extends "words" ? string : K extends "flag" ? number | boolean : never;
type StoredContent = {
  [F in (typeof CONTENT)[number] as F["name"]]: F["kind"] extends "words" | "flag" ? StoredValue<F["kind"]> : ArticleContent[F["name"]];
};

/** A stored row, from either store: content as stored, rev as a number or a bigint's text. */
export type StoredRow = { id: string } & StoredContent & { rev: number | string; created_at: string; updated_at: string };
/** A row as SQLite reads it: its row number too. */
export type Row = StoredRow & { seq?: number };

/** The content columns, in table order. */
export const CONTENT_COLUMNS: readonly ContentName[] = CONTENT.map((f) => f.name);
/**
 * Every article column in the order statements bind them: the content, rev and times, then the id
 * (last, so an UPDATE's WHERE takes the last parameter).
 */
export const BOUND_COLUMNS: readonly string[] = [...CONTENT_COLUMNS, "rev", "created_at", "updated_at", "id"];
/** Every article column in the table's own order (SELECTs). */
export const ARTICLE_COLUMNS: readonly string[] = ["id", ...CONTENT_COLUMNS, "rev", "created_at", "updated_at"];

/** The columns a listing reads: all but the long ones (the body). */
export const SUMMARY_COLUMNS: readonly string[] = ARTICLE_COLUMNS.filter((c) => !(LONG_FIELDS as readonly string[]).includes(c));

/** `prefix`-qualified column names joined (`d.code, d.tag, …`), for set-based statements. */
export const columnList = (columns: readonly string[], prefix = "") => columns.map((c) => prefix + c).join(", ");

/** A content value as SQLite binds it. */
function sqliteValue(kind: string, v: unknown): unknown {
  if (kind === "words") return JSON.stringify(v ?? []);
  if (kind === "flag") return v ? 1 : 0;
  return v;
}

/** An article's values in BOUND_COLUMNS order, as SQLite binds them: binding by position is measurably cheaper than by name in bulk. */
export function sqliteParams(a: Article): unknown[] {
  const out = new Array<unknown>(BOUND_COLUMNS.length);
  let i = 0;
  for (const f of CONTENT) out[i++] = sqliteValue(f.kind, a[f.name]);
  out[i++] = a.rev;
  out[i++] = a.created_at;
  out[i++] = a.updated_at;
  out[i] = a.id;
  return out;
}

/** A record's content (defaults for what it leaves out) then rev, times and id, as SQLite binds them. */
export function sqliteRecordParams(rec: ArticleInput & { id: string }, rev: number, createdAt: string, updatedAt: string): unknown[] {
  const out = new Array<unknown>(BOUND_COLUMNS.length);
  let i = 0;
  for (const f of CONTENT) out[i++] = sqliteValue(f.kind, rec[f.name] ?? f.empty);
  out[i++] = rev;
  out[i++] = createdAt;
  out[i++] = updatedAt;
  out[i] = rec.id;
  return out;
}

/** Another store's row in BOUND_COLUMNS order for SQLite: words kept as the JSON text they are stored as. */
export function sqliteRowParams(r: StoredRow): unknown[] {
  const out = new Array<unknown>(BOUND_COLUMNS.length);
  let i = 0;
  for (const f of CONTENT) {
    const v = r[f.name];
    out[i++] = f.kind === "flag" ? (v === 1 || v === true ? 1 : 0) : v;
  }
  out[i++] = Number(r.rev);
  out[i++] = r.created_at;
  out[i++] = r.updated_at;
  out[i] = r.id;
  return out;
}

/**
 * Keywords as searched: the words of their JSON text (as JSON.stringify wrote it) joined by U+001F,
 * which no keyword holds — the same as the articles table's keyword_text column (model/db.ts).
 */
export const keywordText = (json: string): string => json.slice(2, -2).replaceAll('","', "\u001f");

/** Questions as the passage index reads them: one a line — the articles table's question_text column (model/db.ts). */
export const questionText = (json: string): string => json.slice(2, -2).replaceAll('","', "\n");

/** A stored row as an article; a row read without its long columns (SUMMARY_COLUMNS) as a summary. */
export function fromRow(r: StoredRow): Article;
export function fromRow(r: Omit<StoredRow, LongName>): ArticleSummary;
export function fromRow(r: Omit<StoredRow, LongName>): ArticleSummary {
  const out: Record<string, unknown> = { id: r.id };
  for (const f of CONTENT) {
    const v = (r as StoredRow)[f.name];
    if (v === undefined) continue;
    out[f.name] = f.kind === "words" ? JSON.parse(v as string) : f.kind === "flag" ? v === 1 || v === true : v;
  }
  out.rev = Number(r.rev);
  out.created_at = r.created_at;
  out.updated_at = r.updated_at;
  return out as Article;
}
