import { requireSections, type Matter } from "../../doc/document.ts";
import type { RestoreResult } from "../../store/writer.ts";
import { defineCommand } from "../command.ts";
import type { CommandContext } from "../context.ts";
import { CLIError, usage } from "../errors.ts";
import { openLocal, type LocalFile } from "../files.ts";
import { confirm, otherAccountNote, whereOf } from "../confirm.ts";
import { checkLocally, counts, held, matterArg, type HeldCounts } from "./local-document.ts";

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

/** The server backups' ids as `replyd backups` lists them: all-20261121T100000123Z-auto-k2x9. */
const BACKUP_ID = /^[a-z]+-\d{8}T\d{6,9}Z-[a-z0-9-]+$/;

/** `file` opened; when there is none and it is named as a server backup is, said so (an operator passed `replyd backups`'s id as the file: an airport's walkthrough). */
function openedOrBackupId(c: CommandContext, file: string): LocalFile {
  try {
    return openLocal(c.io, file);
  } catch (e) {
    if (e instanceof CLIError && e.code === "no_file" && BACKUP_ID.test(file)) throw new CLIError("no_file", `${e.message}; "${file}" is named as a server backup is: replyd restore --id ${file}`);
    throw e;
  }
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
      local = openedOrBackupId(c, file);
      const doc = checkLocally(c, file, local);
      matter = matterArg(c.str("--matter"), doc.matter);
      try {
        requireSections(doc, matter);
      } catch (e) {
        throw new CLIError("matter_mismatch", (e as Error).message);
      }
      summary = `${file} (${held(doc)})${otherAccountNote(c, client, file, doc.account)}`;
      if (doc.menu === null) summary += await menuRemoval(c, matter);
    } else {
      matter = matterArg(c.str("--matter"), (serverId as string).split("-")[0] as Matter);
      const backup = await client.call<{ held: HeldCounts }>({ method: "GET", path: `/api/cli/revert/${matter}`, fields: [["id", serverId as string], ["held", "1"]] });
      summary = `server backup ${serverId} (${counts(backup.held)})`;
      if (backup.held.menu === 0) summary += await menuRemoval(c, matter);
    }
    const where = whereOf(client);
    await confirm(c, `Replace ${matter} of ${where} with ${summary}? A backup of the current state is taken first.`, `restore replaces ${matter} of ${where}`, "restore cancelled; nothing was changed");
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
