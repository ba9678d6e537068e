import { isMatter, MATTERS, requireSections, SECTIONS, type Matter } from "../doc/document.ts";
import { KeptBodies, readDocumentSliced } from "../doc/bodies.ts";
import { pushRestoredMenu } from "./menu.ts";
import { platformOf } from "./platform.ts";
import { badRequest, notFound } from "../base/errors.ts";
import type { SignedRequest } from "./auth.ts";
import type { AppContext } from "./context.ts";
import { accountWarnings, ruleWarnings, tagWarnings, toldCodeWarnings, toldCodes } from "./write-warnings.ts";
import { Fields } from "./fields.ts";
import { BODY_SHA256_HEADER } from "./respond.ts";

/** Only a known matter gets anywhere near the disk. */
export function matterOf(raw: string): Matter {
  if (!isMatter(raw)) throw badRequest(`unknown matter "${raw.slice(0, 64)}"; expected one of ${MATTERS.join(", ")}`, "bad_matter");
  return raw;
}

/** GET: list backups of the matter, newest first; with id= the backup document itself, or with held=1 what it holds. */
export async function getRevert(ctx: AppContext, matter: Matter, req: SignedRequest): Promise<unknown> {
  const f = new Fields(req.fields).only(["id", "held"]);
  const id = f.get("id");
  const held = f.bool("held") ?? false;
  if (id === undefined) {
    if (held) throw badRequest("held=1 needs the id= of a backup");
    return { matter, keep: ctx.write.keep, backups: await ctx.write.listBackups(matter) };
  }
  const info = await ctx.write.getBackup(matter, id);
  if (!info) throw notFound(`no ${matter} backup with id "${id}"`);
  if (held) return { id, matter, held: await heldBy(ctx, id) };
  // The answer's signature covers the document's bytes: hashed here a piece at a time, then sent
  // as a stream from the same open backup.
  const backup = await ctx.write.openBackup(id);
  const hasher = new Bun.CryptoHasher("sha256");
  const buf = new Uint8Array(256 * 1024);
  for (let at = 0; at < backup.size; ) {
    const n = backup.source.read(buf, 0, buf.length, at);
    if (n === 0) break;
    hasher.update(buf.subarray(0, n));
    at += n;
  }
  return new Response(backup.stream(), {
    headers: {
      "content-type": "application/json; charset=utf-8",
      "content-length": String(backup.size),
      "content-disposition": `attachment; filename="replyd-${id}.json"`,
      [BODY_SHA256_HEADER]: hasher.digest("hex"),
      ...(info.sha256 ? { "x-replyd-sha256": info.sha256 } : {}),
    },
  });
}

/**
 * What a server backup holds, counted as a restore would read it: so that the client can say,
 * before a restore --id is confirmed, what it brings back and whether it removes the stored menu.
 * `menu` is 1 (a menu), 0 (null: a restore removes the stored one) or absent (left as it is).
 */
async function heldBy(ctx: AppContext, id: string) {
  const backup = await ctx.write.openBackup(id);
  const bodies = new KeptBodies(ctx.read.spoolDir);
  try {
    const doc = await readDocumentSliced(backup.source, bodies);
    return {
      ...(doc.articles ? { articles: doc.articles.count } : {}),
      ...(doc.tags ? { tags: Object.keys(doc.tags).length } : {}),
      ...(doc.rules ? { rules: doc.rules.length } : {}),
      ...(doc.texts ? { texts: Object.keys(doc.texts).length } : {}),
      ...(doc.menu !== undefined ? { menu: doc.menu ? 1 : 0 } : {}),
      ...(doc.synonyms ? { synonyms: doc.synonyms.length } : {}),
    };
  } finally {
    bodies.close();
    backup.close();
  }
}

/** POST: a consistent snapshot of the matter, written on the server. */
export function postRevert(ctx: AppContext, matter: Matter, req: SignedRequest) {
  new Fields(req.fields).only([]);
  if (req.files.size) throw badRequest("a backup takes no file; to restore, PUT the document");
  return ctx.write.backup(matter);
}

/** PUT: replace the matter from an uploaded document (file part json) or a server backup (id=). */
export async function putRevert(ctx: AppContext, matter: Matter, req: SignedRequest) {
  const f = new Fields(req.fields).only(["id", "json", "push"]);
  const push = f.bool("push") ?? false;
  const file = req.files.get("json");
  const id = f.get("id");
  if (file && id !== undefined) throw badRequest("send either a json file part or id=, not both");
  if (!file && id === undefined) throw badRequest('a restore needs the document as a file part named "json" (or id= of a server backup)');
  if (id !== undefined && !(await ctx.write.getBackup(matter, id))) throw notFound(`no ${matter} backup with id "${id}"`);
  // Read from the file in pieces, now to check it and again while it is written: never whole in memory.
  const backup = file ? null : await ctx.write.openBackup(id as string);
  // Its bodies reduced a slice at a time, once: the write reads them back (doc/bodies.ts).
  const bodies = new KeptBodies(ctx.read.spoolDir);
  try {
    const doc = await readDocumentSliced(file ? file.source() : (backup as NonNullable<typeof backup>).source, bodies);
    requireSections(doc, matter);
    if (push) {
      if (!SECTIONS[matter].includes("menu") || doc.menu === undefined) throw badRequest(`push=1 pushes a restored menu, and this restore of "${matter}" brings none back`, "nothing_to_push");
      // Refused before anything is replaced: a restore asked to push must be able to.
      platformOf(ctx, "; restore without push");
    }
    const told = toldCodes(ctx);
    const restored = await ctx.write.restore(doc, matter);
    const result = { ...restored, warnings: [...accountWarnings(ctx, doc.account, "restored"), ...ruleWarnings(ctx), ...tagWarnings(ctx), ...toldCodeWarnings(ctx, told)] };
    // The restore stands either way; a push that fails is reported with it.
    return push ? { ...result, menu_push: await pushRestoredMenu(ctx) } : result;
  } finally {
    bodies.close();
    backup?.close();
  }
}

/** DELETE: remove one server backup. */
export async function deleteRevert(ctx: AppContext, matter: Matter, req: SignedRequest) {
  const id = new Fields(req.fields).only(["id"]).require("id");
  if (!(await ctx.write.getBackup(matter, id))) throw notFound(`no ${matter} backup with id "${id}"`);
  await ctx.write.removeBackup(id);
  return { deleted: id };
}
