import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { generateKey, parseKeys, writeKeys, SCOPES, type Scope, type ServedFromEnvironment } from "../../store/keys.ts";
import { environmentKeyOf } from "../../store/sqlite/environment-key.ts";
import { environmentKeysOn } from "../../store/postgres/instances.ts";
import { CODE } from "../../errors.ts";
import { SQL } from "bun";
import { prepareDatabase } from "../../store/postgres/connect.ts";
import { redactUrl, scrubPassword } from "../../store/postgres/url.ts";
import { dbOption } from "../args.ts";
import type { CommandContext } from "../context.ts";
import { CLIError, usage } from "../errors.ts";
import { defineCommand } from "../command.ts";

/**
 * Manages keys.json in a local data folder (run it on the server host), or with --db (REPLYD_DB)
 * the keys in the PostgreSQL database the servers share. Servers pick changes up within a second.
 */
export async function keys(c: CommandContext): Promise<void> {
  const db = dbOption(c.str("--db") ?? c.io.env.REPLYD_DB, c.io.env);
  if (db) return keysInDatabase(c, db);
  const [action = "ls", appkey] = c.args;
  const dir = resolve(c.io.cwd, c.str("--data") ?? c.io.env.REPLYD_DATA ?? "replyd-data");
  const path = join(dir, "keys.json");
  // A folder that is not a data folder (a typo, the wrong working directory) is said to be one.
  if (!existsSync(dir)) throw new CLIError("no_data", `${dir} does not exist: run this on the server host, in the folder replyd serve runs in, or pass --data (or REPLYD_DATA)`);
  const served = environmentKeyOf(dir);
  // Only add makes a keys.json: ls and rm in a folder without one name what they looked at.
  if (!existsSync(path) && action !== "add" && !served)
    throw new CLIError("no_data", `${dir} holds no keys.json: it is not a replyd data folder, or its server takes its key from REPLYD_APPKEY/REPLYD_SECRET and is not running (pass --data for another folder)`);
  const current = existsSync(path) ? parseKeys(readFileSync(path, "utf8"), path) : [];
  if (action === "ls") return listKeys(c, current, served ? [served] : [], path);
  if (action === "add") {
    const scope = addScope(c, appkey);
    const key = generateKey(scope, new Date(), c.str("--note"));
    writeKeys(path, [...current, key]);
    return c.print(key, () => `added ${scope} key to ${path}; the secret is shown this once:\n\n  REPLYD_APPKEY=${key.appkey} REPLYD_SECRET=${key.secret}`);
  }
  if (action === "rm") {
    if (!appkey) throw usage("keys rm needs the appkey to revoke");
    refuseEnvironmentKey(appkey, served ? [served] : []);
    if (!current.some((k) => k.appkey === appkey)) throw new CLIError("not_found", `no key "${appkey}" in ${path}`);
    writeKeys(path, current.filter((k) => k.appkey !== appkey));
    return c.print({ removed: appkey }, () => `revoked ${appkey}`);
  }
  throw usage(`unknown keys action "${action}"; use ls, add or rm`);
}

type StoredKey = { appkey: string; scope: string; created_at?: string | null; note?: string | null };

/** The stored keys, then those running servers take from their environment, each with its source. */
function listKeys(c: CommandContext, stored: StoredKey[], served: ServedFromEnvironment[], where: string): void {
  const rows = [
    ...stored.map((k) => ({ appkey: k.appkey, scope: k.scope, created_at: k.created_at ?? null, note: k.note ?? null, source: "stored" as const })),
    ...served.map((k) => ({ appkey: k.appkey, scope: "admin", created_at: null, note: null, source: "environment" as const, server: k.server })),
  ];
  c.print(rows, () =>
    rows.length
      ? rows
          .map((k) =>
            k.source === "environment"
              ? `${k.appkey}  ${k.scope.padEnd(5)}  from the environment of ${k.server} (REPLYD_APPKEY): valid until it restarts without it`
              : `${k.appkey}  ${k.scope.padEnd(5)}  ${k.created_at ?? ""}  ${k.note ?? ""}`,
          )
          .join("\n")
      : `no keys in ${where}`,
  );
}

/**
 * Removing a stored key does not revoke a key a running server takes from its environment: the
 * removal is refused (nothing changed) rather than reported "revoked" while the key keeps working.
 */
function refuseEnvironmentKey(appkey: string, served: ServedFromEnvironment[]): void {
  const by = served.filter((k) => k.appkey === appkey).map((k) => k.server);
  if (by.length)
    throw new CLIError(
      CODE.key_from_environment,
      `"${appkey}" is served from the environment (REPLYD_APPKEY/REPLYD_SECRET) of ${by.join(" and of ")}: it stays valid until that server restarts without them, so nothing was removed; restart it without them, then run this again`,
    );
}

/** The scope of a key to add; a name given after `add` would be silently dropped (the appkey is generated), so it is refused. */
function addScope(c: CommandContext, extra: string | undefined): Scope {
  if (extra !== undefined) throw usage(`keys add makes its own appkey; to label the key, use --note "${extra}"`);
  const scope = (c.str("--scope") ?? "admin") as Scope;
  if (!SCOPES.includes(scope)) throw usage("--scope is admin, read or token");
  return scope;
}

/** The same three actions on the admin_keys table; the schema is brought up to date first (an empty database gets one). */
async function keysInDatabase(c: CommandContext, url: string): Promise<void> {
  const [action = "ls", appkey] = c.args;
  const where = redactUrl(url);
  const sql = new SQL(url);
  try {
    try {
      await prepareDatabase(sql, { now: new Date(), firstKey: false });
    } catch (e) {
      throw new CLIError("database_unavailable", `cannot use the database at ${where}: ${scrubPassword((e as Error).message, url)}`);
    }
    if (action === "ls") {
      const rows = (await sql`SELECT appkey, scope, created_at, note FROM admin_keys ORDER BY created_at, appkey`) as StoredKey[];
      return listKeys(c, rows, await environmentKeysOn(sql), where);
    }
    if (action === "add") {
      const scope = addScope(c, appkey);
      const key = generateKey(scope, new Date(), c.str("--note"));
      await sql`INSERT INTO admin_keys (appkey, secret, scope, created_at, note) VALUES (${key.appkey}, ${key.secret}, ${key.scope}, ${key.created_at ?? null}, ${key.note ?? null})`;
      return c.print(key, () => `added ${scope} key to ${where}; the secret is shown this once:\n\n  REPLYD_APPKEY=${key.appkey} REPLYD_SECRET=${key.secret}`);
    }
    if (action === "rm") {
      if (!appkey) throw usage("keys rm needs the appkey to revoke");
      refuseEnvironmentKey(appkey, await environmentKeysOn(sql));
      const gone = await sql`DELETE FROM admin_keys WHERE appkey = ${appkey} RETURNING appkey`;
      if (!gone.length) throw new CLIError("not_found", `no key "${appkey}" in ${where}`);
      return c.print({ removed: appkey }, () => `revoked ${appkey}`);
    }
    throw usage(`unknown keys action "${action}"; use ls, add or rm`);
  } finally {
    await sql.close();
  }
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
  ],
  local: true,
  run: keys,
});
