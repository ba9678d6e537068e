import type { SQL, TransactionSQL } from "bun";
import { generateKey, type AdminKey } from "../keys.ts";
import { PG_MIGRATIONS, PG_SCHEMA_VERSION } from "./schema.ts";

/** Advisory lock ids (one 64-bit key space per database): migrating, and every write transaction. */
export const LOCKS = { migrate: 0x7265_706c_7964_01n, write: 0x7265_706c_7964_02n } as const;

export interface Prepared {
  /** The schema version the database was at before (0: empty). */
  from: number;
  /** The first admin key, when this start created it (an empty database); null otherwise. */
  firstKey: AdminKey | null;
}

/**
 * Brings the schema up to date and, on an empty database, creates the first admin key — under one
 * advisory lock in one transaction, so two instances starting at once on an empty database do not
 * race: the second waits, finds the schema current and a key present, and creates nothing.
 * `firstKey` false: keys come from elsewhere (the environment), none is created. `schema`: an
 * account's, made first when missing (the pool's search_path names it).
 */
export async function prepareDatabase(sql: SQL, opts: { now: Date; firstKey: boolean; schema?: string }): Promise<Prepared> {
  return sql.begin(async (tx) => {
    await tx`SELECT pg_advisory_xact_lock(${LOCKS.migrate.toString()}::bigint)`;
    // An account's schema (account-schema.ts), made under the lock: two instances starting at once make it once.
    if (opts.schema) await tx.unsafe(`CREATE SCHEMA IF NOT EXISTS "${opts.schema}"`);
    await tx`CREATE TABLE IF NOT EXISTS replyd_schema (version integer NOT NULL)`;
    const rows = await tx`SELECT version FROM replyd_schema`;
    const from = rows.length ? Number((rows[0] as { version: number }).version) : 0;
    if (from > PG_SCHEMA_VERSION)
      throw new Error(`the database schema is version ${from}, newer than this replyd understands (${PG_SCHEMA_VERSION}); upgrade replyd`);
    for (let v = from; v < PG_SCHEMA_VERSION; v++) await tx.unsafe(PG_MIGRATIONS[v] as string);
    if (!rows.length) await tx`INSERT INTO replyd_schema (version) VALUES (${PG_SCHEMA_VERSION})`;
    else if (from < PG_SCHEMA_VERSION) await tx`UPDATE replyd_schema SET version = ${PG_SCHEMA_VERSION}`;
    return { from, firstKey: opts.firstKey ? await firstKeyIn(tx, opts.now) : null };
  });
}

/** A new admin key when the database has none, in a transaction holding the migration lock. */
async function firstKeyIn(tx: TransactionSQL, now: Date): Promise<AdminKey | null> {
  if ((await tx`SELECT 1 FROM admin_keys LIMIT 1`).length) return null;
  const key = generateKey("admin", now, "created on first start");
  await tx`INSERT INTO admin_keys (appkey, secret, scope, created_at, note) VALUES (${key.appkey}, ${key.secret}, ${key.scope}, ${key.created_at ?? null}, ${key.note ?? null})`;
  return key;
}

/**
 * The first admin key of a database that has none, created by the instance that will print it: a
 * server calls this once it is registered (an instance refused as a second one without --redis
 * creates none, so no key is made that nobody sees). Under the migration lock: one key, however
 * many start at once.
 */
export function createFirstKey(sql: SQL, now: Date): Promise<AdminKey | null> {
  return sql.begin(async (tx) => {
    await tx`SELECT pg_advisory_xact_lock(${LOCKS.migrate.toString()}::bigint)`;
    return firstKeyIn(tx, now);
  });
}
