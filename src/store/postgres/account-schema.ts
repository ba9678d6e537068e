/**
 * Several accounts in one database (issue 36 B): each account's data in a schema of its own,
 * `replyd_acct_NAME`, reached through a connection pool whose search_path is that schema alone —
 * every statement of the store is the one a single account runs, unqualified, so none can read or
 * write another account's tables. The server's own tables (admin_keys, the instance registry) stay
 * in the database's default schema, where a replyd without [accounts] keeps everything.
 */
import { SQL } from "bun";
import { checkAccountName } from "../../base/account-name.ts";

const PREFIX = "replyd_acct_";

/** The schema that holds `account`'s data. */
export const accountSchema = (account: string): string => `${PREFIX}${checkAccountName(account)}`;

/** The account whose schema `schema` is; undefined for the default schema (a server without [accounts]). */
export const accountOfSchema = (schema: string): string | undefined => (schema.startsWith(PREFIX) ? schema.slice(PREFIX.length) : undefined);

/** The schema quoted as an identifier (an account's name may hold `-`). */
export const quotedSchema = (account: string): string => `"${accountSchema(account)}"`;

/**
 * At most this many connections per account (Bun's default is 10): the log writer, the copy's
 * catch-up, a write and a one-at-a-time holder with room to spare, so that 10 accounts and the
 * server's pool stay well within PostgreSQL's default max_connections (100). Idle ones close.
 */
export const ACCOUNT_POOL_MAX = 5;

/** A pool whose every connection reads and writes `account`'s schema alone. */
export const accountPool = (url: string, account: string): SQL =>
  new SQL({ url, max: ACCOUNT_POOL_MAX, idleTimeout: 60, connection: { search_path: quotedSchema(account) } });

/**
 * The advisory locks that guard an account's data are the account's: its write order (its own
 * change sequence) and its one-at-a-time work do not wait for another account's. Computed by the
 * database from the connection's schema, so every statement that takes one is unchanged; outside an
 * account's schema the key is the one every earlier version took, so a cluster upgraded one
 * instance at a time still shares its locks.
 */
export const ACCOUNT_SCOPED = `starts_with(current_schema(), '${PREFIX}')`;

/** The second half of a cross-instance lock on `param` (a text parameter such as `$2`), in the account's space. */
export const scopedLockKey = (param: string): string => `hashtext(CASE WHEN ${ACCOUNT_SCOPED} THEN current_schema() || '/' || ${param}::text ELSE ${param}::text END)`;

/** The write lock's key (`base`, the one a single account takes), in the account's space. */
export const scopedWriteLock = (base: bigint): string => `CASE WHEN ${ACCOUNT_SCOPED} THEN hashtextextended(current_schema(), ${base.toString()}) ELSE ${base.toString()}::bigint END`;
