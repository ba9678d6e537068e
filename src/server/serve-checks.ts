/**
 * What `serve` refuses before it opens anything: settings that do not go together, and an admin key
 * in its environment that cannot be one. One function, run by startServer first and by
 * `serve --check-config`, so that a configuration the check passes is one serve starts with.
 */
import { APPKEY_PATTERN } from "../sign.ts";
import { MIN_SECRET_LENGTH, type AdminKey } from "../store/keys.ts";
import type { ServeOptions } from "./serve-options.ts";
import type { DeclaredAccount } from "../account/settings.ts";

/** A setting serve refuses, or two that do not go together: the operator's to change (a usage error). */
export class SettingsError extends Error {}

export interface CheckedSettings {
  /** The admin key taken from REPLYD_APPKEY/REPLYD_SECRET in serve's environment, or null. */
  environmentKey: AdminKey | null;
  /** What serve starts with but should be said: accounts sharing a wx-token without the wx-ids that tell them apart. */
  warnings: string[];
}

export function checkServeOptions(opts: ServeOptions): CheckedSettings {
  if (opts.accounts) {
    for (const a of opts.accounts) checkAccount(a.wechat, a.ai, ` for the account "${a.name}"`);
    // One official account served twice would have two token keepers taking its token from each other.
    for (const [setting, of] of [["wx-appid", (a: DeclaredAccount) => a.wechat.appid], ["wx-id", (a: DeclaredAccount) => a.wechat.id]] as const) {
      const seen = new Map<string, string>();
      for (const a of opts.accounts) {
        const value = of(a);
        if (value === undefined) continue;
        const other = seen.get(value);
        if (other !== undefined) throw new SettingsError(`the accounts "${other}" and "${a.name}" have the same ${setting}: each [accounts.NAME] is one official account`);
        seen.set(value, a.name);
      }
    }
  } else checkAccount(opts.wechat ?? {}, opts.ai, "");
  if (opts.redis && !opts.db) throw new SettingsError("--redis joins instances that share one PostgreSQL database: it goes with --db postgres://…");
  return { environmentKey: environmentKey(opts.env), warnings: sharedTokens(opts.accounts ?? []) };
}

/**
 * Two accounts may share a wx-token (an operator's one string in both consoles), but then a message
 * for one posted at the other's callback URL passes the signature: only the wx-id check
 * (ToUserName) tells the accounts apart. Said, not refused — a server serving so since before this
 * check must start after an upgrade: a walkthrough's agency gave two clients one token, and a
 * follower of one got the other's article.
 */
function sharedTokens(accounts: readonly DeclaredAccount[]): string[] {
  const byToken = new Map<string, DeclaredAccount>();
  const warnings: string[] = [];
  for (const a of accounts) {
    const token = a.wechat.token;
    if (!token) continue;
    const other = byToken.get(token);
    const without = other && [other, a].find((x) => !x.wechat.id);
    if (other && without)
      warnings.push(
        `the accounts "${other.name}" and "${a.name}" have the same wx-token and "${without.name}" has no wx-id: a message for one posted at the other's callback URL passes its signature and is answered with the other's articles; give each its wx-id (the account's original id, gh_…) or its own wx-token`,
      );
    if (!other) byToken.set(token, a);
  }
  return warnings;
}

/** What one account's settings need of each other; `whose` names a declared account in the refusal. */
function checkAccount(wx: NonNullable<ServeOptions["wechat"]>, ai: ServeOptions["ai"], whose: string): void {
  if (wx.aesKey && !wx.appid) throw new SettingsError(`--wx-aeskey needs --wx-appid${whose}: encrypted messages carry the appid and are checked against it`);
  if (wx.mode === "compatible" && !wx.aesKey) throw new SettingsError(`--wx-mode compatible needs --wx-aeskey${whose}: without a key every message is plaintext`);
  if (wx.secret && !wx.appid) throw new SettingsError(`--wx-secret needs --wx-appid${whose}: the access token is asked for with both`);
  if (ai) {
    const { base, model, key } = ai.endpoint;
    if (!base && model) throw new SettingsError(`--ai-model needs --ai-url${whose}: the model's base address`);
    if (base && !model) throw new SettingsError(`--ai-url needs --ai-model${whose}: the name of the model to ask`);
    if (key && !base) throw new SettingsError(`REPLYD_AI_KEY is set but no --ai-url${whose}: the key goes with a model's address`);
  }
}

/**
 * REPLYD_APPKEY and REPLYD_SECRET in serve's environment: an admin key kept in memory beside the
 * stored ones (docs/operations.md). They are the client's variables too, so a server started from
 * an operator's shell takes that operator's key: the server says so at start, in its listening
 * line and in health, and `replyd keys` names it (store/sqlite/environment-key.ts, postgres/instances.ts).
 */
function environmentKey(env: ServeOptions["env"]): AdminKey | null {
  const appkey = env.REPLYD_APPKEY;
  const secret = env.REPLYD_SECRET;
  if (!appkey && !secret) return null;
  if (!appkey || !secret) throw new SettingsError("REPLYD_APPKEY and REPLYD_SECRET go together: set both or neither");
  if (!APPKEY_PATTERN.test(appkey)) throw new SettingsError("REPLYD_APPKEY must match [A-Za-z0-9_.-]{1,64}");
  if (secret.length < MIN_SECRET_LENGTH) throw new SettingsError(`REPLYD_SECRET must be at least ${MIN_SECRET_LENGTH} characters`);
  return { appkey, secret, scope: "admin" };
}

/** What serve says at start when it takes an admin key from its environment. */
export const environmentKeyNotice = (appkey: string): string =>
  `replyd: admin key "${appkey}" taken from this environment (REPLYD_APPKEY, REPLYD_SECRET): it works until this server restarts without them, whatever the stored keys say; replyd keys rm cannot revoke it`;

/** The first start's key, shown this once with the lines that use it. */
export const firstKeyNotice = (key: { appkey: string; secret: string }, url: string, where: string, first = "replyd health") =>
  [
    `replyd: created an admin key in ${where}.`,
    `The secret is shown this once. On the machine you administer from, run:`,
    ``,
    `  export REPLYD_URL=${url} REPLYD_APPKEY=${key.appkey} REPLYD_SECRET=${key.secret}`,
    `  ${first}`,
    ``,
  ].join("\n");
