import { ReplydError } from "../base/errors.ts";
import { chmodSync, existsSync, readFileSync, statSync } from "node:fs";
import { APPKEY_PATTERN } from "../sign.ts";
import { ACCOUNT_NAME } from "../base/account-name.ts";
import { atomicWrite, openToOthers } from "../base/fsutil.ts";

/** admin: everything; read: GET only; token: only GET /api/cli/token (the platform access token). */
export type Scope = "admin" | "read" | "token";
export const SCOPES: readonly Scope[] = ["admin", "read", "token"];

export interface AdminKey {
  appkey: string;
  secret: string;
  scope: Scope;
  created_at?: string;
  note?: string;
  /** The one account this key reaches (`replyd keys add --account`); absent: every account. */
  account?: string;
}

export const MIN_SECRET_LENGTH = 16;

/**
 * An admin key a running server takes from its environment (REPLYD_APPKEY/REPLYD_SECRET): in no
 * store, so removing it from one does not revoke it. Recorded by each backend while its server runs
 * (sqlite/environment-key.ts, postgres/instances.ts) for `replyd keys` to name.
 */
export interface ServedFromEnvironment {
  appkey: string;
  /** The server that takes it: "the server with pid 4242 on db-1". */
  server: string;
}

export class KeysError extends Error {}

function checkKey(k: unknown, where: string): AdminKey {
  const r = k as Record<string, unknown>;
  if (typeof r !== "object" || r === null) throw new KeysError(`${where}: must be an object`);
  if (typeof r.appkey !== "string" || !APPKEY_PATTERN.test(r.appkey)) throw new KeysError(`${where}: appkey must match [A-Za-z0-9_.-]{1,64}`);
  if (typeof r.secret !== "string" || r.secret.length < MIN_SECRET_LENGTH)
    throw new KeysError(`${where}: secret must be a string of at least ${MIN_SECRET_LENGTH} characters`);
  if (!SCOPES.includes(r.scope as Scope)) throw new KeysError(`${where}: scope must be "admin", "read" or "token"`);
  if (r.account !== undefined && (typeof r.account !== "string" || !ACCOUNT_NAME.test(r.account)))
    throw new KeysError(`${where}: account must be an account's name (1 to 32 of a-z 0-9 - _, starting with a letter or digit)`);
  return {
    appkey: r.appkey,
    secret: r.secret,
    scope: r.scope as Scope,
    ...(typeof r.created_at === "string" ? { created_at: r.created_at } : {}),
    ...(typeof r.note === "string" ? { note: r.note } : {}),
    ...(typeof r.account === "string" ? { account: r.account } : {}),
  };
}

export function parseKeys(text: string, where = "keys.json"): AdminKey[] {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new KeysError(`${where} is not valid JSON`);
  }
  const list = (raw as { keys?: unknown })?.keys;
  if (!Array.isArray(list)) throw new KeysError(`${where} must be {"keys": [ … ]}`);
  const keys = list.map((k, i) => checkKey(k, `${where} key ${i}`));
  const seen = new Set<string>();
  for (const k of keys) {
    if (seen.has(k.appkey)) throw new KeysError(`${where}: appkey "${k.appkey}" appears twice`);
    seen.add(k.appkey);
  }
  return keys;
}

export function generateKey(scope: Scope, now: Date, note?: string, account?: string): AdminKey {
  const hex = Buffer.from(crypto.getRandomValues(new Uint8Array(6))).toString("hex");
  const secret = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64url");
  return { appkey: `rk_${hex}`, secret, scope, created_at: now.toISOString(), ...(note ? { note } : {}), ...(account ? { account } : {}) };
}

export function writeKeys(path: string, keys: AdminKey[]): void {
  atomicWrite(path, (w) => w(JSON.stringify({ keys }, null, 2) + "\n"), 0o600);
  chmodSync(path, 0o600);
}

/** The admin keys as the door asks for them: from keys.json (KeyRing) or from the database (postgres/keys.ts). */
export interface Keys {
  /** Throws 503 while the keys cannot be trusted to be current (a broken keys file, an unreachable database). */
  check(nowMs?: number): void;
  lookup(appkey: string, nowMs?: number): AdminKey | undefined;
  /**
   * The key as the keys were last read, while check() refuses: where that is only the database being
   * away (not a keys file that may hold a revocation), health — which changes nothing, and is how
   * the operator sees why — is let on with it.
   */
  lastRead?(appkey: string): AdminKey | undefined;
  readonly size: number;
}

/**
 * keys.json's admin keys, re-read within a second of any change to the file, so an operator can add
 * or revoke a key without restarting the server. A keys file that changed and cannot be loaded
 * (readable by others, invalid) fails closed: every admin request is refused 503 `keys_unavailable`
 * until the file is fixed, because the change may have been a revocation — the old keys must not
 * keep working. `replyd keys rm` is the way that cannot go wrong.
 */
export class KeyRing implements Keys {
  private keys = new Map<string, AdminKey>();
  /** The file as last looked at (inode, change time, modification time): a chmod counts too. */
  private seen = "";
  private checkedAt = 0;
  /** Why the keys are unusable, when keys.json changed and could not be loaded. */
  broken: string | null = null;

  constructor(
    readonly path: string | null,
    private readonly extra: AdminKey[] = [],
  ) {
    this.reload(true);
  }

  /** Throws when keys.json is unreadable, invalid or readable by others (strict: at start). */
  private reload(strict: boolean): void {
    const next = new Map<string, AdminKey>();
    if (this.path && existsSync(this.path)) {
      const st = statSync(this.path);
      const seen = `${st.ino}:${st.ctimeMs}:${st.mtimeMs}`;
      if (seen === this.seen) return;
      this.seen = seen;
      const fail = (msg: string) => {
        if (strict) throw new KeysError(msg);
        if (this.broken !== msg)
          console.error(JSON.stringify({ t: new Date().toISOString(), level: "error", msg: `keys.json changed and cannot be loaded: ${msg}; every admin request is refused (503 keys_unavailable) until it is fixed` }));
        this.broken = msg;
        this.keys = new Map();
      };
      const exposed = openToOthers(this.path, st.mode);
      if (exposed) return fail(exposed);
      try {
        for (const k of parseKeys(readFileSync(this.path, "utf8"), this.path)) next.set(k.appkey, k);
      } catch (e) {
        return fail((e as Error).message);
      }
    }
    if (this.broken) console.error(JSON.stringify({ t: new Date().toISOString(), level: "info", msg: "keys.json loaded again: admin requests are accepted" }));
    this.broken = null;
    for (const k of this.extra) next.set(k.appkey, k);
    this.keys = next;
  }

  /** Re-reads keys.json when due; throws 503 keys_unavailable while it cannot be loaded. */
  check(nowMs = Date.now()): void {
    if (this.path && nowMs - this.checkedAt >= 1000) {
      this.checkedAt = nowMs;
      this.reload(false);
    }
    if (this.broken) throw new ReplydError("keys_unavailable", "the server's keys file changed and cannot be loaded; the operator must fix it on the server (replyd keys, chmod 600)");
  }

  lookup(appkey: string, nowMs = Date.now()): AdminKey | undefined {
    this.check(nowMs);
    return this.keys.get(appkey);
  }

  get size(): number {
    return this.keys.size;
  }
}
