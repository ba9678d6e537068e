import { rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { isMatter, MATTERS, requireSections, type BulkDocument, type Matter } from "../../doc/document.ts";
import { readDocument } from "../../doc/reading.ts";
import { formatBytes } from "../args.ts";
import type { CommandContext } from "../context.ts";
import { checkedLocally, CLIError, usage } from "../errors.ts";
import { checkFolder, checkTarget, openLocal, placeFile, type LocalFile } from "../files.ts";
import { Progress } from "../progress.ts";
import { BACKUP_ID, type BackupInfo } from "../../store/backup-ids.ts";
import { type ImportResult as StoredImport, type RestoreResult } from "../../store/backend.ts";

/** What an import answers: the store's counts, and rules that now point at nothing. */
type ImportResult = StoredImport & { warnings?: string[] };
import { defineCommand } from "../command.ts";
import { table } from "../table.ts";

function matterArg(raw: string | undefined, fallback: Matter): Matter {
  if (raw === undefined) return fallback;
  if (!isMatter(raw)) throw usage(`unknown matter "${raw}"; expected one of ${MATTERS.join(", ")}`);
  return raw;
}

/**
 * Checks a document before it leaves the laptop, with the same rules the server applies, read from
 * disk in pieces (a document of any size, in any JSON layout, in bounded memory), with progress.
 */
function checkLocally(c: CommandContext, label: string, f: LocalFile): BulkDocument {
  const progress = new Progress(c.io, `checking ${label}`, f.size);
  try {
    return checkedLocally(label, () => readDocument(f.source((at) => progress.update(at))));
  } finally {
    progress.done();
  }
}

/** What a document holds, counted for a question or a report. */
const held = (doc: BulkDocument) =>
  counts({
    articles: doc.articles?.count,
    tags: doc.tags && Object.keys(doc.tags).length,
    rules: doc.rules?.length,
    texts: doc.texts && Object.keys(doc.texts).length,
    menu: doc.menu === undefined ? undefined : doc.menu ? 1 : 0,
    synonyms: doc.synonyms?.length,
  });

const counts = (r: Record<string, unknown>) =>
  [
    ...(["articles", "tags", "rules", "texts"] as const).filter((k) => typeof r[k] === "number").map((k) => `${r[k]} ${k}`),
    ...(typeof r.synonyms === "number" ? [`${r.synonyms} synonym group${r.synonyms === 1 ? "" : "s"}`] : []),
    // A backup counts the menu (0 or 1); a restore says what became of it.
    ...(typeof r.menu === "number" ? [r.menu ? "the menu" : "no menu"] : typeof r.menu === "string" ? [`menu ${r.menu}`] : []),
  ].join(", ");

export async function importCmd(c: CommandContext): Promise<void> {
  const file = c.args[0];
  if (!file) throw usage("import needs a file: replyd import articles.json [--init]");
  const f = openLocal(c.io, file);
  try {
    const doc = checkLocally(c, file, f);
    const mode = c.flags.init ? "init" : "merge";
    const r = await c
      .client()
      .call<ImportResult & { mode: string }>(
        { method: "POST", path: "/api/cli", fields: [["mode", mode]], files: [{ name: "json", filename: f.name, file: f, type: "application/json" }] },
        "upload",
      );
    c.print(r, () => importReport(file, mode, doc, r));
  } finally {
    f.close();
  }
}

/** What an import did, for each section the document held (a rules-only document reports its rules). */
function importReport(file: string, mode: string, doc: BulkDocument, r: ImportResult): string {
  const articles = doc.articles || mode === "init";
  const others = [
    ...(doc.tags ? [`${r.tags} tag descriptions`] : []),
    ...(doc.rules && r.rules ? [`rules: ${r.rules.added} added, ${r.rules.updated} updated, ${r.rules.unchanged} unchanged of ${doc.rules.length}`] : []),
    ...(doc.texts ? [`${r.texts} texts`] : []),
    ...(doc.synonyms && r.synonyms
      ? [`synonym groups: ${r.synonyms.added} added, ${r.synonyms.updated} updated, ${r.synonyms.unchanged} unchanged of ${doc.synonyms.length}${r.synonyms.added || r.synonyms.updated ? " (the passage index is rebuilt with them: replyd health)" : ""}`]
      : []),
  ];
  const head = articles
    ? `${r.added} added, ${r.updated} updated, ${r.unchanged} unchanged${mode === "init" ? `, ${r.removed} removed` : ""} of ${r.total}`
    : others.shift() ?? (r.menu ? "the menu" : "nothing: the document holds no articles, tags, rules, texts, menu or synonyms");
  return [
    `imported ${file} (${mode}): ${head}`,
    ...others.map((o) => `also ${o}`),
    ...(r.menu ? ["the document's menu was stored (not pushed: replyd menu push)"] : []),
    ...(r.backup ? [`previous articles saved as backup ${r.backup.id}`] : []),
    ...(r.warnings ?? []).map((w) => `warning: ${w}`),
  ].join("\n");
}

/**
 * Snapshot on the server, then download it. The server's answers are signed, so the download is
 * authenticated, not only complete. The file goes where the operator said (-o) or, named from an
 * id of the documented shape, into the current folder; it is checked whole (signature, document,
 * sha256) in a temp file before it takes its name, and an existing file is never replaced without
 * --force. On any failure, Ctrl-C included, nothing is left behind.
 */
export async function backup(c: CommandContext): Promise<void> {
  const matter = matterArg(c.args[0], "all");
  const output = c.str("-o", "--output");
  const toStdout = output === "-";
  const chosen = output !== undefined && !toStdout ? resolve(c.io.cwd, output) : null;
  // Before the server is asked: every backup it takes counts against --keep, so a run that could
  // not save one must not leave one there (each refused retry once took one more).
  const untaken = "no backup was taken on the server";
  if (chosen) checkTarget(chosen, Boolean(c.flags.force), untaken);
  else checkFolder(toStdout ? tmpdir() : c.io.cwd, untaken);
  const client = c.client();
  const info = await client.call<BackupInfo & { counts: Record<string, number> }>({ method: "POST", path: `/api/cli/revert/${matter}` });
  if (typeof info.id !== "string" || !BACKUP_ID.test(info.id) || !info.id.startsWith(`${matter}-`))
    throw new CLIError("bad_response", `the server named its backup ${JSON.stringify(String(info.id).slice(0, 80))}, which is not a backup id; nothing was written`);
  const target = toStdout ? "-" : (chosen ?? join(c.io.cwd, `replyd-${info.id}.json`));
  const got = await client.download({ method: "GET", path: `/api/cli/revert/${matter}`, fields: [["id", info.id]] }, toStdout ? tmpdir() : dirname(target), "download");
  try {
    // The file must be the document the server just hashed, whole.
    const f = openLocal(c.io, got.tmp);
    try {
      const doc = checkLocally(c, toStdout ? "the download" : target, f);
      if (doc.sha256 !== info.sha256) throw new CLIError("checksum_mismatch", `the downloaded backup does not match the server's sha256 (${info.sha256}); nothing was written`);
      // Standard output gets the document only once it is checked whole; the report goes to stderr.
      if (toStdout) for (let at = 0; at < f.size; ) at += write(c, f.read(at, 1 << 20));
    } finally {
      f.close();
    }
  } catch (e) {
    rmSync(got.tmp, { force: true });
    throw e;
  }
  const report = `backup ${info.id}: ${counts(info.counts)}`;
  if (toStdout) {
    rmSync(got.tmp, { force: true });
    return c.io.err(`${report}\nwrote it to standard output (${formatBytes(got.size)}, sha256 ${info.sha256}, signed by the server)`);
  }
  placeFile(got.tmp, target, Boolean(c.flags.force));
  c.print({ ...info, file: target }, () => `${report}\nsaved ${target} (${formatBytes(got.size)}, sha256 ${info.sha256}, signed by the server)`);
}

const write = (c: CommandContext, bytes: Uint8Array) => {
  c.io.raw(bytes);
  return bytes.length || Infinity;
};

export async function backups(c: CommandContext): Promise<void> {
  const matters = c.args[0] ? [matterArg(c.args[0], "all")] : MATTERS;
  const client = c.client();
  const all: BackupInfo[] = [];
  for (const m of matters) all.push(...(await client.call<{ backups: BackupInfo[] }>({ method: "GET", path: `/api/cli/revert/${m}` })).backups);
  all.sort((a, b) => (a.created_at < b.created_at ? 1 : -1));
  c.print(all, () => (all.length ? table(all.map((b) => [b.id, b.kind, formatBytes(b.size), b.created_at]), [{ max: 72 }, {}, { right: true }]).join("\n") : "no backups"));
}

type HeldCounts = Partial<Record<"articles" | "tags" | "rules" | "texts" | "menu" | "synonyms", number>>;

/**
 * A document whose menu is null removes the one stored: said before, while it can still be declined
 * (on standard error with --yes, where nothing is asked). Empty when no menu is stored to remove.
 */
async function menuRemoval(c: CommandContext, matter: Matter): Promise<string> {
  if (matter !== "all" && matter !== "menu") return "";
  const stored = await c.client().call<{ menu: unknown }>({ method: "GET", path: "/api/cli/menu" });
  if (!stored.menu) return "";
  if (c.flags.yes) c.io.err("replyd: restoring removes the menu stored on the server (the platform's live menu is not changed)");
  return "; this removes the menu stored on the server (the platform's live menu is not changed)";
}

export async function restore(c: CommandContext): Promise<void> {
  const file = c.args[0];
  const serverId = c.str("--id");
  if (!file && !serverId) throw usage("restore needs a file (or --id of a server backup): replyd restore backup.json [--matter m] [--yes]");
  if (file && serverId) throw usage("give a file or --id, not both");
  const client = c.client();
  let matter: Matter;
  let summary: string;
  let local: LocalFile | undefined;
  try {
    if (file) {
      local = openLocal(c.io, file);
      const doc = checkLocally(c, file, local);
      matter = matterArg(c.str("--matter"), doc.matter);
      try {
        requireSections(doc, matter);
      } catch (e) {
        throw new CLIError("matter_mismatch", (e as Error).message);
      }
      summary = `${file} (${held(doc)})`;
      if (doc.menu === null) summary += await menuRemoval(c, matter);
    } else {
      matter = matterArg(c.str("--matter"), (serverId as string).split("-")[0] as Matter);
      const backup = await client.call<{ held: HeldCounts }>({ method: "GET", path: `/api/cli/revert/${matter}`, fields: [["id", serverId as string], ["held", "1"]] });
      summary = `server backup ${serverId} (${counts(backup.held)})`;
      if (backup.held.menu === 0) summary += await menuRemoval(c, matter);
    }
    if (!c.flags.yes) {
      if (!c.io.interactive) throw new CLIError("not_confirmed", `restore replaces ${matter} on ${client.config.url}; pass --yes to confirm without a terminal`);
      const answer = await c.io.ask(`Replace ${matter} on ${client.config.url} with ${summary}? A backup of the current state is taken first. [y/N] `);
      if (!/^y(es)?$/i.test(answer.trim())) throw new CLIError("not_confirmed", "restore cancelled; nothing was changed");
    }
    const push: [string, string][] = c.flags.push ? [["push", "1"]] : [];
    const r = await client.call<RestoreResult & { menu_push?: { pushed: boolean; error?: string }; warnings?: string[] }>(
      local
        ? { method: "PUT", path: `/api/cli/revert/${matter}`, fields: push, files: [{ name: "json", filename: local.name, file: local, type: "application/json" }] }
        : { method: "PUT", path: `/api/cli/revert/${matter}`, fields: [["id", serverId as string], ...push] },
      "upload",
    );
    c.print(r, () =>
      [
        `restored ${matter}: ${counts(r as unknown as Record<string, unknown>)}`,
        `the state before is saved as backup ${r.backup.id}`,
        ...(r.menu_push?.pushed ? ["the restored menu was pushed to the platform"] : []),
        ...(r.menu === "stored" && !r.menu_push ? ["the restored menu is stored, not pushed (replyd menu push, or restore --push)"] : []),
        ...(r.menu === "removed" ? ["the stored menu was removed (the document holds none); the platform's live menu is not changed — replyd menu --live shows it"] : []),
        ...(r.warnings ?? []).map((w) => `warning: ${w}`),
      ].join("\n"),
    );
    if (r.menu_push && !r.menu_push.pushed) throw new CLIError("push_failed", `restored, but the menu was not pushed: ${r.menu_push.error}`);
  } finally {
    local?.close();
  }
}

export const importCommand = defineCommand({
  usage: "import <file>",
  summary: "bulk add articles from a document or a JSON array",
  description: "Adds and updates articles (and a document's tags, rules, texts, menu and synonyms) from a replyd document or a bare JSON array of articles, in any JSON layout. The file is checked on the laptop with the server's rules first and sent from disk. --init replaces all articles with the file's, after an automatic backup on the server.",
  examples: ["replyd import articles.json", "replyd import all.json --init"],
  options: [{ flags: "--init", help: "replace all articles with the file's" }],
  run: importCmd,
});

export const backupCommand = defineCommand({
  usage: "backup [matter]",
  summary: "back up all|articles|rules|texts|menu|synonyms on the server, then download it",
  description: "Takes a backup on the server and downloads it, checked whole (its signature, the document, its sha256) before it takes its name. An existing file is never replaced without --force; -o - writes the document to standard output.",
  examples: ["replyd backup", "replyd backup articles -o before.json", "replyd backup all -o - | gzip > all.json.gz"],
  options: [
    { flags: "-o, --output <file>", help: "where to save it (- for standard output)" },
    { flags: "--force", help: "replace the file if it exists" },
  ],
  run: backup,
});

export const backupsCommand = defineCommand({
  usage: "backups [matter]",
  summary: "list server backups",
  description: "Lists the backups kept on the server, newest first: manual ones and the automatic ones taken before every restore and --init.",
  examples: ["replyd backups", "replyd backups articles --json"],
  run: backups,
});

export const restoreCommand = defineCommand({
  usage: "restore [file]",
  summary: "replace data on the server from a document",
  description: "Replaces a matter on the server with a local document's (or, with --id, a server backup's). Asks first unless --yes (required without a terminal); the server takes an automatic backup of what it replaces.",
  examples: ["replyd restore before.json", "replyd restore before.json --matter articles --yes", "replyd restore --id all-20261121T100000123Z-auto-k2x9 --yes"],
  options: [
    { flags: "--matter <matter>", help: "what to restore from it (default: the document's matter)" },
    { flags: "--id <backup>", help: "restore a server backup instead of a local file" },
    { flags: "--yes", help: "do not ask for confirmation" },
    { flags: "--push", help: "push the restored menu to the platform (matters all and menu)" },
  ],
  run: restore,
});
