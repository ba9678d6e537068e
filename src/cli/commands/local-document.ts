/**
 * What the transfer commands (import, backup, restore) share: a document read and checked on the
 * laptop before anything is sent, the matter an argument names, and what a document holds, counted.
 */
import { isMatter, MATTERS, type BulkDocument, type Matter } from "../../doc/document.ts";
import { readDocument } from "../../doc/reading.ts";
import type { CommandContext } from "../context.ts";
import { checkedLocally, CLIError, usage } from "../errors.ts";
import type { LocalFile } from "../files.ts";
import { Progress } from "../progress.ts";

export function matterArg(raw: string | undefined, fallback: Matter): Matter {
  if (raw === undefined) return fallback;
  if (!isMatter(raw)) throw usage(`unknown matter "${raw}"; expected one of ${MATTERS.join(", ")}`);
  return raw;
}

/**
 * Checks a document before it leaves the laptop, with the same rules the server applies, read from
 * disk in pieces (a document of any size, in any JSON layout, in bounded memory), with progress.
 */
export function checkLocally(c: CommandContext, label: string, f: LocalFile): BulkDocument {
  const progress = new Progress(c.io, `checking ${label}`, f.size);
  try {
    return checkedLocally(label, () => readDocument(f.source((at) => progress.update(at))));
  } catch (e) {
    throw e instanceof CLIError ? (asCsv(e, label, f) ?? withLine(e, f)) : e;
  } finally {
    progress.done();
  }
}

/**
 * A spreadsheet's CSV export given for a document (its first line a header such as id,title,url):
 * said so, with what to give instead, rather than the JSON parser's "Unexpected identifier".
 */
function asCsv(e: CLIError, label: string, f: LocalFile): CLIError | null {
  if (e.code !== "bad_json") return null;
  try {
    const head = new TextDecoder().decode(f.read(0, Math.min(f.size, 4096))).replace(/^\uFEFF/, "");
    const first = head.split(/\r?\n/, 1)[0] ?? "";
    const cells = first.split(/[,;\t]/).map((c) => c.trim().replace(/^"|"$/g, "").toLowerCase());
    if (cells.length < 2 || !cells.some((c) => c === "title" || c === "url" || c === "id")) return null;
    return new CLIError(
      "bad_json",
      `${label} looks like a spreadsheet's CSV export (its first line: ${first.slice(0, 80).replace(/\p{C}/gu, "?")}): give it a name ending .csv to import it as one, or give a JSON document (docs/data.md) [bad_json]`,
      e.exitCode,
    );
  } catch {
    return null;
  }
}

/**
 * "at byte 88" told as an editor shows it too: "(line 4, column 17)", read again from the file up to
 * it in pieces; the column in characters (code points), left out past COLUMN_BYTES of one line (a
 * document written on one line). The error as it was if the file cannot be read again.
 */
function withLine(e: CLIError, f: LocalFile): CLIError {
  const m = /at byte (\d+)/.exec(e.message);
  const at = m ? Number(m[1]) : NaN;
  if (!(at >= 0 && at <= f.size)) return e;
  try {
    let line = 1;
    let lineStart = 0;
    for (let pos = 0; pos < at; pos += CHUNK) {
      const bytes = f.read(pos, Math.min(CHUNK, at - pos));
      for (let i = bytes.indexOf(10); i >= 0; i = bytes.indexOf(10, i + 1)) {
        line++;
        lineStart = pos + i + 1;
      }
    }
    let where = `line ${line}`;
    if (at - lineStart <= COLUMN_BYTES) {
      // Characters before it, each counted at its first byte (a UTF-8 continuation byte is 10xxxxxx).
      const before = f.read(lineStart, at - lineStart);
      let chars = 0;
      for (const b of before) if ((b & 0xc0) !== 0x80) chars++;
      where += `, column ${chars + 1}`;
    }
    return new CLIError(e.code, e.message.replace(/at byte \d+/, (s) => `${s} (${where})`), e.exitCode, e.detailLines);
  } catch {
    return e;
  }
}

/** A line longer than this before the error gets no column: counting it would read it whole. */
const COLUMN_BYTES = 1 << 20;
const CHUNK = 1 << 20;

/** What a document holds, counted for a question or a report. */
export const held = (doc: BulkDocument) =>
  counts({
    articles: doc.articles?.count,
    tags: doc.tags && Object.keys(doc.tags).length,
    rules: doc.rules?.length,
    texts: doc.texts && Object.keys(doc.texts).length,
    menu: doc.menu === undefined ? undefined : doc.menu ? 1 : 0,
    synonyms: doc.synonyms?.length,
  });

export const counts = (r: Record<string, unknown>) =>
  [
    ...(["articles", "tags", "rules", "texts"] as const).filter((k) => typeof r[k] === "number").map((k) => `${r[k]} ${k}`),
    ...(typeof r.synonyms === "number" ? [`${r.synonyms} synonym group${r.synonyms === 1 ? "" : "s"}`] : []),
    // A backup counts the menu (0 or 1); a restore says what became of it.
    ...(typeof r.menu === "number" ? [r.menu ? "the menu" : "no menu"] : typeof r.menu === "string" ? [`menu ${r.menu}`] : []),
  ].join(", ");

export type HeldCounts = Partial<Record<"articles" | "tags" | "rules" | "texts" | "menu" | "synonyms", number>>;
