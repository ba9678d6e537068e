import { KeptBodies, menuFromBytesSliced } from "../doc/bodies.ts";
import { badRequest, notFound, ReplydError } from "../base/errors.ts";
import { ANSWERED_TYPES, buttons, type Menu } from "../doc/menu.ts";
import { deleteLiveMenu, pullMenu, pushMenu } from "../wechat/platform/menus.ts";
import type { SignedRequest } from "./auth.ts";
import type { AppContext } from "./context.ts";
import { Fields } from "./fields.ts";
import { onPlatform, platformOf } from "./platform.ts";

/**
 * /api/cli/menu, the method naming the action (docs/protocol.md): GET shows the stored menu (live=1:
 * the platform's, read and converted, not stored); PUT stores one (a json file part, pushed first
 * unless push=0; or pull=1: the live menu); POST pushes the stored menu; DELETE removes it, from the
 * platform too unless keep_live=1.
 */

/** Buttons whose key no rule answers: a follower who presses one gets the fallback text. */
export async function menuWarnings(ctx: AppContext, menu: Menu | null): Promise<string[]> {
  if (!menu) return [];
  const warnings: string[] = [];
  for (const { button, path } of buttons(menu)) {
    if (!button.type || !ANSWERED_TYPES.has(button.type) || !button.key) continue;
    if (!(await ctx.rules.ruleFor(button.key, true)))
      warnings.push(`${path} "${button.name}": no rule answers key "${button.key}"; followers who press it get the fallback text`);
  }
  return warnings;
}

const shown = (ctx: AppContext) => {
  const s = ctx.read.content.menu();
  return { menu: s?.menu ?? null, updated_at: s?.updated_at ?? null, pushed_at: s?.pushed_at ?? null };
};

export async function getMenu(ctx: AppContext, req: SignedRequest) {
  const f = new Fields(req.fields).only(["live"]);
  if (f.bool("live")) {
    const platform = platformOf(ctx);
    const pulled = await onPlatform("the live menu could not be read", () => pullMenu(platform));
    return { live: pulled.menu, as_live: pulled.asLive, rules: pulled.rules, warnings: pulled.warnings };
  }
  const s = shown(ctx);
  return { ...s, warnings: await menuWarnings(ctx, s.menu) };
}

/** Menu changes one at a time on every instance: two pushes racing could leave the platform with one menu and the store with the other. */
const serially =
  <A extends unknown[], T>(fn: (ctx: AppContext, ...args: A) => Promise<T>) =>
  (ctx: AppContext, ...args: A) =>
    ctx.write.exclusive("menu", () => fn(ctx, ...args));

/**
 * Stores what the platform now has (a menu it took, or none after a delete). If that fails (a full
 * disk), the answer must say the platform changed: "nothing was written" would be untrue.
 */
async function storePushed(ctx: AppContext, menu: Menu | null, platformChanged: boolean) {
  try {
    return await ctx.write.saveMenu(menu, { pushed: platformChanged && menu !== null });
  } catch (e) {
    if (!platformChanged) throw e;
    const what = menu ? "the platform took the menu, but it could not be stored" : "the platform's menu was deleted, but the stored one could not be removed";
    throw new ReplydError("not_stored", `${what} (${(e as Error).message}); run the command again once the data folder can be written`);
  }
}

