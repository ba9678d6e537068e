import type { CommandContext } from "../context.ts";

/** Prints the account's access token as the server keeps it (for scripts: `$(replyd token)`). */
export async function token(c: CommandContext): Promise<void> {
  const t = await c.client().call<{ access_token: string; expires_in: number }>({ method: "GET", path: "/api/cli/token" });
  c.print(t, () => t.access_token);
}
