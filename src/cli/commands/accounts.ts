/**
 * replyd accounts: the accounts a server serves (its config file's [accounts]), each with its
 * health in short. The server's list, not an account's: sent without --account, by a key that
 * reaches every account.
 */
import type { CommandContext } from "../context.ts";
import { defineCommand } from "../command.ts";

interface AccountSummary {
  name: string;
  callback: string;
  counts: { articles_live: number; rules: number; texts: number };
  search_index: string;
  /** Absent from servers before it was listed. */
  passage_index?: string;
  message_log: { unwritten: number; dropped: number };
  platform: { link: string };
  generated_answers: string;
  callback_configured?: boolean;
  newest_backup: { id: string; created_at: string } | null;
}

async function accounts(c: CommandContext): Promise<void> {
  const data = await c.client().call<{ accounts: AccountSummary[] }>({ method: "GET", path: "/api/cli/accounts", serverWide: true });
  c.print(data, () =>
    data.accounts
      .map((a) =>
        [
          `${a.name}  ${a.callback}${a.callback_configured === false ? " (no wx-token: answers 503)" : ""}`,
          `  ${a.counts.articles_live} articles, ${a.counts.rules} rules, ${a.counts.texts} texts; search index ${a.search_index}${a.passage_index ? `, passage index ${a.passage_index}` : ""}`,
          `  platform ${a.platform.link}; model ${a.generated_answers}; newest backup ${a.newest_backup ? `${a.newest_backup.id} (${a.newest_backup.created_at})` : "none"}`,
        ].join("\n"),
      )
      .join("\n"),
  );
}

export const accountsCommand = defineCommand({
  usage: "accounts",
  summary: "list the server's accounts, each with its health",
  description:
    "Lists the accounts the server serves (the config file's [accounts.NAME]; a server without them has one, default), each with its callback path, counts, search and passage indexes, platform link, model and newest backup. Needs a key for every account (replyd keys add without --account).",
  examples: ["replyd accounts", "replyd accounts --json"],
  run: accounts,
});