export const putMenu = serially(async (ctx: AppContext, req: SignedRequest) => {
  const f = new Fields(req.fields).only(["json", "push", "pull"]);
  const file = req.files.get("json");
  const unexpected = [...req.files.keys()].filter((k) => k !== "json");
  if (unexpected.length) throw badRequest(`unexpected file part: ${unexpected.join(", ")}`);
  if (f.bool("pull")) {
    if (file || f.has("push")) throw badRequest("pull=1 stores the live menu as it is: send no file and no push");
    const platform = platformOf(ctx);
    const pulled = await onPlatform("the live menu could not be read", () => pullMenu(platform, ctx.read.content.rules()), "; nothing was stored");
    if (!pulled.menu) throw notFound("the account has no menu open on the platform; nothing was stored", "no_live_menu");
    const saved = await ctx.write.saveMenu(pulled.menu, { pushed: pulled.asLive, rules: pulled.rules });
    return {
      ...shown(ctx),
      pulled: true,
      rules_added: pulled.rules.map((r) => r.id),
      ...(saved.backup ? { backup: saved.backup } : {}),
      ...(saved.rulesBackup ? { rules_backup: saved.rulesBackup } : {}),
      warnings: [...pulled.warnings, ...(await menuWarnings(ctx, pulled.menu))],
    };
  }
  if (!file) throw badRequest('a menu is a file part named "json" (or pull=1 for the live menu)');
  // A menu file may be a whole document: its articles' bodies are reduced a slice at a time.
  const bodies = new KeptBodies(ctx.read.spoolDir);
  let menu: Menu;
  try {
    menu = await menuFromBytesSliced(file.bytes(), bodies);
  } finally {
    bodies.close();
  }
  const push = f.bool("push") ?? true;
  if (push) {
    const platform = platformOf(ctx, "; to store the menu without pushing it, send push=0 (menu set --no-push)");
    // Pushed before it is stored: a menu the platform refuses (a url domain it does not allow, a
    // mini program not linked to the account) is not kept as if it were live.
    await onPlatform("the platform refused the menu", () => pushMenu(platform, menu), "; nothing was stored");
  }
  const saved = await storePushed(ctx, menu, push);
  return { ...shown(ctx), pushed: push, ...(saved.backup ? { backup: saved.backup } : {}), warnings: await menuWarnings(ctx, menu) };
});

export const postMenu = serially(async (ctx: AppContext, req: SignedRequest) => {
  new Fields(req.fields).only([]);
  if (req.files.size) throw badRequest("POST /api/cli/menu pushes the stored menu and takes no file; PUT stores one");
  const stored = ctx.read.content.menu();
  if (!stored) throw notFound("no menu is stored: set one (replyd menu set FILE) or pull the live one (replyd menu pull)", "no_menu");
  const platform = platformOf(ctx);
  await onPlatform("the platform refused the menu", () => pushMenu(platform, stored.menu));
  await storePushed(ctx, stored.menu, true);
  return { ...shown(ctx), pushed: true, warnings: await menuWarnings(ctx, stored.menu) };
});

export const deleteMenu = serially(async (ctx: AppContext, req: SignedRequest) => {
  const f = new Fields(req.fields).only(["keep_live"]);
  const keepLive = f.bool("keep_live") ?? false;
  const stored = ctx.read.content.menu();
  if (!keepLive) {
    const platform = platformOf(ctx, "; to remove the stored menu only, send keep_live=1 (menu rm --keep-live)");
    await onPlatform("the platform did not delete the menu", () => deleteLiveMenu(platform), "; nothing was removed");
  }
  const saved = stored ? await storePushed(ctx, null, !keepLive) : {};
  return { removed: stored !== null, live_deleted: !keepLive, ...(saved.backup ? { backup: saved.backup } : {}) };
});

/** After a restore that brought a menu back: push it (or delete the live one when the document had none). */
export async function pushRestoredMenu(ctx: AppContext): Promise<{ pushed: boolean; error?: string }> {
  const platform = platformOf(ctx, "; restore without push, then run replyd menu push");
  return ctx.write.exclusive("menu", () => pushStored(ctx, platform));
}

async function pushStored(ctx: AppContext, platform: ReturnType<typeof platformOf>): Promise<{ pushed: boolean; error?: string }> {
  const stored = ctx.read.content.menu();
  try {
    await onPlatform(stored ? "the platform refused the restored menu" : "the platform did not delete the menu", () =>
      stored ? pushMenu(platform, stored.menu) : deleteLiveMenu(platform),
    );
  } catch (e) {
    return { pushed: false, error: (e as Error).message };
  }
  if (stored) await ctx.write.saveMenu(stored.menu, { pushed: true });
  return { pushed: true };
}
