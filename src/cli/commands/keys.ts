import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { generateKey, SCOPES, type Scope, type ServedFromEnvironment } from "../../store/keys.ts";
import { KeyStoreError, type KeyStore } from "../../store/key-store.ts";
import { openKeyStore } from "../../store/open.ts";
import { dbOption } from "../args.ts";
import { ACCOUNT_NAME } from "../../base/account-name.ts";
import type { CommandContext } from "../context.ts";
import { CLIError, usage } from "../errors.ts";
import { defineCommand } from "../command.ts";

/**
 * Manages keys.json in a local data folder (run it on the server host), or with --db (REPLYD_DB)
 * the keys in the PostgreSQL database the servers share (store/key-store.ts: one interface, both
 * kept alike). Servers pick changes up within a second.
 */
export async function keys(c: CommandContext): Promise<void> {
  const [action = "ls", appkey] = c.args;
  if (!["ls", "add", "rm"].includes(action)) throw usage(`unknown keys action "${action}"; use ls, add or rm`);
  const scope = action === "add" ? addScope(c, appkey) : null;
  const account = c.str("--account");
  if (account !== undefined && action !== "add") throw usage("--account goes with keys add: the key made reaches that account only");
  if (account !== undefined && !ACCOUNT_NAME.test(account)) throw usage("--account must be an account's name: 1 to 32 lower-case letters, digits, - and _, starting with a letter or digit");
  if (action === "rm" && !appkey) throw usage("keys rm needs the appkey to revoke");
  const db = dbOption(c.str("--db") ?? c.io.env.REPLYD_DB, c.io.env);
  const dir = resolve(c.io.cwd, c.str("--data") ?? c.io.env.REPLYD_DATA ?? "replyd-data");
  let store: KeyStore;
  try {
    store = await openKeyStore(db ? { db } : { dir, adding: action === "add" });
  } catch (e) {
    throw asCliError(e);
  }
  try {
    if (action === "ls") return listKeys(c, await store.stored(), await store.servedFromEnvironment(), store.where);
    if (scope) {
      const key = generateKey(scope, new Date(), c.str("--note"), account);
      await store.add(key);
      // A data folder holds its accounts under accounts/NAME once a server has served them: a name
      // not there is most often a typo (the key is kept: the account may be declared later).
      if (account !== undefined && !db && !existsSync(join(dir, "accounts", account)))
        c.io.err(`replyd: warning: this data folder holds no account "${account}" yet (${join(dir, "accounts")}); the key reaches it once the config file declares it`);
      const reach = account !== undefined ? ` for the account "${account}" only` : "";
      return c.print(key, () => `added ${scope} key${reach} to ${store.where}; the secret is shown this once:\n\n  REPLYD_APPKEY=${key.appkey} REPLYD_SECRET=${key.secret}${account !== undefined ? ` REPLYD_ACCOUNT=${account}` : ""}`);
    }
    await store.remove(appkey as string);
    return c.print({ removed: appkey }, () => `revoked ${appkey}`);
  } catch (e) {
    throw asCliError(e);
  } finally {
    await store.close();
  }
}

const asCliError = (e: unknown) => (e instanceof KeyStoreError ? new CLIError(e.code, e.message) : e);

type StoredKey = { appkey: string; scope: string; created_at?: string | null; note?: string | null; account?: string };

/** The stored keys, then those running servers take from their environment, each with its source. */
function listKeys(c: CommandContext, stored: StoredKey[], served: ServedFromEnvironment[], where: string): void {
  const rows = [
    ...stored.map((k) => ({ appkey: k.appkey, scope: k.scope, created_at: k.created_at ?? null, note: k.note ?? null, account: k.account ?? null, source: "stored" as const })),
    ...served.map((k) => ({ appkey: k.appkey, scope: "admin", created_at: null, note: null, account: null, source: "environment" as const, server: k.server })),
  ];
  c.print(rows, () =>
    rows.length
      ? rows
          .map((k) =>
            k.source === "environment"
              ? `${k.appkey}  ${k.scope.padEnd(5)}  from the environment of ${k.server} (REPLYD_APPKEY): valid until it restarts without it`
              : `${k.appkey}  ${k.scope.padEnd(5)}  ${k.created_at ?? ""}  ${k.account !== null ? `account ${k.account}  ` : ""}${k.note ?? ""}`,
          )
          .join("\n")
      : `no keys in ${where}`,
  );
}

/** The scope of a key to add; a name given after `add` would be silently dropped (the appkey is generated), so it is refused. */
function addScope(c: CommandContext, extra: string | undefined): Scope {
  if (extra !== undefined) throw usage(`keys add makes its own appkey; to label the key, use --note "${extra}"`);
  const scope = (c.str("--scope") ?? "admin") as Scope;
  if (!SCOPES.includes(scope)) throw usage("--scope is admin, read or token");
  return scope;
}

export const keysCommand = defineCommand({
  usage: "keys [action] [appkey]",
  summary: "manage admin keys in the local data folder, or in the database with --db: ls, add, rm",
  description: "Lists, adds and revokes the admin keys, on the server host: in the data folder's keys.json, or with --db in the PostgreSQL database the servers share. add makes the appkey and prints the secret once; servers take changes up within a second.",
  examples: ["replyd keys ls", 'replyd keys add --scope read --note "dashboard"', "replyd keys rm rk_3f9a01c2d4e5", "replyd keys ls --db postgres://replyd@db/replyd"],
  options: [
    { flags: "--data <dir>", help: "data folder (env REPLYD_DATA)" },
    { flags: "--db <url>", help: "the PostgreSQL database the servers share, postgres://… (env REPLYD_DB; completed from DATABASE_URL and PG*)" },
    { flags: "--scope <scope>", help: "admin, read or token (with add)" },
    { flags: "--note <text>", help: "a note stored with the key (with add)" },
    { flags: "--account <name>", help: "the one account the key reaches, on a server with several (with add); without it, every account" },
  ],
  local: true,
  run: keys,
});
