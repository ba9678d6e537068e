/**
 * Which account an admin request acts on: the signed field `account=NAME` (part of the signed
 * string like any other field), read once the request is authenticated and taken out of its
 * fields before a route sees them. On a server that declares accounts every request names one
 * (`account_required`), health and listings included: a request that acts on "whichever" account
 * is how an operator changes the wrong one. A key bound to an account (`replyd keys add --account`)
 * reaches that one alone, for every route, read or write.
 */
import { ReplydError } from "../base/errors.ts";
import type { SignedRequest } from "./auth.ts";
import type { AppContext } from "./context.ts";

/** The name of the signed field that names the account. */
export const ACCOUNT_FIELD = "account";

/** The value of the `account` field, taken out of the request's fields (repeated fields were refused before). */
function takeAccount(req: SignedRequest): string | undefined {
  const at = req.fields.findIndex(([k]) => k === ACCOUNT_FIELD);
  if (at < 0) return undefined;
  const name = (req.fields[at] as readonly [string, string])[1];
  req.fields.splice(at, 1);
  return name;
}

/**
 * The chooser of a request's account among `contexts` (one per account, made once). `declared`:
 * the server's accounts come from the config file, so a request must name one; otherwise the one
 * account (`default`) is the answer, and naming it is allowed.
 */
export function accountChooser(contexts: ReadonlyMap<string, AppContext>, declared: boolean): (req: SignedRequest) => AppContext {
  const only = declared ? null : ([...contexts.values()][0] as AppContext);
  return (req) => {
    const name = takeAccount(req);
    if (name === undefined && !only)
      throw new ReplydError("account_required", `this server serves several accounts: name one with account=NAME (the client's --account, REPLYD_ACCOUNT); replyd accounts lists them`);
    const ctx = name === undefined ? (only as AppContext) : contexts.get(name);
    const bound = req.key.account;
    // Before the account's existence is told: a key of one account learns nothing of the others.
    if (bound !== undefined && bound !== (name ?? ctx?.account))
      throw new ReplydError("forbidden", `the key "${req.key.appkey}" is for the account "${bound}" only`);
    if (!ctx) throw new ReplydError("unknown_account", `no account is named ${JSON.stringify(name?.slice(0, 40))} on this server; replyd accounts lists them`);
    return ctx;
  };
}

/** A request that is the server's, not an account's (`replyd accounts`): a key bound to one account may not make it, and it names none. */
export function serverWide(req: SignedRequest): void {
  if (req.key.account !== undefined) throw new ReplydError("forbidden", `the key "${req.key.appkey}" is for the account "${req.key.account}" only; listing the accounts needs a key for every account`);
  if (req.fields.some(([k]) => k === ACCOUNT_FIELD)) throw new ReplydError("unknown_field", `the list of accounts is the server's: it takes no account=`);
}
