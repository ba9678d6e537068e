/**
 * The admin keys as `replyd keys` manages them, on the server host: listed, added and revoked in the
 * store the servers read them from — keys.json in a data folder (sqlite/key-file.ts) or the
 * admin_keys table of the database (postgres/key-table.ts); store/open.ts openKeyStore chooses.
 * The decisions are made here, alike for both: a key a running server takes from its environment
 * cannot be revoked by removing a stored one.
 */
import type { AdminKey, ServedFromEnvironment } from "./keys.ts";

/** A refusal of the key store, by a code the client prints as its own. */
export class KeyStoreError extends Error {
  constructor(
    readonly code: "no_data" | "database_unavailable" | "not_found" | "key_from_environment",
    message: string,
  ) {
    super(message);
    this.name = "KeyStoreError";
  }
}

export interface KeyStore {
  /** Where the keys are kept, for messages: keys.json's path, or the database without its password. */
  readonly where: string;
  /** The stored keys, oldest first. */
  stored(): Promise<AdminKey[]>;
  /** The keys running servers take from their environment (REPLYD_APPKEY/REPLYD_SECRET). */
  servedFromEnvironment(): Promise<ServedFromEnvironment[]>;
  add(key: AdminKey): Promise<void>;
  /** Revokes a stored key; refused for a key served from an environment, or one not stored. */
  remove(appkey: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * Removing a stored key does not revoke a key a running server takes from its environment: the
 * removal is refused (nothing changed) rather than reported "revoked" while the key keeps working.
 */
export function refuseEnvironmentKey(appkey: string, served: ServedFromEnvironment[]): void {
  const by = served.filter((k) => k.appkey === appkey).map((k) => k.server);
  if (by.length)
    throw new KeyStoreError(
      "key_from_environment",
      `"${appkey}" is served from the environment (REPLYD_APPKEY/REPLYD_SECRET) of ${by.join(" and of ")}: it stays valid until that server restarts without them, so nothing was removed; restart it without them, then run this again`,
    );
}
