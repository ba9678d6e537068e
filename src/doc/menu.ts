/**
 * The account's custom menu (DESIGN §5, issue 13): stored in the platform's own `menu/create` shape
 * so that what an operator already has, what `menu/get` answers and what replyd pushes are one
 * format. Validated whole against the platform's documented rules before anything is stored.
 */
import { unknownField } from "../base/suggest.ts";
import { checkHttpUrl, NO_CONTROL, unprintable } from "../article/article.ts";
import { ProblemList, type Problem } from "../base/errors.ts";

export interface MenuButton {
  type?: ButtonType;
  name: string;
  key?: string;
  url?: string;
  media_id?: string;
  article_id?: string;
  appid?: string;
  pagepath?: string;
  sub_button?: MenuButton[];
}
export interface Menu {
  button: MenuButton[];
}

/** What each documented button type needs besides its name. */
export const BUTTON_TYPES = {
  click: ["key"],
  view: ["url"],
  scancode_push: ["key"],
  scancode_waitmsg: ["key"],
  pic_sysphoto: ["key"],
  pic_photo_or_album: ["key"],
  pic_weixin: ["key"],
  location_select: ["key"],
  media_id: ["media_id"],
  article_id: ["article_id"],
  article_view_limited: ["article_id"],
  miniprogram: ["url", "appid", "pagepath"],
} as const satisfies Record<string, readonly string[]>;
export type ButtonType = keyof typeof BUTTON_TYPES;
const VALUE_FIELDS = ["key", "url", "media_id", "article_id", "appid", "pagepath"] as const;

/** The platform's limits (menu/create), in UTF-8 bytes; media, article and page ids bounded by replyd. */
export const MENU_LIMITS = { top: 3, sub: 5, name: 16, subName: 60, key: 128, url: 1024, id: 128, pagepath: 1024 } as const;

const bytes = (s: string) => Buffer.byteLength(s, "utf8");

/** Checks a menu whole; answers it normalised (empty sub_button lists of leaf buttons dropped) or every problem. */
export function validateMenu(raw: unknown, section = "menu"): { value?: Menu; problems: Problem[] } {
  const problems = new ProblemList();
  const at = (field: string, reason: string) => problems.push({ section, field, reason });
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    at("(menu)", 'must be an object {"button": [...]}, as the platform\'s menu/create takes');
    return { problems: problems.listed };
  }
  const r = raw as Record<string, unknown>;
  for (const k of Object.keys(r)) if (k !== "button") at(k, "unknown field (a menu has only button)");
  if (!Array.isArray(r.button) || r.button.length < 1) {
    at("button", `must be a list of 1–${MENU_LIMITS.top} top buttons`);
    return { problems: problems.listed };
  }
  // Too many buttons is one problem among others: each is still checked, so one answer lists them all.
  if (r.button.length > MENU_LIMITS.top) at("button", `must be a list of 1–${MENU_LIMITS.top} top buttons (${r.button.length} given)`);
  const button = r.button.slice(0, 2 * MENU_LIMITS.top).map((b, i) => checkButton(b, `button[${i}]`, true, at));
  if (problems.length) return { problems: problems.listed };
  return { value: { button }, problems: [] };
}

