/**
 * The account's menu on the platform: menu/create, menu/delete, and reading the live menu back.
 *
 * Reading uses get_current_selfmenu_info, the one endpoint that answers for menus made in the
 * console as well as through the API — switching an account over starts from a console menu.
 * Console buttons have kinds the API cannot create; each becomes the nearest API button and is
 * reported, so nothing is lost silently:
 * - text: a click button whose key a new rule answers with that text (menu-text-N);
 * - news (permanent material): a media_id button with the same media id;
 * - img, voice, video: the platform hands these out as temporary media (valid 3 days), which
 *   cannot be kept: a click button with its own key, named in a warning, for the operator to answer.
 */
import { validateMenu, type Menu, type MenuButton } from "../../doc/menu.ts";
import { InvalidDocumentError } from "../../base/errors.ts";
import { validateRule, type Rule } from "../../doc/rule.ts";
import { PlatformError, type TokenKeeper } from "./token.ts";

type Platform = Pick<TokenKeeper, "call">;

export async function pushMenu(platform: Platform, menu: Menu): Promise<void> {
  await platform.call("/cgi-bin/menu/create", menu);
}

export async function deleteLiveMenu(platform: Platform): Promise<void> {
  await platform.call("/cgi-bin/menu/delete");
}

export interface PulledMenu {
  /** null: the account has no menu open. */
  menu: Menu | null;
  /** Rules made for console text buttons (merged with the stored rules by id). */
  rules: Rule[];
  warnings: string[];
  /** The menu is the live one as it is (no console button had to change). */
  asLive: boolean;
}

interface SelfButton {
  type?: unknown;
  name?: unknown;
  key?: unknown;
  url?: unknown;
  value?: unknown;
  appid?: unknown;
  pagepath?: unknown;
  media_id?: unknown;
  article_id?: unknown;
  sub_button?: { list?: unknown } | unknown[];
}

const KEY_TYPES = new Set(["click", "scancode_push", "scancode_waitmsg", "pic_sysphoto", "pic_photo_or_album", "pic_weixin", "location_select"]);
const str = (v: unknown) => (typeof v === "string" ? v : undefined);

/**
 * The live menu, converted. `existing`: the rules stored now — a rule made for a console text
 * button never takes the id of an operator's rule that says something else (menu-text-1-2 instead).
 */
export async function pullMenu(platform: Platform, existing: readonly Rule[] = []): Promise<PulledMenu> {
  const held = new Map(existing.map((r) => [r.id, JSON.stringify(r)]));
  const freeId = (rule: Rule): Rule => {
    for (let k = 1; ; k++) {
      const id = k === 1 ? rule.id : `${rule.id}-${k}`;
      const candidate = { ...rule, id };
      const there = held.get(id);
      if (there === undefined || there === JSON.stringify(candidate)) {
        held.set(id, JSON.stringify(candidate));
        return candidate;
      }
    }
  };
  const info = await platform.call<{ is_menu_open?: unknown; selfmenu_info?: { button?: unknown } }>("/cgi-bin/get_current_selfmenu_info");
  const warnings: string[] = [];
  if (info.is_menu_open !== 1 || !Array.isArray(info.selfmenu_info?.button)) return { menu: null, rules: [], warnings, asLive: true };
  const rules: Rule[] = [];
  let changed = false;
  let n = 0;
  const convert = (b: SelfButton): MenuButton => {
    const name = str(b.name) ?? "";
    const subs = Array.isArray(b.sub_button) ? b.sub_button : (b.sub_button as { list?: unknown } | undefined)?.list;
    if (Array.isArray(subs) && subs.length) return { name, sub_button: subs.map((s) => convert(s as SelfButton)) };
    const type = str(b.type) ?? "";
    if (KEY_TYPES.has(type)) return { type: type as MenuButton["type"], name, key: str(b.key) ?? "" };
    switch (type) {
      case "view":
        return { type: "view", name, url: str(b.url) ?? "" };
      case "miniprogram":
        return { type: "miniprogram", name, url: str(b.url) ?? "", appid: str(b.appid) ?? "", pagepath: str(b.pagepath) ?? "" };
      case "media_id":
        return { type: "media_id", name, media_id: str(b.media_id) ?? str(b.value) ?? "" };
      case "article_id":
      case "article_view_limited":
        return { type, name, article_id: str(b.article_id) ?? str(b.value) ?? "" };
      case "news":
        changed = true;
        return { type: "media_id", name, media_id: str(b.value) ?? "" };
    }
    changed = true;
    const key = `replyd_menu_${++n}`;
    if (type === "text") {
      const { value: made } = validateRule({ id: `menu-text-${n}`, match: "exact", pattern: key, reply: { type: "text", text: str(b.value) ?? "" } }, 0);
      if (made) {
        const rule = freeId(made);
        rules.push(rule);
        warnings.push(`"${name}" answered a text set in the console: it is now a click button (key ${key}) answered by the new rule ${rule.id}`);
        return { type: "click", name, key };
      }
    }
    const what = type === "text" ? "a text replyd cannot keep as a rule" : type === "img" || type === "voice" || type === "video" ? `${type === "img" ? "an image" : `a ${type}`} chosen in the console (the platform hands it out as temporary media, which expires)` : `a button of kind "${type}"`;
    warnings.push(`"${name}" sent ${what}: it is now a click button with key ${key}; add a rule for that key, or make it a media_id button with permanent material`);
    return { type: "click", name, key };
  };
  const raw = { button: (info.selfmenu_info.button as SelfButton[]).map(convert) };
  const { value, problems } = validateMenu(raw);
  if (!value) throw new InvalidDocumentError(problems, "the live menu does not pass replyd's checks; nothing was stored");
  await conditionalMenus(platform, warnings);
  return { menu: value, rules, warnings, asLive: !changed };
}

/** Conditional (per-audience) menus are the platform's own; replyd keeps the default menu and says so. */
async function conditionalMenus(platform: Platform, warnings: string[]): Promise<void> {
  try {
    const got = await platform.call<{ conditionalmenu?: unknown }>("/cgi-bin/menu/get");
    const n = Array.isArray(got.conditionalmenu) ? got.conditionalmenu.length : 0;
    if (n) warnings.push(`the account also has ${n} conditional menu(s); replyd keeps the default menu only, and the platform drops conditional menus when the menu is deleted`);
  } catch (e) {
    // 46003: the menu was made in the console, so there are no API-made conditional menus either.
    if (!(e instanceof PlatformError && e.errcode === 46003)) throw e;
  }
}
