/**
 * Asking before a change that replaces what is there (restore, import --init, rm --purge): --yes answers for the
 * operator, and without a terminal it must, so a script never hangs on a question nobody reads and
 * never goes ahead unasked.
 */
import type { Client } from "./client.ts";
import type { CommandContext } from "./context.ts";
import { CLIError } from "./errors.ts";

/** The server and account a change lands on, as the question names them. */
export const whereOf = (client: Client): string => `${client.config.account !== undefined ? `account ${client.config.account} on ` : ""}${client.config.url}`;

/**
 * What a question adds when the document is a backup another account's server took (document.ts
 * `account`): restoring or --init-ing it into this one is allowed (a copy), never unsaid — in the
 * question, and on standard error with --yes, where nothing is asked. Empty otherwise.
 */
export function otherAccountNote(c: CommandContext, client: Client, file: string, account: string | undefined): string {
  if (account === undefined || account === client.config.account) return "";
  const of = `a backup of account ${account}${client.config.account !== undefined ? `, not ${client.config.account}` : ""}`;
  if (c.flags.yes) c.io.err(`replyd: ${file} is ${of}`);
  return `; it is ${of}`;
}

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
