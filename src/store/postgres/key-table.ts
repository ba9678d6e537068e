import { SQL } from "bun";
import { KeyStoreError, refuseEnvironmentKey, type KeyStore } from "../key-store.ts";
import { keyOfRow, type AdminRow } from "./keys.ts";
import { prepareDatabase } from "./connect.ts";
import { environmentKeysOn } from "./instances.ts";
import { redactUrl, scrubPassword } from "./url.ts";

/** The admin_keys table of the database the servers share; the schema is brought up to date first (an empty database gets one). */
export async function keyTable(url: string): Promise<KeyStore> {
  const where = redactUrl(url);
  const sql = new SQL(url);
  try {
    await prepareDatabase(sql, { now: new Date(), firstKey: false });
  } catch (e) {
    await sql.close();
    throw new KeyStoreError("database_unavailable", `cannot use the database at ${where}: ${scrubPassword((e as Error).message, url)}`);
  }
  return {
    where,
    stored: async () => ((await sql`SELECT appkey, secret, scope, created_at, note, account FROM admin_keys ORDER BY created_at, appkey`) as AdminRow[]).map(keyOfRow),
    servedFromEnvironment: () => environmentKeysOn(sql),
    async add(key) {
      await sql`INSERT INTO admin_keys (appkey, secret, scope, created_at, note, account) VALUES (${key.appkey}, ${key.secret}, ${key.scope}, ${key.created_at ?? null}, ${key.note ?? null}, ${key.account ?? null})`;
    },
    async remove(appkey) {
      refuseEnvironmentKey(appkey, await environmentKeysOn(sql));
      const gone = await sql`DELETE FROM admin_keys WHERE appkey = ${appkey} RETURNING appkey`;
      if (!gone.length) throw new KeyStoreError("not_found", `no key "${appkey}" in ${where}`);
    },
    close: () => sql.close(),
  };
}
