import { CONTENT, LONG_FIELDS } from "../../article/fields.ts";
import { LIMITS, type Article, type ArticleSummary } from "../../article/article.ts";
import type { FilePart } from "../client.ts";
import { CLIError } from "../errors.ts";
import { openLocal } from "../files.ts";
import type { Param } from "../../sign.ts";
import type { CommandContext } from "../context.ts";
import { usage } from "../errors.ts";
import { cutColumns, table } from "../table.ts";
import { besideLines, leftLines, movedLines, type ListedBeside, type Moved } from "../moved-lines.ts";
import { defineCommand, PAGING } from "../command.ts";
import { didYouMean } from "../../base/suggest.ts";
import { confirm, whereOf } from "../confirm.ts";

/** What `add` and `set` take as name=value: the content fields (article/fields.ts) but flags, which commands set (rm, --undelete); id and rev. */
const FIELDS = ["id", ...CONTENT.filter((f) => f.kind !== "flag").map((f) => f.name), "rev"];

const isLong = (name: string) => (LONG_FIELDS as readonly string[]).includes(name);
/** The list fields (keywords, questions): given twice their values are joined, `name+=…` appends and `name-=…` takes away. */
const LISTS = CONTENT.filter((f) => f.kind === "words");
/** How a list's values are joined in a form field: questions (which may hold commas) one a line, the others by commas. */
const separator = (name: string) => (LISTS.some((f) => f.name === name && "lines" in f && f.lines) ? "\n" : ",");

/**
 * Article fields are given as `name=value` arguments (`title="Hello" url=https://…`): `--url` is
 * already the server address, and values stay text exactly as typed (cac would turn `007` into 7).
 * A long field (the body) goes as a file part, since the form's fields hold 64 KiB together:
 * `body=@notes.html` sends a file's bytes, `body=text` the text. A list given more than once is one
 * list (`questions="还能退吗" questions="I want my money back"`); with `appendable` (set),
 * `keywords+=x` adds to the article's list rather than replacing it (the server's `append=`), and
 * `questions-=x` takes x from it (`remove=`: a question taught by mistake undone).
 */
type ListEdit = "=" | "+=" | "-=";
function fieldsFrom(c: CommandContext, args: string[], allowed: readonly string[], appendable = false): { fields: Param[]; files: FilePart[] } {
  const fields: Param[] = [];
  const files: FilePart[] = [];
  const lists = new Map<string, { values: string[]; how: ListEdit }>();
  for (const arg of args) {
    const eq = arg.indexOf("=");
    const written = eq > 0 ? arg.slice(0, eq) : "";
    const how: ListEdit = written.endsWith("+") ? "+=" : written.endsWith("-") ? "-=" : "=";
    const name = how === "=" ? written : written.slice(0, -1);
    if (!allowed.includes(name)) throw usage(`"${arg}" is not a field=value${name ? didYouMean(name, allowed) : ""}; fields: ${allowed.join(", ")}`);
    const value = arg.slice(eq + 1);
    if (LISTS.some((f) => f.name === name)) {
      if (how !== "=" && !appendable) throw usage(`add sets a new article's lists whole: ${name}=…, not ${name}${how}…`);
      const list = lists.get(name) ?? { values: [], how };
      if (list.how !== how) throw usage(`${name} is given both with ${list.how} and with ${how} (= replaces the list, += adds to it, -= takes from it): one of them`);
      list.values.push(value);
      lists.set(name, list);
    } else if (how !== "=") throw usage(`only the lists (${LISTS.map((f) => f.name).join(", ")}) take += and -=; "${arg}"`);
    else if (!isLong(name)) fields.push([name, value]);
    else if (files.some((f) => f.name === name)) throw usage(`${name} is given twice`);
    else files.push(value.startsWith("@") ? longFile(c, name, value.slice(1)) : { name, filename: `${name}.txt`, bytes: new TextEncoder().encode(value), type: "text/plain; charset=utf-8" });
  }
  for (const [name, list] of lists) fields.push([name, list.values.join(separator(name))]);
  for (const [param, how] of [["append", "+="], ["remove", "-="]] as const) {
    const named = [...lists].filter(([, l]) => l.how === how).map(([name]) => name);
    if (named.length) fields.push([param, named.join(",")]);
  }
  return { fields, files };
}

