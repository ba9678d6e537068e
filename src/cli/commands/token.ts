import type { CommandContext } from "../context.ts";
import { defineCommand } from "../command.ts";

/** Prints the account's access token as the server keeps it (for scripts: `$(replyd token)`). */
export async function token(c: CommandContext): Promise<void> {
  const t = await c.client().call<{ access_token: string; expires_in: number }>({ method: "GET", path: "/api/cli/token" });
  c.print(t, () => t.access_token);
}

export const tokenCommand = defineCommand({
  usage: "token",
  summary: "print the account's current access token (the server keeps it; a token or admin key)",
  description: "Prints the account's access token as the server keeps it, for the account's other systems: give them a key of scope token (replyd keys add --scope token), and have them ask again when expires_in runs low or the platform refuses the token.",
  examples: ["replyd token", "replyd token --json"],
  run: token,
});
