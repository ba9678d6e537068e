import { closeSync, fstatSync, openSync } from "node:fs";
import { isMatter, MATTERS, readDocument, requireSections, SECTIONS, type Matter } from "../doc.ts";
import { fdSource } from "../docbytes.ts";
import { pushRestoredMenu } from "./menu.ts";
import { platformOf } from "./platform.ts";
import { badRequest, notFound } from "../errors.ts";
import type { SignedRequest } from "./auth.ts";
import type { AppContext } from "./context.ts";
import { Fields } from "./fields.ts";
import { BODY_SHA256_HEADER } from "./respond.ts";

/** Only a known matter gets anywhere near the disk. */
export function matterOf(raw: string): Matter {
  if (!isMatter(raw)) throw badRequest(`unknown matter "${raw.slice(0, 64)}"; expected one of ${MATTERS.join(", ")}`, "bad_matter");
  return raw;
}

/** GET: list backups of the matter, newest first; with id= the backup document itself. */
export async function getRevert(ctx: AppContext, matter: Matter, req: SignedRequest): Promise<unknown> {
  const f = new Fields(req.fields).only(["id"]);
  const id = f.get("id");
  if (id === undefined) return { matter, keep: ctx.store.backups.keep, backups: ctx.store.backups.list(matter) };
  const info = ctx.store.backups.get(matter, id);
  if (!info) throw notFound(`no ${matter} backup with id "${id}"`);
  // The answer's signature covers the file's bytes: hashed here as a stream (chunk by chunk, the
  // event loop free between chunks), then sent from the file.
  const file = Bun.file(ctx.store.backups.pathOf(id));
  const hasher = new Bun.CryptoHasher("sha256");
  for await (const chunk of file.stream() as unknown as AsyncIterable<Uint8Array>) hasher.update(chunk);
  return new Response(file, {
    headers: {
      "content-type": "application/json; charset=utf-8",
      "content-disposition": `attachment; filename="replyd-${id}.json"`,
      [BODY_SHA256_HEADER]: hasher.digest("hex"),
      ...(info.sha256 ? { "x-replyd-sha256": info.sha256 } : {}),
    },
  });
}

/** POST: a consistent snapshot of the matter, written on the server. */
export function postRevert(ctx: AppContext, matter: Matter, req: SignedRequest) {
  new Fields(req.fields).only([]);
  if (req.files.size) throw badRequest("a backup takes no file; to restore, PUT the document");
  return ctx.store.backup(matter, "manual");
}

/** PUT: replace the matter from an uploaded document (file part json) or a server backup (id=). */
export async function putRevert(ctx: AppContext, matter: Matter, req: SignedRequest) {
  const f = new Fields(req.fields).only(["id", "json", "push"]);
  const push = f.bool("push") ?? false;
  const file = req.files.get("json");
  const id = f.get("id");
  if (file && id !== undefined) throw badRequest("send either a json file part or id=, not both");
  if (!file && id === undefined) throw badRequest('a restore needs the document as a file part named "json" (or id= of a server backup)');
  if (id !== undefined && !ctx.store.backups.get(matter, id)) throw notFound(`no ${matter} backup with id "${id}"`);
  // Read from the file in pieces, now to check it and again while it is written: never whole in memory.
  const fd = file ? null : openSync(ctx.store.backups.pathOf(id as string), "r");
  try {
    const doc = readDocument(file ? file.source() : fdSource(fd as number, fstatSync(fd as number).size));
    requireSections(doc, matter);
    if (push) {
      if (!SECTIONS[matter].includes("menu") || doc.menu === undefined) throw badRequest(`push=1 pushes a restored menu, and this restore of "${matter}" brings none back`, "nothing_to_push");
      // Refused before anything is replaced: a restore asked to push must be able to.
      platformOf(ctx, "; restore without push");
    }
    const result = ctx.store.restore(doc, matter);
    // The restore stands either way; a push that fails is reported with it.
    return push ? { ...result, menu_push: await pushRestoredMenu(ctx) } : result;
  } finally {
    if (fd !== null) closeSync(fd);
  }
}

/** DELETE: remove one server backup. */
export function deleteRevert(ctx: AppContext, matter: Matter, req: SignedRequest) {
  const id = new Fields(req.fields).only(["id"]).require("id");
  if (!ctx.store.backups.get(matter, id)) throw notFound(`no ${matter} backup with id "${id}"`);
  ctx.store.backups.remove(id);
  return { deleted: id };
}
