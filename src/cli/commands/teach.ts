/**
 * Teaching the ranking the account's own words (docs/answers.md "Teaching"): the synonyms it applies.
 */
import type { SynonymGroup } from "../../synonyms.ts";
import { defineCommand } from "../command.ts";
import type { CommandContext } from "../context.ts";
import { usage } from "../errors.ts";

/** replyd synonyms: the groups the ranking reads as one word each. */
export async function synonyms(c: CommandContext): Promise<void> {
  if (c.args.length) throw usage("synonyms lists the synonyms; change them by importing a document of matter synonyms (replyd import synonyms.json)");
  const r = await c.client().call<{ synonyms: SynonymGroup[]; groups: number }>({ method: "GET", path: "/api/cli/synonyms" });
  c.print(r, () =>
    r.synonyms.length
      ? [...r.synonyms.map((g, i) => `${String(i).padStart(4)}  ${g.join(" = ")}`), "", `${r.groups} group${r.groups === 1 ? "" : "s"}`].join("\n")
      : 'no synonyms; import a document of matter synonyms: {"format":"replyd/1","matter":"synonyms","synonyms":[["Visa","credit card"]]}',
  );
}

export const synonymsCommand = defineCommand({
  usage: "synonyms",
  summary: "list the synonyms the ranking applies (change them: import a document of matter synonyms)",
  description:
    'Lists the operator\'s synonyms: groups of phrases the ranking reads as one word, in questions and articles alike ("Visa" finds an article that says "credit card"). They are written like rules: replyd import of a document of matter synonyms merges its groups (a group sharing a phrase with stored ones replaces them), replyd restore replaces them all, and they travel in backups of all and synonyms.',
  examples: ["replyd synonyms", "replyd synonyms --json"],
  run: synonyms,
});
