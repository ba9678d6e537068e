import type { Article } from "../../article.ts";
import type { Param } from "../../sign.ts";
import type { CommandContext } from "../context.ts";
import { usage } from "../errors.ts";

const FIELDS = ["id", "code", "tag", "title", "description", "url", "picurl", "keywords", "rev"] as const;

/**
 * Article fields are given as `name=value` arguments (`title="Hello" url=https://…`): `--url` is
 * already the server address, and values stay text exactly as typed (cac would turn `007` into 7).
 */
function fieldsFrom(args: string[], allowed: readonly string[]): Param[] {
  return args.map((arg) => {
    const eq = arg.indexOf("=");
    const name = eq > 0 ? arg.slice(0, eq) : "";
    if (!allowed.includes(name)) throw usage(`"${arg}" is not a field=value; fields: ${allowed.join(", ")}`);
    return [name, arg.slice(eq + 1)] as Param;
  });
}

export function describe(a: Article): string {
  return [
    `id          ${a.id}${a.deleted ? "  (deleted)" : ""}`,
    `code        ${a.code ?? "-"}`,
    `tag         ${a.tag ?? "-"}`,
    `title       ${a.title}`,
    `description ${a.description || "-"}`,
    `url         ${a.url}`,
    `picurl      ${a.picurl ?? "-"}`,
    `keywords    ${a.keywords.length ? a.keywords.join(", ") : "-"}`,
    `rev         ${a.rev}`,
    `created     ${a.created_at}`,
    `updated     ${a.updated_at}`,
  ].join("\n");
}

export async function ls(c: CommandContext): Promise<void> {
  const fields: Param[] = [];
  const tag = c.str("--tag");
  const q = c.str("--q", "-q") ?? c.args.join(" ");
  const code = c.str("--code");
  if (code !== undefined) {
    const a = await c.client().call<Article>({ method: "GET", path: "/api/cli", fields: [["code", code]] });
    return c.print(a, () => describe(a));
  }
  if (tag !== undefined) fields.push(["tag", tag]);
  if (q || tag === undefined) fields.push(["q", q]);
  const deleted = c.str("--deleted");
  if (deleted !== undefined) fields.push(["deleted", deleted]);
  else if (c.flags.all) fields.push(["deleted", "all"]);
  fields.push(...c.paging());
  const page = await c.client().call<{ items: Article[]; total: number; limit: number; offset: number }>({ method: "GET", path: "/api/cli", fields });
  c.print(page, () => {
    if (!page.items.length) return page.total ? `no articles at offset ${page.offset} (of ${page.total})` : "no articles";
    // A column is as wide as its widest value up to a cap: a server's 1 MiB id is cut, not padded into every row.
    const cut = (v: string, max: number) => (v.length > max ? v.slice(0, max - 1) + "…" : v);
    const rows = page.items.map((a) => [cut(String(a.id), 64), cut(a.code ?? "-", 32), cut(a.tag ?? "-", 16), cut(String(a.rev), 12), cut((a.deleted ? "[deleted] " : "") + a.title, 200)]);
    const head = ["ID", "CODE", "TAG", "REV", "TITLE"];
    const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] as string).length)));
    const line = (r: string[]) => r.map((v, i) => (i < r.length - 1 ? v.padEnd(widths[i] as number) : v)).join("  ");
    const shown = `${page.offset + 1}–${page.offset + page.items.length} of ${page.total}`;
    return [line(head), ...rows.map(line), "", shown].join("\n");
  });
}

export async function show(c: CommandContext): Promise<void> {
  const id = c.args[0];
  if (!id) throw usage("show needs an article id");
  const a = await c.client().call<Article>({ method: "GET", path: "/api/cli", fields: [["id", id]] });
  c.print(a, () => describe(a));
}

export async function add(c: CommandContext): Promise<void> {
  const fields = fieldsFrom(c.args, FIELDS.filter((f) => f !== "rev"));
  if (!fields.some(([k]) => k === "title") || !fields.some(([k]) => k === "url")) throw usage('add needs at least title=… and url=…');
  const r = await c.client().call<{ article: Article }>({ method: "POST", path: "/api/cli", fields });
  c.print(r, () => `added ${r.article.id} (rev ${r.article.rev})\n${describe(r.article)}`);
}

export async function set(c: CommandContext): Promise<void> {
  const [id, ...rest] = c.args;
  if (!id) throw usage("set needs an article id");
  const fields: Param[] = [["id", id], ...fieldsFrom(rest, FIELDS.filter((f) => f !== "id"))];
  if (c.flags.undelete) fields.push(["deleted", "0"]);
  if (!fields.some(([k]) => k !== "id" && k !== "rev")) throw usage("set needs at least one field to change, e.g. title=… or --undelete");
  const r = await c.client().call<{ created: boolean; changed: boolean; article: Article }>({ method: "PUT", path: "/api/cli", fields });
  c.print(r, () =>
    r.created ? `created ${r.article.id} (rev 1)` : r.changed ? `revised ${r.article.id}: now rev ${r.article.rev}` : `unchanged ${r.article.id} (rev ${r.article.rev})`,
  );
}

export async function rm(c: CommandContext): Promise<void> {
  const id = c.args[0];
  if (!id) throw usage("rm needs an article id");
  const fields: Param[] = [["id", id]];
  if (c.flags.purge) fields.push(["purge", "1"]);
  const r = await c.client().call<{ purged: boolean; changed?: boolean }>({ method: "DELETE", path: "/api/cli", fields });
  c.print(r, () => (r.purged ? `purged ${id} for good` : r.changed ? `deleted ${id} (restore it with: replyd set ${id} --undelete)` : `${id} was already deleted`));
}