function checkButton(raw: unknown, where: string, top: boolean, at: (field: string, reason: string) => void): MenuButton {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    at(where, "must be an object");
    return { name: "" };
  }
  const b = raw as Record<string, unknown>;
  const known = new Set(["type", "name", "sub_button", ...VALUE_FIELDS]);
  for (const k of Object.keys(b)) if (!known.has(k)) at(`${where}.${k}`, unknownField(k, known));
  const out: MenuButton = { name: typeof b.name === "string" ? b.name : "" };
  const nameMax = top ? MENU_LIMITS.name : MENU_LIMITS.subName;
  if (typeof b.name !== "string" || b.name.trim() === "") at(`${where}.name`, "is required");
  else if (bytes(b.name) > nameMax) at(`${where}.name`, `must be at most ${nameMax} bytes (${bytes(b.name)} given; a Chinese character is 3)`);
  else if (unprintable(b.name) || /[\r\n\t]/.test(b.name)) at(`${where}.name`, NO_CONTROL);

  const subs = Array.isArray(b.sub_button) ? b.sub_button : undefined;
  if (b.sub_button !== undefined && !subs) at(`${where}.sub_button`, "must be a list");
  // A top button either opens sub-buttons (and has no action of its own) or is an action.
  if (top && subs && subs.length > 0) {
    if (subs.length > MENU_LIMITS.sub) at(`${where}.sub_button`, `must hold 1–${MENU_LIMITS.sub} buttons (${subs.length} given)`);
    if (b.type !== undefined) at(`${where}.type`, "a button with sub-buttons has no type of its own");
    for (const f of VALUE_FIELDS) if (b[f] !== undefined) at(`${where}.${f}`, "a button with sub-buttons has no action of its own");
    out.sub_button = subs.slice(0, 2 * MENU_LIMITS.sub).map((s, i) => checkButton(s, `${where}.sub_button[${i}]`, false, at));
    return out;
  }
  if (!top && subs && subs.length > 0) at(`${where}.sub_button`, "sub-buttons cannot have sub-buttons of their own");

  if (typeof b.type !== "string" || !(b.type in BUTTON_TYPES)) {
    at(`${where}.type`, `must be one of ${Object.keys(BUTTON_TYPES).join(", ")}${top ? " (or give sub_button)" : ""}`);
    return out;
  }
  const type = b.type as ButtonType;
  out.type = type;
  const needs: readonly string[] = BUTTON_TYPES[type];
  for (const f of VALUE_FIELDS) {
    const v = b[f];
    if (!needs.includes(f)) {
      if (v !== undefined) at(`${where}.${f}`, `a ${type} button has no ${f}`);
      continue;
    }
    if (typeof v !== "string" || v.trim() === "") {
      at(`${where}.${f}`, `a ${type} button needs ${f}`);
      continue;
    }
    const problem = checkValue(f, v);
    if (problem) at(`${where}.${f}`, problem);
    else out[f] = v;
  }
  return out;
}

function checkValue(field: (typeof VALUE_FIELDS)[number], v: string): string | null {
  if (unprintable(v) || /[\r\n\t]/.test(v)) return NO_CONTROL;
  switch (field) {
    case "key":
      return bytes(v) > MENU_LIMITS.key ? `must be at most ${MENU_LIMITS.key} bytes` : null;
    case "url":
      return bytes(v) > MENU_LIMITS.url ? `must be at most ${MENU_LIMITS.url} bytes` : checkHttpUrl(v);
    case "appid":
      return /^wx[0-9a-f]{16}$/i.test(v) ? null : "must be a mini program's appid (wx and 16 hex digits)";
    case "pagepath":
      return bytes(v) > MENU_LIMITS.pagepath ? `must be at most ${MENU_LIMITS.pagepath} bytes` : null;
    default:
      return bytes(v) > MENU_LIMITS.id || /\s/.test(v) ? `must be one word of at most ${MENU_LIMITS.id} bytes` : null;
  }
}

/** Every button, with where it sits: top buttons and sub-buttons in order. */
export function* buttons(menu: Menu): Generator<{ button: MenuButton; path: string }> {
  for (const [i, b] of menu.button.entries()) {
    yield { button: b, path: `button[${i}]` };
    for (const [j, s] of (b.sub_button ?? []).entries()) yield { button: s, path: `button[${i}].sub_button[${j}]` };
  }
}

/** Buttons whose key the callback answers with a rule (the others report an event and wait for nothing). */
export const ANSWERED_TYPES: ReadonlySet<string> = new Set(["click", "scancode_waitmsg"]);
