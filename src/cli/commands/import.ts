import type { BulkDocument } from "../../doc/document.ts";
import { namedItems, type ImportResult as StoredImport } from "../../store/writer.ts";
import { defineCommand } from "../command.ts";
import type { CommandContext } from "../context.ts";
import { CLIError, olderServerSaid, usage } from "../errors.ts";
import { CODE } from "../../base/errors.ts";
import { memoryFile, openLocal } from "../files.ts";
import { CSV_MAX_BYTES, csvArticles } from "../csv.ts";
import { TAG_NAME_LINE, tagNames } from "../csv-tag-names.ts";
import { basename } from "node:path";
import { checkLocally, held } from "./local-document.ts";
import { confirm, otherAccountNote, whereOf } from "../confirm.ts";
import { LIMITS } from "../../article/text-rules.ts";

const QUESTIONS_MAX = LIMITS.questions;

/** What an import answers: the store's counts, and rules that now point at nothing. */
type ImportResult = StoredImport & { warnings?: string[] };

export async function importCmd(c: CommandContext): Promise<void> {
  const file = c.args[0];
  if (!file) throw usage("import needs a file: replyd import articles.json [--init]");
  // A spreadsheet's CSV: its rows as a bare array of articles, in memory, sent as any document.
  const csv = /\.(csv|tsv)$/i.test(file) ? csvAsDocument(c, file) : null;
  const asRead = csv ? <T>(work: () => T | Promise<T>) => csv.byLines(work) : <T>(work: () => T | Promise<T>) => work();
  const f = csv?.file ?? openLocal(c.io, file);
  try {
    const doc = await asRead(() => checkLocally(c, file, f));
    const mode = c.flags.init ? "init" : "merge";
    // Only when asked: a server before 0.2.26 knows no such field (and replaces them anyway).
    const replace = c.flags.replaceQuestions === true;
    const client = c.client();
    // What --init replaces is what the document holds of articles and tags (the rest it merges).
    const replaced = [doc.articles ? "every article" : "", doc.tags ? "the tag descriptions" : ""].filter(Boolean).join(" and ");
    const where = whereOf(client);
    if (mode === "init" && replaced) {
      const what = `${file} (${held(doc)})${otherAccountNote(c, client, file, doc.account)}`;
      await confirm(c, `Replace ${replaced} of ${where} with ${what}?${doc.articles ? " A backup of the current articles is taken first." : ""}`, `import --init replaces ${replaced} of ${where}`, "import cancelled; nothing was changed");
    } else {
      // A merge asks nothing, but another account's backup merged in (its texts, its articles) is
      // the wrong profile more often than a copy: asked, as --init and restore ask.
      const other = otherAccountNote(c, client, file, doc.account);
      const whose = other.replace(/^; it/, "");
      if (other) await confirm(c, `Merge ${file} (${held(doc)}) into ${where}? It${whose}.`, `${file}${whose}: merging it into ${where}`, "import cancelled; nothing was changed");
    }
    const r = await asRead(() =>
      olderServer(replace, () => namingFile(file, () =>
        client.call<ImportResult & { mode: string }>(
          { method: "POST", path: "/api/cli", fields: [["mode", mode], ...(replace ? [["questions", "replace"] as [string, string]] : [])], files: [{ name: "json", filename: f.name, file: f, type: "application/json" }] },
          "upload",
        ),
      )),
    );
    c.print(r, () => importReport(file, mode, doc, r, client.config.account, replace));
  } finally {
    f.close();
  }
}

/**
 * A server before 0.2.26 refuses the field --replace-questions sends: said as what it is — and that
 * such a server replaces a record's questions in a plain import already (a review).
 */
export async function olderServer<T>(replace: boolean, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (e) {
    throw replace ? olderServerSaid(e, "unknown_field", /\bquestions\b/, "0.2.26, which knows --replace-questions: leave it out — a server before 0.2.26 replaces an article's questions with a record's in any import (the report names what each article lost)") : e;
  }
}

/**
 * The server's refusal of the document names the file, as the checks made here do ("files/x.json:
 * the document is invalid …"): a code another article keeps is found only there, and had been told
 * without it (two walkthroughs, Session 52).
 */
