/**
 * A spreadsheet's CSV export as articles (`replyd import faq.csv`; docs/data.md "From a
 * spreadsheet"): its first line names the columns — the article's fields, in any case — and each
 * row after it is one article. Read on the laptop into the JSON records the server takes, then
 * checked and sent as any document. As spreadsheets write it: RFC 4180 quoting (a cell may hold the
 * separator, quotes doubled, line breaks), a comma, semicolon or tab between cells (whichever the
 * header line uses), CRLF, a UTF-8 byte-order mark; a file that is not UTF-8 is read as GB18030,
 * what Excel on a Chinese Windows saves "CSV" as.
 */
import { CONTENT_FIELDS } from "../article/fields.ts";
import { CHINESE_COLUMNS, ENGLISH_COLUMNS } from "../article/field-names.ts";
import { unknownField } from "../base/suggest.ts";
import { CLIError } from "./errors.ts";
import { folded } from "../ranking/words.ts";

/** A spreadsheet larger than this is no FAQ: a JSON document is read in pieces, a CSV whole. */
export const CSV_MAX_BYTES = 64 << 20;

/** The columns a CSV may have: the article's id and content (whether it is deleted among it). */
const COLUMNS: readonly string[] = ["id", ...CONTENT_FIELDS];
/** The Chinese names, one per field, as a refusal lists them. */
const CHINESE_SHOWN = "编号, 代码, 标签, 标题, 描述, 链接, 图片, 关键词, 问题, 正文 (答案), 已删除";
/** A header cell as the field it names: in any case, in Chinese too, traditional characters folded ("標題"). */
const columnOf = (cell: string): string => {
  const n = cell.trim().toLowerCase();
  return CHINESE_COLUMNS[folded(n)] ?? ENGLISH_COLUMNS[n] ?? n;
};

/**
 * A Chinese header replyd does not know, with the names it may be a slip of: one character other, of
 * the same length, for a field the sheet has no column of (标提: 标签 or 标题 — a pet hospital's sheet
 * had been shown the whole list and no guess).
 */
function chineseUnknown(name: string, present: readonly string[]): string {
  const chars = [...name];
  const meant = Object.keys(CHINESE_COLUMNS).filter((known) => {
    const k = [...known];
    return k.length === chars.length && k.filter((c, i) => c !== chars[i]).length === 1 && !present.includes(CHINESE_COLUMNS[known] as string);
  });
  return meant.length ? `not a column replyd knows; did you mean ${meant.map((m) => `${m} (${CHINESE_COLUMNS[m]})`).join(" or ")}?` : "not a column replyd knows";
}

/**
 * Columns a sheet keeps for its own people (备注, "notes", "comments"): no field of an article, read as
 * none and said so — a service centre's sheet had its 备注 column refused, and with it the sheet
 * (a walkthrough).
 */
const NOTES = /^(?:备注|备注说明|内部备注|notes?|internal notes?|remarks?|comments?)$/iu;

/** Cells of a list field hold several: keywords apart at commas (either width), 、, semicolons, bars or line breaks; questions at line breaks or bars (a question may hold a comma). */
const SPLIT: Record<string, RegExp> = { keywords: /[,，、;；|\r\n]+/, questions: /[|\r\n]+/ };

export interface CsvArticles {
  /** The records, as a document's bare array holds them. */
  records: Record<string, unknown>[];
  /** The line each record starts on, for the problems the check finds. */
  lines: number[];
  /** The columns read as the sheet's own notes (NOTES), not imported: their place (from 1) and name. */
  notes: { column: number; name: string }[];
  /** The columns no field is named, each a problem line: the rows are read without them, and the import refused with their own problems too. */
  unknown: string[];
  /** The columns headed otherwise than the field they are read as (分类, "section"): their place (from 1), name and field. */
  renamed: { column: number; name: string; field: string }[];
}

