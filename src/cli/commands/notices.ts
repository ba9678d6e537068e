import type { CommandContext } from "../context.ts";
import { defineCommand } from "../command.ts";
import NOTICES from "../../../NOTICES.md" with { type: "text" };

/**
 * The notices of the data the binary carries (WordNet's licence asks that it travel with every
 * copy): NOTICES.md, carried in the binary — an operator who downloads the binary alone has them.
 */
export async function notices(c: CommandContext): Promise<void> {
  c.print({ notices: NOTICES }, () => NOTICES.trimEnd());
}

export const noticesCommand = defineCommand({
  usage: "notices",
  summary: "print the licences and notices of what replyd carries (WordNet's and OpenCC's data, Bun, the packages)",
  description: "Prints NOTICES.md as this binary carries it: the notices and licences of the word data in the ranking (WordNet's derivations, OpenCC's traditional characters), of the Bun runtime the binary is built on, and of the JavaScript packages it is built with. Asks no server.",
  examples: ["replyd notices"],
  local: true,
  run: notices,
});
