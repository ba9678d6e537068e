/**
 * An account's name, as the config file declares it (`[accounts.NAME]`), the admin API names it
 * (`account=NAME`), a key is bound to it, its data folder is called and its Redis keys carry it
 * (cluster/keyspace.ts). One rule, here, below every layer that reads a name.
 */
import { ReplydError } from "./errors.ts";

/** An account's name: lower-case letters, digits, `-` and `_`, starting with a letter or digit, at most 32. */
export const ACCOUNT_NAME = /^[a-z0-9][a-z0-9_-]{0,31}$/;

/** The name, or bad_request saying what a name may hold. */
export function checkAccountName(name: string): string {
  if (!ACCOUNT_NAME.test(name))
    throw new ReplydError("bad_request", `${JSON.stringify(name.slice(0, 40))} is not an account name: 1 to 32 lower-case letters, digits, - and _, starting with a letter or digit`);
  return name;
}
