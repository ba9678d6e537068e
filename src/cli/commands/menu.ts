import { basename } from "node:path";
import { type Menu, type MenuButton } from "../../doc/menu.ts";
import { menuFromBytes } from "../../doc/menu-file.ts";
import type { CommandContext } from "../context.ts";
import { checkedLocally, usage } from "../errors.ts";
import { readLocal } from "../files.ts";
import { padColumns } from "../io.ts";
import { defineCommand } from "../command.ts";

interface MenuAnswer {
  menu: Menu | null;
  updated_at: string | null;
  pushed_at: string | null;
  warnings: string[];
  pushed?: boolean;
  rules_added?: string[];
  backup?: { id: string };
  rules_backup?: { id: string };
}

const what = (b: MenuButton) =>
  b.type === "view" ? b.url : b.type === "miniprogram" ? `${b.appid} ${b.pagepath} (else ${b.url})` : (b.key ?? b.media_id ?? b.article_id ?? "");

/** The menu as a tree: each button with its kind and what it does. */
export function menuTree(menu: Menu): string[] {
  const lines: string[] = [];
  menu.button.forEach((b, i) => {
    const row = (at: string, x: MenuButton) => `${at.padEnd(8)}${padColumns(x.name, 24)}  ${(x.type ?? "").padEnd(20)}  ${what(x)}`;
    lines.push(b.sub_button ? `${i + 1}       ${b.name}` : row(`${i + 1}`, b));
    b.sub_button?.forEach((s, j) => lines.push(row(`  ${i + 1}.${j + 1}`, s)));
  });
  return lines;
}

const state = (r: MenuAnswer) =>
  r.menu ? `menu stored ${r.updated_at}; ${r.pushed_at ? `the platform has it (pushed ${r.pushed_at})` : "NOT on the platform since it changed: replyd menu push"}` : "no menu stored";

const report = (r: MenuAnswer, head: string[]) =>
  [...head, ...(r.menu ? menuTree(r.menu) : []), ...(r.backup ? [`the menu it replaced is kept as backup ${r.backup.id}`] : []), ...r.warnings.map((w) => `warning: ${w}`)].join("\n");

/** replyd menu [pull | set FILE | push | rm]: the account's menu, stored on the server and pushed to the platform. */
export async function menu(c: CommandContext): Promise<void> {
  const [action, file, ...extra] = c.args;
  if (extra.length || (file && action !== "set")) throw usage("menu takes: menu, menu pull, menu set FILE, menu push, menu rm");
  const client = c.client();
  const path = "/api/cli/menu";
  switch (action) {
    case undefined: {
      if (c.flags.live) {
        const r = await client.call<{ live: Menu | null; as_live: boolean; warnings: string[] }>({ method: "GET", path, fields: [["live", "1"]] });
        return c.print(r, () => (r.live ? [`the platform's live menu${r.as_live ? "" : " (as replyd would store it)"}:`, ...menuTree(r.live), ...r.warnings.map((w) => `warning: ${w}`)].join("\n") : "the account has no menu open on the platform"));
      }
      const r = await client.call<MenuAnswer>({ method: "GET", path });
      return c.print(r, () => report(r, [state(r)]));
    }
    case "pull": {
      const r = await client.call<MenuAnswer>({ method: "PUT", path, fields: [["pull", "1"]] });
      const rules = r.rules_added?.length ? [`rules added for console text buttons: ${r.rules_added.join(", ")}`] : [];
      if (r.rules_backup) rules.push(`the rules before are kept as backup ${r.rules_backup.id}`);
      return c.print(r, () => report(r, [`pulled the live menu from the platform and stored it${client.inAccount}`, state(r), ...rules]));
    }
    case "set": {
      if (!file) throw usage("menu set FILE: a menu in the platform's format {\"button\": [...]} or a replyd document with a menu");
      const { bytes } = readLocal(c.io, file);
      checkedLocally(file, () => menuFromBytes(bytes));
      const noPush = c.argv.includes("--no-push");
      const r = await client.call<MenuAnswer>(
        { method: "PUT", path, fields: noPush ? [["push", "0"]] : [], files: [{ name: "json", filename: basename(file), bytes, type: "application/json" }] },
        "upload",
      );
      return c.print(r, () => report(r, [noPush ? `menu stored${client.inAccount}, not pushed (replyd menu push sends it)` : `menu pushed to the platform and stored${client.inAccount}`]));
    }
    case "push": {
      const r = await client.call<MenuAnswer>({ method: "POST", path });
      return c.print(r, () => report(r, [`the stored menu was pushed to the platform${client.inAccount}`]));
    }
    case "rm": {
      const keepLive = c.argv.includes("--keep-live");
      const r = await client.call<{ removed: boolean; live_deleted: boolean; backup?: { id: string } }>({ method: "DELETE", path, fields: keepLive ? [["keep_live", "1"]] : [] });
      return c.print(r, () =>
        [
          r.live_deleted ? `the platform's menu was deleted${client.inAccount}` : `the platform's menu was left as it is${client.inAccount}`,
          r.removed ? `the stored menu was removed${r.backup ? ` (kept as backup ${r.backup.id})` : ""}` : "no menu was stored",
        ].join("\n"),
      );
    }
    default:
      throw usage(`unknown menu action "${action}"; expected pull, set FILE, push or rm`);
  }
}

export const menuCommand = defineCommand({
  usage: "menu [...action]",
  summary: "the account's menu: show it, or pull | set FILE | push | rm",
  description: "Shows the stored menu as a tree and whether the platform has it; pull stores the platform's live menu (the first step of switching an account over); set checks a menu on the laptop, pushes it and stores it; push pushes the stored one; rm deletes it on the platform and the server.",
  examples: ["replyd menu", "replyd menu pull", "replyd menu set menu.json", "replyd menu set menu.json --no-push", "replyd menu --live"],
  options: [
    { flags: "--live", help: "show the platform's live menu instead of the stored one" },
    { flags: "--no-push", help: "with set: store the menu without pushing it" },
    { flags: "--keep-live", help: "with rm: remove the stored menu only" },
  ],
  run: menu,
});