/** A long field's file, read whole once its size is known to be one the server takes. */
function longFile(c: CommandContext, name: string, file: string): FilePart {
  const f = openLocal(c.io, file);
  try {
    if (f.size > LIMITS.bodyPart) throw new CLIError("too_large", `${file} holds ${f.size} bytes; a ${name} may be sent with at most ${LIMITS.bodyPart} (and is kept, its HTML reduced, at most ${LIMITS.body})`);
    return { name, filename: f.name, bytes: f.read(0, f.size), type: "text/plain; charset=utf-8" };
  } finally {
    f.close();
  }
}

/**
 * One article, a line per field in the table's order (flags said after the id; questions, which may
 * hold commas, one a line), a long field (the body) last, as paragraphs.
 */
export function describe(a: Article | ArticleSummary): string {
  const line = (label: string, value: string) => `${label.padEnd(11)} ${value}`;
  const shown = (v: unknown) => (Array.isArray(v) ? (v.length ? v.join(", ") : "-") : v === null || v === "" ? "-" : String(v));
  const full = a as Partial<Article>;
  const long = LONG_FIELDS.filter((name) => typeof full[name] === "string" && full[name] !== "");
  const fieldLines = (f: (typeof CONTENT)[number]) => {
    const v = full[f.name];
    if (!("lines" in f && f.lines) || !Array.isArray(v) || !v.length) return [line(f.name, shown(v))];
    return v.map((item, i) => line(i ? "" : f.name, String(item)));
  };
  return [
    line("id", `${a.id}${a.deleted ? "  (deleted)" : ""}`),
    ...CONTENT.filter((f) => f.kind !== "flag" && !isLong(f.name)).flatMap(fieldLines),
    line("rev", String(a.rev)),
    line("created", a.created_at),
    line("updated", a.updated_at),
    ...long.flatMap((name) => ["", `${name} (${Buffer.byteLength(full[name] as string)} bytes):`, full[name] as string]),
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
  const page = await c.client().call<{ items: ArticleSummary[]; total: number; limit: number; offset: number }>({ method: "GET", path: "/api/cli", fields });
  c.print(page, () => {
    if (!page.items.length) return page.total ? `no articles at offset ${page.offset} (of ${page.total})` : "no articles";
    // A column is as wide as its widest value up to a cap: a server's 1 MiB id is cut, not padded into every row.
    const rows = page.items.map((a) => [String(a.id), a.code ?? "-", a.tag ?? "-", String(a.rev), cutColumns((a.deleted ? "[deleted] " : "") + a.title, 200)]);
    const shown = `${page.offset + 1}–${page.offset + page.items.length} of ${page.total}`;
    return [...table([["ID", "CODE", "TAG", "REV", "TITLE"], ...rows], [{ max: 64 }, { max: 32 }, { max: 16 }, { max: 12 }]), "", shown].join("\n");
  });
}

export async function show(c: CommandContext): Promise<void> {
  const id = c.args[0];
  if (!id) throw usage("show needs an article id");
  const a = await c.client().call<Article>({ method: "GET", path: "/api/cli", fields: [["id", id]] });
  c.print(a, () => describe(a));
}

export async function add(c: CommandContext): Promise<void> {
  const { fields, files } = fieldsFrom(c, c.args, FIELDS.filter((f) => f !== "rev"));
  const missing = ["title", "url"].filter((need) => !fields.some(([k]) => k === need));
  if (missing.length) throw usage(`add needs at least title=… and url=…; ${missing.map((m) => `${m}=…`).join(" and ")} ${missing.length > 1 ? "are" : "is"} missing`);
  const client = c.client();
  const r = await client.call<{ article: Article; warnings?: string[]; moved?: Moved[]; moved_count?: number; listed_beside?: ListedBeside[]; listed_beside_count?: number }>({ method: "POST", path: "/api/cli", fields, ...(files.length ? { files } : {}) });
  // A server before 0.2.26 says nothing of the questions it now answers.
  // What it now answers and the warnings before the article itself, whose body may run long: read
  // through `| head`, they had been cut off (a pet hospital's walkthrough).
  c.print(r, () => [`added ${r.article.id}${client.inAccount} (rev ${r.article.rev})`, ...movedLines(r.moved, r.moved_count), ...besideLines(r.listed_beside, r.listed_beside_count), ...warningLines(r), describe(r.article)].join("\n"));
}

/** What the server warns of after a write (a tag followers cannot have listed), a line each. */
const warningLines = (r: { warnings?: unknown }) => (Array.isArray(r.warnings) ? r.warnings.filter((w): w is string => typeof w === "string").map((w) => `warning: ${w}`) : []);

export async function set(c: CommandContext): Promise<void> {
  const [id, ...rest] = c.args;
  if (!id) throw usage("set needs an article id");
  const given = fieldsFrom(c, rest, FIELDS.filter((f) => f !== "id"), true);
  // create=0: set revises; a mistyped id is refused ("no article …"), never made a new article.
  const fields: Param[] = [["id", id], ["create", "0"], ...given.fields];
  if (c.flags.undelete) fields.push(["deleted", "0"]);
  if (!given.files.length && !fields.some(([k]) => k !== "id" && k !== "rev" && k !== "create")) throw usage("set needs at least one field to change, e.g. title=… or --undelete");
  const client = c.client();
  const r = await client.call<{ created: boolean; changed: boolean; article: Article; warnings?: string[]; moved_from?: { seq: number; text: string; now: string | null }[]; moved_from_count?: number; moved?: Moved[]; moved_count?: number; listed_beside?: ListedBeside[]; listed_beside_count?: number }>({ method: "PUT", path: "/api/cli", fields, ...(given.files.length ? { files: given.files } : {}) });
  // After questions+= or keywords+= (a server from 0.2.18): what it now comes first for, as a teach says.
  c.print(r, () => [r.changed ? `revised ${r.article.id}${client.inAccount}: now rev ${r.article.rev}` : `unchanged ${r.article.id}${client.inAccount} (rev ${r.article.rev})`, ...movedLines(r.moved, r.moved_count), ...besideLines(r.listed_beside, r.listed_beside_count), ...leftLines(r.moved_from, r.moved_from_count), ...warningLines(r)].join("\n"));
}

export async function rm(c: CommandContext): Promise<void> {
  const id = c.args[0];
  if (!id) throw usage("rm needs an article id");
  const fields: Param[] = [["id", id]];
  const client = c.client();
  if (c.flags.purge) {
    fields.push(["purge", "1"]);
    // Named by its title, read first: an id mistyped for another article's is seen before it is gone (an unknown id is refused here).
    const a = await client.call<Article>({ method: "GET", path: "/api/cli", fields: [["id", id]] });
    const where = whereOf(client);
    await confirm(
      c,
      `Remove ${id} (${JSON.stringify(a.title)}${a.deleted ? ", deleted" : ""}) from ${where} for good? --undelete cannot bring it back; only a backup that holds it can.`,
      `rm --purge removes ${id} from ${where} for good`,
      "rm cancelled; nothing was changed",
    );
  }
  const r = await client.call<{ purged: boolean; changed?: boolean; article?: { questions?: string[] }; warnings?: string[] }>({ method: "DELETE", path: "/api/cli", fields });
  // Its taught questions now get the fallback (docs/answers.md "Teaching"): said where it happens.
  const taught = r.article?.questions?.length ?? 0;
  const afterwards = taught
    ? `\nits ${taught} question${taught === 1 ? "" : "s"} (taught or imported) now get${taught === 1 ? "s" : ""} the fallback and wait${taught === 1 ? "s" : ""} in the inbox: teach ${taught === 1 ? "it" : "them"} to another article (replyd teach SEQ ARTICLE); to leave ${taught === 1 ? "it" : "them"} to the ranking instead, purge the article (replyd rm ${id} --purge: gone for good, back only from a backup)`
    : "";
  const whose = client.inAccount;
  c.print(r, () =>
    [r.purged ? `purged ${id}${whose} for good` : r.changed ? `deleted ${id}${whose} (restore it with: replyd set ${id} --undelete)${afterwards}` : `${id} was already deleted${whose}`, ...warningLines(r)].join("\n"),
  );
}

export const lsCommand = defineCommand({
  usage: "ls [...words]",
  summary: "list articles (all, or matching words)",
  description: "Lists the live articles by tag, then code (those without a tag last), or those whose title, description, keywords or code hold every word given. --deleted all or --all includes the soft-deleted; --code shows the one live article with that code.",
  examples: ["replyd ls", "replyd ls refund policy", "replyd ls --tag fv --limit 50", "replyd ls --json --limit 1000 > articles.json"],
  options: [
    { flags: "--tag <tag>", help: "only this tag" },
    { flags: "--code <code>", help: "the live article with this code" },
    { flags: "-q, --q <words>", help: "words in title, description, keywords or code" },
    { flags: "--deleted <which>", help: "live (default), all or only" },
    { flags: "--all", help: "include deleted articles" },
    ...PAGING,
  ],
  run: ls,
});

export const showCommand = defineCommand({
  usage: "show <id>",
  summary: "show one article",
  description: "Shows one article by its id, every field, soft-deleted ones too.",
  examples: ["replyd show fv-3", "replyd show fv-3 --json"],
  run: show,
});

export const addCommand = defineCommand({
  usage: "add [...fields]",
  summary: `add one article: title=… url=… [${FIELDS.filter((f) => f !== "rev" && f !== "title" && f !== "url").map((f) => `${f}=`).join(" ")}]`,
  description:
    "Adds one article from name=value fields (values stay text as typed; keywords comma-separated; questions, the phrasings followers use that it answers, one per questions=…; body=@FILE reads the body from a file, plain text or HTML, which the server reduces to text). Refused when the id or the live code is taken; without an id, one is made from the code or at random.",
  examples: [
    'replyd add code=007 title="Bond" url=https://example.com/007 keywords=spy,classic',
    'replyd add title="Refunds" url=https://example.com/refunds body=@refunds.html questions="还能退吗" questions="I want my money back"',
  ],
  run: add,
});

export const setCommand = defineCommand({
  usage: "set <id> [...fields]",
  summary: "revise an article: only the fields given change (rev=N: only if still at rev N); an unknown id is refused",
  description:
    "Revises the fields given and nothing else. A list (keywords, questions) given with = replaces the article's; with += its values are added to it, those it holds already (in any case) skipped; with -= its values are taken from it (a question taught by mistake: in any case and punctuation at its ends, as a follower's message meets it), one it does not hold refused. rev=N makes it conditional: refused when someone changed the article since you read it at rev N. An id that does not exist is refused (no article …), never made a new article: replyd add makes one.",
  examples: [
    'replyd set fv-3 title="Founder\'s view, part 3" rev=1',
    "replyd set fv-3 body=@fv-3.txt",
    'replyd set refund keywords+=退货 questions+="can I send it back?"',
    'replyd set contact questions-="how do i get rid of an old TV"',
    "replyd set fv-3 --undelete",
  ],
  options: [{ flags: "--undelete", help: "bring a deleted article back" }],
  run: set,
});

export const rmCommand = defineCommand({
  usage: "rm <id>",
  summary: "delete an article (restorable)",
  description: "Soft-deletes an article: followers no longer get it, backups keep it, `replyd set ID --undelete` brings it back. --purge removes it for good, after asking (--yes answers for you, and is required without a terminal).",
  examples: ["replyd rm 007", "replyd rm 007 --purge", "replyd rm 007 --purge --yes"],
  options: [
    { flags: "--purge", help: "remove it for good (asks first)" },
    { flags: "--yes", help: "with --purge: do not ask for confirmation (required without a terminal)" },
  ],
  run: rm,
});
