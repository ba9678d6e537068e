/** The one place that chooses where the data is kept (backend.ts). */
import type { Backend, BackendOptions } from "./backend.ts";
import { openPostgres } from "./postgres/open.ts";
import { openSqlite } from "./sqlite/open.ts";

/** A PostgreSQL URL; anything else names a data folder. */
export const isDatabaseTarget = (target: string) => /^postgres(ql)?:\/\//i.test(target);

/** A `postgres://` target is PostgreSQL (the data folder unused); any other is a data folder on SQLite. */
export function openBackend(target: string, opts: BackendOptions): Promise<Backend> {
  return isDatabaseTarget(target) ? openPostgres(target, opts) : openSqlite(target, opts);
}