async function namingFile<T>(file: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (e) {
    if (!(e instanceof CLIError) || e.code !== CODE.invalid_document || e.message.startsWith(`${file}: `)) throw e;
    throw new CLIError(e.code, `${file}: ${e.message}`, e.exitCode, e.detailLines);
  }
}

/**
 * `file` read as CSV (cli/csv.ts) into a document in memory, checked and sent as any. `byLine`
 * tells the problems found, here or by the server, by the CSV's lines ("line 7: title …") rather
 * than the array's places.
 */
function csvAsDocument(c: CommandContext, file: string) {
  const on = openLocal(c.io, file);
  let bytes: Uint8Array;
  try {
    // Before it is read: a CSV is read whole.
    if (on.size > CSV_MAX_BYTES) throw new CLIError("too_large", `${file} is ${on.size} bytes, more than a CSV file may be (${CSV_MAX_BYTES}): import it as a JSON document, read in pieces`);
    bytes = on.read(0, on.size);
  } finally {
    on.close();
  }
  const { records, lines, notes, renamed, unknown } = csvArticles(file, bytes);
  for (const n of notes) c.io.err(`replyd: note: column ${n.column} "${n.name}" is read as the sheet's own notes and not imported`);
  // A field the sheet heads otherwise is said by its column too: "tag" alone had named nothing the
  // sheet shows ("section" of a help centre's export: a bike share's walkthrough).
  const headed = new Map(renamed.map((r) => [r.field, ` (column ${r.column} "${r.name}")`]));
  // "record 3" in a repeat's reason is a record's place too: its line.
  const byLine = (s: string) =>
    s
      .replace(/articles\[(\d+)\]( \([a-z0-9_-]+\))?\.?([a-z]+)?/g, (_, i: string, id: string | undefined, field: string | undefined) => `line ${lines[Number(i)] ?? "?"}${id ?? ""}: ${field ? `${field}${headed.get(field) ?? ""}` : ""}`)
      .replace(/\bof record (\d+)\b/g, (_, i: string) => `of line ${lines[Number(i)] ?? "?"}`);
  // Tags' names where keys go: said once with a key for each, in place of a line per row (csv-tag-names.ts).
  const names = tagNames(records, lines, headed.get("tag") ?? "");
  const told = (detail: string[]) => (names && detail.some((l) => TAG_NAME_LINE.test(l)) ? [...names, ...detail.filter((l) => !TAG_NAME_LINE.test(l))] : detail);
  return {
    file: memoryFile(`${basename(file)}.json`, new TextEncoder().encode(JSON.stringify(records))),
    async byLines<T>(work: () => T | Promise<T>): Promise<T> {
      // Columns no field is named: refused with the rows' own problems, read without them, in one run.
      const refused = (rows: string[]) => new CLIError(CODE.invalid_document, `${file} is not a CSV of articles as replyd reads it; nothing was written`, 1, [...unknown, ...rows].slice(0, 50));
      let done: T;
      try {
        done = await work();
      } catch (e) {
        if (!(e instanceof CLIError)) throw e;
        if (unknown.length && e.code === CODE.invalid_document) throw refused(told(e.detailLines.map(byLine)));
        throw new CLIError(e.code, byLine(e.message), e.exitCode, told(e.detailLines.map(byLine)));
      }
      if (unknown.length) throw refused([]);
      return done;
    },
  };
}

/**
 * The updated articles named, each with the fields the file changed when the server says them
 * (0.2.28): "parking: body; hours: title, body and 3 more" — a body edited on the server, written over
 * by the file's, had read "1 updated (parking)" (a pet hospital's walkthrough).
 */
const updatedList = (ids: readonly string[], count: number, fields: Record<string, string[]> | undefined): string =>
  fields ? namedList(ids.map((id) => (fields[id]?.length ? `${id}: ${fields[id].join(", ")}` : id)), count, "; ") : namedList(ids, count);

/** The ids the server named of `count` articles: "a, b and 3 more". */
const namedList = (ids: readonly string[] | undefined, count: number, between = ", "): string => (ids ?? []).join(between) + (count > (ids ?? []).length ? ` and ${count - (ids ?? []).length} more` : "");

