/** replyd rules: the rules in effect, in the order they are matched, and the texts the operator set. */
import type { Rule } from "../../doc/rule.ts";
import { TEXT_KEYS, type Texts } from "../../doc/rule.ts";
import { defineCommand } from "../command.ts";
import type { CommandContext } from "../context.ts";
import { usage } from "../errors.ts";
import { cutColumns, table } from "../table.ts";
import { oneLine } from "../report/text-charts.ts";
import { FALLBACK_BORROWERS } from "../../wechat/answering/texts.ts";

type Listed = Rule & { disabled?: true };

/** What a rule answers with, on one line. */
const replyOf = (r: Rule): string =>
  r.reply.type === "text" ? `text "${oneLine(r.reply.text)}"` : r.reply.type === "articles" ? `article${r.reply.ids.length > 1 ? "s" : ""} ${r.reply.ids.join(", ")}` : `tag ${r.reply.tag}`;

export async function rules(c: CommandContext): Promise<void> {
  if (c.args.length) throw usage("rules lists the rules and texts; change them by importing a document (replyd import rules.json)");
  const r = await c.client().call<{ rules: Listed[]; count: number; texts: Texts; warnings?: string[] }>({ method: "GET", path: "/api/cli/rules" });
  c.print(r, () => {
    const rows = r.rules.map((rule, i) => [
      String(i + 1),
      rule.id,
      rule.match,
      rule.match === "regex" ? `/${rule.pattern}/` : rule.pattern,
      `${replyOf(rule)}${rule.inbox ? " (kept in the inbox)" : ""}${rule.disabled ? " DISABLED (timed out twice)" : ""}`,
    ]);
    // Unwritten, not_found and media are the operator's fallback text when that is written (wechat/answering/texts.ts operatorText), as health says.
    const unset = (k: (typeof TEXT_KEYS)[number]) => ((FALLBACK_BORROWERS as readonly string[]).includes(k) && r.texts.fallback !== undefined ? "(your fallback text)" : "(replyd's own, in the follower's language)");
    const texts = TEXT_KEYS.map((k) => `${k.padEnd(9)} ${r.texts[k] === undefined ? unset(k) : `"${cutColumns(oneLine(r.texts[k] as string), 100)}"`}`);
    return [
      ...(rows.length ? table([["#", "ID", "MATCH", "PATTERN", "ANSWERS WITH"], ...rows], [{ right: true }, { max: 24 }, {}, { max: 40 }, { max: 80 }]) : ["no rules"]),
      "",
      "texts",
      ...texts.map((t) => `  ${t}`),
      ...(r.warnings ?? []).map((w) => `warning: ${w}`),
      "",
      `${r.count} rule${r.count === 1 ? "" : "s"}, matched in this order, the first that matches answering; change them by importing a document (an import merges rules by id; replyd restore --matter rules FILE replaces them all)`,
    ].join("\n");
  });
}

export const rulesCommand = defineCommand({
  usage: "rules",
  summary: "list the rules in the order they are matched, and the texts (change them: import a document)",
  description:
    "Lists the rules in effect, in the order a follower's message is matched against them (the first that matches answers), each with its match, pattern and what it answers with — a text, articles or a tag; kept in the inbox when it says so; a regex rule that timed out twice marked DISABLED —, then the texts (welcome, help, fallback, not_found, media) as set, or replyd's own, and the rules that point at nothing. A read key may list them. They are written by replyd import of a document with rules and texts (rules merge by id) and replaced by replyd restore --matter rules.",
  examples: ["replyd rules", "replyd rules --json"],
  run: rules,
});
