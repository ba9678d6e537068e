/**
 * Asking before a change nothing undoes but a backup (restore, rm --purge): --yes answers for the
 * operator, and without a terminal it must, so a script never hangs on a question nobody reads and
 * never goes ahead unasked.
 */
import type { Client } from "./client.ts";
import type { CommandContext } from "./context.ts";
import { CLIError } from "./errors.ts";

/** The server and account a change lands on, as the question names them. */
export const whereOf = (client: Client): string => `${client.config.account !== undefined ? `account ${client.config.account} on ` : ""}${client.config.url}`;

/**
 * Asks `question` (a [y/N] is added) unless --yes; `what` says what is refused without a terminal,
 * `cancelled` what a no leaves ("nothing was changed").
 */
export async function confirm(c: CommandContext, question: string, what: string, cancelled: string): Promise<void> {
  if (c.flags.yes) return;
  if (!c.io.interactive) throw new CLIError("not_confirmed", `${what}; pass --yes to confirm without a terminal`);
  const answer = await c.io.ask(`${question} [y/N] `);
  if (!/^y(es)?$/i.test(answer.trim())) throw new CLIError("not_confirmed", cancelled);
}