/**
 * Keywords or questions taught on the server (keywords+=, teach) that the file's records do not
 * list: said, with what each named article lost (a server before 0.2.24 sends the ids alone), so
 * they are not lost unnoticed and can be put back.
 */
function droppedLine(field: "keywords" | "questions", d: ImportResult["keywords_dropped"], replaced = false): string {
  const how = field === "keywords" ? "keywords+=" : "replyd teach or questions+=";
  return `${d.count} of the updated lost ${field} ${d.count === 1 ? "it" : "they"} held (${namedItems(d)}): ${d.count === 1 ? "its record lists" : "their records list"} others — if they were added on the server (${how}), put them in the file too, or leave "${field}" out of its records: a record without it keeps the article's${replaced ? "; an import without --replace-questions keeps them after the file's" : ""}`;
}

/**
 * A server of 0.2.26 on keeps the questions records do not list after the file's, and says which
 * among its warnings (a client before it prints those too: server/write-warnings.ts); what is said
 * here is what did not fit under the fifty an article may hold.
 */
function pastFiftyLine(r: ImportResult): string[] {
  const lost = r.questions_dropped;
  return lost?.count ? [`${lost.count} of the updated lost questions past the ${QUESTIONS_MAX} an article may hold (${namedItems(lost)}): the file's come first — put the ones to keep in the file in place of others`] : [];
}

