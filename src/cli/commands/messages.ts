import { basename } from "node:path";
import type { LoggedMessage } from "../../store/messages.ts";
import type { Param } from "../../sign.ts";
import type { StoredMedia } from "../../server/media.ts";
import { formatBytes } from "../args.ts";
import type { CommandContext } from "../context.ts";
import { usage } from "../errors.ts";
import { readLocal } from "../files.ts";

export async function inbox(c: CommandContext): Promise<void> {
  const fields: Param[] = [["inbox", c.flags.all ? "all" : "unmatched"], ...c.given("limit", "offset")];
  const page = await c.client().call<{ items: (LoggedMessage & { seq: number })[]; total: number }>({ method: "GET", path: "/api/cli", fields });
  c.print(page, () => {
    if (!page.items.length) return c.flags.all ? "no messages logged" : "nothing unmatched: every follower message found an answer";
    const rows = page.items.map((m) => `${m.received_at}  ${m.from_user.slice(0, 12).padEnd(12)}  ${m.answer.padEnd(10)}  ${m.type === "event" ? `[${m.event}] ` : m.type === "text" ? "" : `[${m.type}] `}${(m.content ?? "").replace(/\s+/g, " ")}`);
    return [...rows, "", `${page.items.length} of ${page.total}`].join("\n");
  });
}

export async function media(c: CommandContext): Promise<void> {
  const [action, file] = c.args;
  if (action !== "put" || !file) throw usage("media put FILE uploads an image and prints its URL");
  const { bytes } = readLocal(c.io, file);
  const r = await c.client().call<StoredMedia>({ method: "POST", path: "/api/cli", files: [{ name: "media", filename: basename(file), bytes }] }, "upload");
  c.print(r, () => `${r.url}\n(${r.type}, ${formatBytes(r.size)}${r.existed ? ", already uploaded" : ""}) — use it as picurl=${r.url}`);
}
