/**
 * The articles' columns as PostgreSQL statements name and bind them, derived from the field table
 * (article/fields.ts): column lists, a row's SELECT, the comparison of two rows' content, and a
 * bulk write's batch as one array literal per column.
 */
import type { TransactionSQL } from "bun";
import { CONTENT, type FieldKind } from "../../article/fields.ts";
import { CONTENT_COLUMNS, columnList, type StoredRow } from "../rows.ts";

/** Each kind's PostgreSQL type (words are JSON text, as SQLite keeps them). */
const PG_TYPE: Record<FieldKind, string> = { text: "text", nullable: "text", words: "text", flag: "boolean" };

/** The content columns, `prefix`-qualified: `d.code, d.tag, …`. */
export const content = (prefix = "") => columnList(CONTENT_COLUMNS, prefix);
/** A stored row as every reader takes it (rev and gen as text: bigints). */
export const ROW_SELECT = `id, ${content()}, rev::text AS rev, created_at, updated_at, gen::text AS gen`;
/** `a`'s field `f` equals `d`'s (one that may be null compared as such). */
export const sameField = (f: (typeof CONTENT)[number]) => (f.kind === "nullable" ? `a.${f.name} IS NOT DISTINCT FROM d.${f.name}` : `a.${f.name} = d.${f.name}`);
/** `a`'s content equals `d`'s, column by column. */
export const SAME_CONTENT = CONTENT.map(sameField).join(" AND ");
/** Every content column of `target` set from `source`'s: `code = d.code, …`. */
export const setContent = (source: string) => CONTENT_COLUMNS.map((c) => `${c} = ${source}.${c}`).join(", ");
/** The content columns of a table definition, typed (doc_in). */
export const CONTENT_DDL = CONTENT.map((f) => `${f.name} ${PG_TYPE[f.kind]}${f.kind === "nullable" ? "" : " NOT NULL"}`).join(", ");

/** Text for a statement fragment, as Bun.SQL takes it: a template object (its `raw` not enumerable). */
function template(parts: string[]): TemplateStringsArray {
  const t = [...parts];
  Object.defineProperty(t, "raw", { value: [...parts] });
  return Object.freeze(t) as unknown as TemplateStringsArray;
}
/** A statement (or a fragment of one) whose text is built here, with `values` bound between its parts. */
export const statement = (tx: TransactionSQL, parts: string[], values: unknown[]) => tx(template(parts), ...values);

/** One record of a bulk write's batch, as the articles' columns take it (words as JSON text); no id yet, or no rev and times, where PostgreSQL gives them. */
export type BatchRow = Omit<StoredRow, "id" | "rev" | "created_at" | "updated_at"> & {
  idx: number;
  id: string | null;
  rev?: number | string | null;
  created_at?: string | null;
  updated_at?: string | null;
};

/** An element of an array literal: quoted, with `"` and `\` escaped (nothing else is special inside quotes). */
const quoted = (v: string | null | undefined): string => (v == null ? "NULL" : /["\\]/.test(v) ? `"${v.replace(/["\\]/g, "\\$&")}"` : `"${v}"`);

/** The batch's columns: idx, id, the content, rev, created_at, updated_at. */
const BATCH_COLUMNS = ["idx", "id", ...CONTENT_COLUMNS, "rev", "created_at", "updated_at"];
const BATCH_TYPES = ["integer", "text", ...CONTENT.map((f) => PG_TYPE[f.kind]), "bigint", "text", "text"];
/** `unnest($1::text::integer[], …) AS r(idx, id, …)` in parts, the arrays to go between them. */
const UNNEST_PARTS = ["unnest(", ...BATCH_TYPES.slice(1).map((_, i) => `::text::${BATCH_TYPES[i]}[], `), `::text::${BATCH_TYPES[BATCH_TYPES.length - 1]}[]) AS r(${BATCH_COLUMNS.join(", ")})`];

/**
 * A batch of records as one array literal per column, read by `unnest`: PostgreSQL reads an array
 * literal for a quarter of the CPU json_to_recordset takes on the same rows (0.56 against 2.4 s
 * for 200,000, measured), and a million-article write on a small host is bound by PostgreSQL's
 * CPU. Each value is encoded as it is added: the records die young.
 */
export class Columns {
  private readonly cols: string[][] = BATCH_COLUMNS.map(() => []);
  length = 0;

  add(r: BatchRow): void {
    const c = this.cols;
    let i = 0;
    (c[i++] as string[]).push(String(r.idx));
    (c[i++] as string[]).push(quoted(r.id));
    for (const f of CONTENT) {
      const v = r[f.name];
      (c[i++] as string[]).push(f.kind === "flag" ? (v ? "t" : "f") : quoted(v as string | null));
    }
    (c[i++] as string[]).push(r.rev == null ? "NULL" : String(r.rev));
    (c[i++] as string[]).push(quoted(r.created_at));
    (c[i++] as string[]).push(quoted(r.updated_at));
    this.length++;
  }

  /** The batch as rows `r` (idx, id, the content, rev, created_at, updated_at) in a FROM clause. */
  from(tx: TransactionSQL) {
    return statement(
      tx,
      UNNEST_PARTS,
      this.cols.map((c) => `{${c.join(",")}}`),
    );
  }

  /** The batch's column list, for an INSERT of `SELECT * FROM from()`. */
  static readonly columns = columnList(BATCH_COLUMNS);
}
