import { rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { MATTERS } from "../../doc/document.ts";
import { BACKUP_ID, type BackupInfo } from "../../store/backup-ids.ts";
import { formatBytes } from "../args.ts";
import { defineCommand } from "../command.ts";
import type { CommandContext } from "../context.ts";
import { CLIError, usage } from "../errors.ts";
import { checkFolder, checkTarget, openLocal, placeFile } from "../files.ts";
import { table } from "../table.ts";
import { checkLocally, counts, held, matterArg } from "./local-document.ts";

/** The backup to download: one taken now (counts from the server), or one the server keeps (--id). */
type Wanted = BackupInfo & { counts?: Record<string, number> };

/** The server backup `id` of `matter`, as the server lists it (its sha256 is what the download is checked against). */
async function kept(client: ReturnType<CommandContext["client"]>, matter: string, id: string): Promise<Wanted> {
  const { backups } = await client.call<{ backups: BackupInfo[] }>({ method: "GET", path: `/api/cli/revert/${matter}` });
  const info = backups.find((b) => b.id === id);
  const account = client.config.account;
  if (!info) throw new CLIError("not_found", `no ${matter} backup with id "${id}"${account !== undefined ? ` in account ${account}` : ""} (replyd backups lists them); nothing was written`);
  return info;
}

/**
 * Snapshot on the server, then download it (or, with --id, download one the server keeps: what a
 * read key can do, as it may not take one). The server's answers are signed, so the download is
 * authenticated, not only complete. The file goes where the operator said (-o) or, named from an
 * id of the documented shape, into the current folder; it is checked whole (signature, document,
 * sha256) in a temp file before it takes its name, and an existing file is never replaced without
 * --force. On any failure, Ctrl-C included, nothing is left behind.
 */
export async function backup(c: CommandContext): Promise<void> {
  const id = c.str("--id");
  if (id !== undefined && !BACKUP_ID.test(id)) throw usage(`--id must be a backup id as replyd backups lists them (all-20261121T100000123Z-manual-k2x9); "${id.slice(0, 80)}" given`);
  const idMatter = id?.split("-")[0];
  if (id !== undefined && c.args[0] !== undefined && c.args[0] !== idMatter) throw usage(`--id ${id} is a backup of ${idMatter}, not ${c.args[0]}`);
  const matter = matterArg(idMatter ?? c.args[0], "all");
  const output = c.str("-o", "--output");
  const toStdout = output === "-";
  const chosen = output !== undefined && !toStdout ? resolve(c.io.cwd, output) : null;
  // Before the server is asked: every backup it takes counts against --keep, so a run that could
  // not save one must not leave one there (each refused retry once took one more).
  const untaken = id === undefined ? "no backup was taken on the server" : "nothing was downloaded";
  if (chosen) checkTarget(chosen, Boolean(c.flags.force), untaken);
  else checkFolder(toStdout ? tmpdir() : c.io.cwd, untaken);
  const client = c.client();
  const info: Wanted = id !== undefined ? await kept(client, matter, id) : await client.call<Wanted>({ method: "POST", path: `/api/cli/revert/${matter}` });
  if (typeof info.id !== "string" || !BACKUP_ID.test(info.id) || !info.id.startsWith(`${matter}-`))
    throw new CLIError("bad_response", `the server named its backup ${JSON.stringify(String(info.id).slice(0, 80))}, which is not a backup id; nothing was written`);
  // On a server of several accounts the file is named for the account too, as the document names it (data.md).
  const account = client.config.account;
  const target = toStdout ? "-" : (chosen ?? join(c.io.cwd, `replyd-${account !== undefined ? `${account}-` : ""}${info.id}.json`));
  let what = info.counts ? counts(info.counts) : "";
  const got = await client.download({ method: "GET", path: `/api/cli/revert/${matter}`, fields: [["id", info.id]] }, toStdout ? tmpdir() : dirname(target), "download");
  try {
    // The file must be the document the server just hashed, whole.
    const f = openLocal(c.io, got.tmp);
    try {
      const doc = checkLocally(c, toStdout ? "the download" : target, f);
      // The sha256 the server answered (a backup taken now) or listed (PostgreSQL keeps it beside the document).
      if (doc.sha256 !== info.sha256) throw new CLIError("checksum_mismatch", `the downloaded backup does not match the server's sha256 (${info.sha256}); nothing was written`);
      what ||= `${held(doc)} (${info.kind}, taken ${info.created_at})`;
      // Standard output gets the document only once it is checked whole; the report goes to stderr.
      if (toStdout) for (let at = 0; at < f.size; ) at += write(c, f.read(at, 1 << 20));
    } finally {
      f.close();
    }
  } catch (e) {
    rmSync(got.tmp, { force: true });
    throw e;
  }
  const report = `backup ${info.id}: ${what}`;
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

export const backupCommand = defineCommand({
  usage: "backup [matter]",
  summary: "back up all|articles|rules|texts|menu|synonyms on the server, then download it",
  description:
    "Takes a backup on the server and downloads it, checked whole (its signature, the document, its sha256) before it takes its name; --id downloads one the server keeps instead (replyd backups lists them; a read key may). An existing file is never replaced without --force; -o - writes the document to standard output.",
  examples: ["replyd backup", "replyd backup articles -o before.json", "replyd backup all -o - | gzip > all.json.gz", "replyd backup --id all-20261121T100000123Z-auto-k2x9"],
  options: [
    { flags: "--id <id>", help: "download this server backup instead of taking one" },
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