/** `bytes` of file `name` read as articles; every problem of its shape (columns, quotes, cells past the columns) listed at once, nothing sent. */
export function csvArticles(name: string, bytes: Uint8Array): CsvArticles {
  const { rows, unclosed } = parse(decode(bytes));
  const header = rows.shift();
  if (!header) throw new CLIError("invalid_document", `${name} is empty: its first line names the columns (id, title, url, body, …)`);
  const names = header.cells.map(columnOf);
  const notes = header.cells.flatMap((cell, i) => (NOTES.test(folded(cell.trim())) ? [{ column: i + 1, name: cell.trim() }] : []));
  for (const n of notes) names[n.column - 1] = "";
  const noteAt = new Set(notes.map((n) => n.column - 1));
  // A sheet of 问题 and 答案, "question" and "answer" (a FAQ's two columns): its questions are the articles' titles.
  const asked = names.indexOf("questions");
  // Not "questions", the field's own name for the phrasings followers use (a review), nor when another column is those.
  if (asked >= 0 && !names.includes("title") && names.indexOf("questions", asked + 1) < 0 && /^(问题|常见问题|question)$/i.test(folded(header.cells[asked]?.trim() ?? ""))) names[asked] = "title";
  // A column without a name and without a value (a separator ending the lines) is none.
  const unnamed = (i: number) => names[i] === "" && (noteAt.has(i) || rows.every((r) => (r.cells[i] ?? "").trim() === ""));
  // A column no field is named: said, and the rows read without it, so that their own problems are
  // said in the same run (a help centre's "draft" had been refused alone, its rows' tag names on the
  // next run: a theatre's walkthrough).
  const unknown = names.flatMap((n, i) =>
    COLUMNS.includes(n) || unnamed(i)
      ? []
      : [`  column ${i + 1} ${n ? `"${header.cells[i]?.trim().slice(0, 40)}": ${/\p{Script=Han}/u.test(n) ? chineseUnknown(folded(n), names) : unknownField(n, COLUMNS)}` : "has no name but holds values"} (the columns: ${COLUMNS.join(", ")}; in Chinese: ${CHINESE_SHOWN})`],
  );
  names.forEach((n, i) => {
    if (!COLUMNS.includes(n)) names[i] = "";
  });
  const problems: string[] = [];
  // Named as the sheet heads them: "link" and "url" are both the url (a review: "url" alone had been named twice).
  const again = names.findIndex((n, i) => n && names.indexOf(n) !== i);
  if (again >= 0) {
    const first = names.indexOf(names[again] as string);
    const cell = (i: number) => `${i + 1} "${header.cells[i]?.trim().slice(0, 40)}"`;
    problems.push(`  columns ${cell(first)} and ${cell(again)} are both the ${names[again]} field: keep one`);
  }
  const idAt = names.indexOf("id");
  const codeAt = names.indexOf("code");
  // A row of empty cells, or of a note alone (备注 "待补充"), is no article (a review: it had refused the sheet for its missing id).
  const blank = (row: { cells: string[] }) => row.cells.every((c, i) => c.trim() === "" || noteAt.has(i));
  const named = (row: { cells: string[] }, at: number) => at >= 0 && (row.cells[at] ?? "").trim() !== "";
  // A sheet headed in Chinese is told the Chinese column (a fresh-food chain's operator was told "id" alone: a walkthrough, Session 52).
  const idColumn = header.cells.some((c) => /\p{Script=Han}/u.test(c)) ? '"编号" (or "id")' : '"id"';
  for (const row of rows) {
    // Without an id or a code the server gives the article a new id: the sheet imported again
    // would add every such row again (a walkthrough's owner found each row three times).
    if (!blank(row) && !named(row, idAt) && !named(row, codeAt)) problems.push(`  line ${row.line}: no id and no code: give the row an id (a column ${idColumn}: refund, hours …) or a code, so that importing the sheet again updates this article rather than adding another`);
    const past = row.cells.slice(names.length).filter((c) => c.trim() !== "");
    // A separator inside a cell that is not quoted: its text would be cut there, and the rest lost.
    if (past.length) problems.push(`  line ${row.line}: ${row.cells.length} cells where the first line names ${names.length} (a cell holding the separator must be quoted: "…")`);
  }
  if (unclosed !== null) problems.push(`  line ${unclosed}: a quote opens a cell there and is never closed`);
  if (problems.length) throw new CLIError("invalid_document", `${name} is not a CSV of articles as replyd reads it; nothing was written`, 1, [...unknown, ...problems].slice(0, 50));
  const records: Record<string, unknown>[] = [];
  const lines: number[] = [];
  for (const row of rows) {
    // A blank line (a spreadsheet's last, or rows of empty cells): no article.
    if (blank(row)) continue;
    const record: Record<string, unknown> = {};
    names.forEach((n, i) => {
      const cell = (row.cells[i] ?? "").trim();
      if (!n) return;
      // An empty cell says nothing: the field is left out (a list field the article holds is kept by an import).
      if (cell === "") return;
      record[n] = SPLIT[n] ? cell.split(SPLIT[n] as RegExp).map((x) => x.trim()).filter(Boolean) : n === "deleted" ? /^(true|yes|y|1|是)$/i.test(cell) : cell;
    });
    records.push(record);
    lines.push(row.line);
  }
  const renamed = names.flatMap((field, i) => {
    const name = header.cells[i]?.trim() ?? "";
    return field && name.toLowerCase() !== field ? [{ column: i + 1, name: name.slice(0, 40), field }] : [];
  });
  return { records, lines, notes, renamed, unknown };
}

/** UTF-8 (its byte-order mark left out), else GB18030. */
function decode(bytes: Uint8Array): string {
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return new TextDecoder("gb18030").decode(bytes);
  }
}

/** RFC 4180 rows, each with the line it starts on; the separator the header line uses most; the line a quote left open starts on, if one is. */
function parse(text: string): { rows: { cells: string[]; line: number }[]; unclosed: number | null } {
  const firstLine = text.slice(0, text.search(/\r?\n|$/));
  const counts = [",", ";", "\t"].map((s) => ({ s, n: firstLine.split(s).length }));
  const sep = counts.sort((a, b) => b.n - a.n)[0]?.s ?? ",";
  const rows: { cells: string[]; line: number }[] = [];
  let cells: string[] = [];
  let cell = "";
  let quoted = false;
  let line = 1;
  let rowLine = 1;
  let openedAt = 0;
  const endRow = () => {
    cells.push(cell);
    rows.push({ cells, line: rowLine });
    cells = [];
    cell = "";
    rowLine = line;
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') (cell += '"'), i++;
      else if (c === '"') quoted = false;
      else {
        if (c === "\n") line++;
        cell += c;
      }
    } else if (c === '"' && cell === "") (quoted = true), (openedAt = line);
    else if (c === sep) cells.push(cell), (cell = "");
    else if (c === "\n" || c === "\r") {
      if (c === "\r" && text[i + 1] === "\n") i++;
      line++;
      endRow();
    } else cell += c;
  }
  const unclosed = quoted ? openedAt : null;
  if (cell !== "" || cells.length) endRow();
  return { rows, unclosed };
}