/** What an import did, for each section the document held (a rules-only document reports its rules). */
function importReport(file: string, mode: string, doc: BulkDocument, r: ImportResult, account: string | undefined, replaced: boolean): string {
  const articles = doc.articles || mode === "init";
  const others = [
    // A document whose tags only remove ("tags": {"x": null}) gives none: said as removed alone, not "0 tag descriptions".
    ...(doc.tags && !(r.tags === 0 && doc.tagsRemoved?.length && mode === "merge") ? [`${r.tags} tag descriptions`] : []),
    // "tags": {"help": null} in a merge: the descriptions removed, and those it named that had none.
    ...(doc.tagsRemoved?.length && mode === "merge" && r.tags_removed
      ? [`${r.tags_removed.length} tag description${r.tags_removed.length === 1 ? "" : "s"} removed${r.tags_removed.length ? ` (${r.tags_removed.join(", ")})` : ""}${doc.tagsRemoved.length > r.tags_removed.length ? `; ${doc.tagsRemoved.filter((t) => !r.tags_removed.includes(t)).join(", ")} had none` : ""}`]
      : []),
    ...(doc.rules && r.rules ? [`rules: ${r.rules.added} added, ${r.rules.updated} updated, ${r.rules.unchanged} unchanged of ${doc.rules.length}`] : []),
    ...(doc.texts ? [`${r.texts} texts`] : []),
    ...(doc.synonyms && r.synonyms
      ? [`synonym groups: ${r.synonyms.added} added, ${r.synonyms.updated} updated, ${r.synonyms.unchanged} unchanged of ${doc.synonyms.length}${r.synonyms.added || r.synonyms.updated ? " (the passage index is rebuilt with them: replyd health)" : ""}`]
      : []),
  ];
  const head = articles
    ? `${r.added} added, ${r.updated} updated${r.updated && r.updated_ids?.length ? ` (${updatedList(r.updated_ids, r.updated, r.updated_fields)})` : ""}, ${r.unchanged} unchanged of ${r.total}${mode === "init" ? `; ${r.removed} the file does not hold removed` : ""}`
    : others.shift() ?? (r.menu ? "the menu" : "nothing: the document holds no articles, tags, rules, texts, menu or synonyms");
  return [
    `imported ${file}${account !== undefined ? ` into account ${account}` : ""} (${mode}): ${head}`,
    ...others.map((o) => `also ${o}`),
    ...(r.menu ? ["the document's menu was stored (not pushed: replyd menu push)"] : []),
    ...(r.undeleted ? [`${r.undeleted} of the updated${r.undeleted_ids?.length ? ` (${namedList(r.undeleted_ids, r.undeleted)})` : ""} ${r.undeleted === 1 ? "was" : "were"} deleted and ${r.undeleted === 1 ? "is" : "are"} live again (${r.undeleted === 1 ? "its record says" : "their records say"} nothing of "deleted": replyd rm deletes again, "deleted": true in a record keeps it deleted)`] : []),
    ...(r.deleted_now ? [`${r.deleted_now} of the updated${r.deleted_now_ids?.length ? ` (${namedList(r.deleted_now_ids, r.deleted_now)})` : ""} ${r.deleted_now === 1 ? "is" : "are"} deleted now (${r.deleted_now === 1 ? "its record says" : "their records say"} "deleted": followers no longer get ${r.deleted_now === 1 ? "it" : "them"}; replyd set ID --undelete brings one back)`] : []),
    ...(r.keywords_dropped?.count ? [droppedLine("keywords", r.keywords_dropped)] : []),
    // A server of 0.2.26 on keeps them unless --replace-questions, and its warnings say which (questions_kept).
    ...(r.questions_kept && !replaced ? pastFiftyLine(r) : r.questions_dropped?.count ? [droppedLine("questions", r.questions_dropped, replaced)] : []),
    ...(r.tag_dropped?.count
      ? [`${r.tag_dropped.count} of the updated lost ${r.tag_dropped.count === 1 ? "its" : "their"} tag (${namedList(r.tag_dropped.ids, r.tag_dropped.count)}): ${r.tag_dropped.count === 1 ? "its record gives" : "their records give"} none, and the tag's list no longer shows ${r.tag_dropped.count === 1 ? "it" : "them"} — give "tag" (a sheet's 标签 column) in the file to keep ${r.tag_dropped.count === 1 ? "it" : "them"} listed`]
      : []),
    ...(r.description_dropped?.count
      ? [`${r.description_dropped.count} of the updated lost ${r.description_dropped.count === 1 ? "its" : "their"} description (${namedList(r.description_dropped.ids, r.description_dropped.count)}): ${r.description_dropped.count === 1 ? "its record gives" : "their records give"} none (set on the server since the file was written?); a card shows the body's opening instead — put it in the file to keep it`]
      : []),
    // Said apart, not only among the updated's fields: "member: keywords and 2 more" had hidden a body set on the server and written over (two walkthroughs).
    ...(r.bodies_replaced?.count
      ? [`${r.bodies_replaced.count} of the updated had ${r.bodies_replaced.count === 1 ? "its" : "their"} body replaced by what the file gives (${namedList(r.bodies_replaced.ids, r.bodies_replaced.count)}; a record without a body empties it): an edit made on the server since the file was written (replyd set ID body=…) is written over — put it in the file to keep it`]
      : []),
    ...(r.synonyms?.dropped?.length
      ? [`synonym phrases the file's groups leave out, in no group now: ${r.synonyms.dropped.join(", ")} (added on the server since the file was written? put them in the file's group, or import them again)`]
      : []),
    ...(r.backup ? [`previous articles saved as backup ${r.backup.id}`] : []),
    ...(r.warnings ?? []).map((w) => `warning: ${w}`),
  ].join("\n");
}

export const importCommand = defineCommand({
  usage: "import <file>",
  summary: "bulk add articles from a document or a JSON array",
  description: "Adds and updates articles (and a document's tags, rules, texts, menu and synonyms) from a replyd document or a bare JSON array of articles, in any JSON layout, or a spreadsheet's CSV export named .csv or .tsv (its first line names the columns: id, code, title, url, keywords, body, …; an empty cell leaves the field out). The file is checked on the laptop with the server's rules first and sent from disk. The report names the articles updated, brought back, and those whose record drops keywords taught on the server; questions taught on the server (replyd teach) that a record does not list are kept after its own and named, unless --replace-questions. --init replaces all articles with the file's, after an automatic backup on the server; it asks first unless --yes (required without a terminal).",
  examples: ["replyd import articles.json", "replyd import faq.csv", "replyd import all.json --init", "replyd import all.json --init --yes"],
  options: [
    { flags: "--init", help: "replace all articles with the file's (asks first)" },
    { flags: "--yes", help: "with --init: do not ask for confirmation (required without a terminal)" },
    { flags: "--replace-questions", help: "a record listing questions replaces the article's: those taught on the server that it does not list are dropped (named); without it they are kept after the file's" },
  ],
  run: importCmd,
});
