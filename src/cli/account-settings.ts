/**
 * The settings of the accounts a config file declares (`[accounts.NAME]`, issue 36 B): which of
 * serve's settings an account may set, which it otherwise takes from the server, and how
 * `--check-config` shows them. The declarations themselves are serve's (setting-defs.ts).
 */
import { redactUrl } from "../store/postgres/url.ts";
import { usage } from "./errors.ts";
import { SERVE_SETTINGS, type Resolved, type Setting, type SettingName, type Source } from "./setting-defs.ts";

type Value = string | number | boolean;

/** An account's own settings in its [accounts.NAME] table: never taken from the server's (each account signs in as itself). */
export const ACCOUNT_OWN = ["wx-token", "wx-aeskey", "wx-appid", "wx-secret", "wx-id"] as const;
/** What an account may set and otherwise takes from the server's value: the callback's mode, the platform's address, the model and its caps. */
export const ACCOUNT_INHERITED = ["wx-mode", "wx-api", "ai-url", "ai-model", "ai-key", "ai-timeout", "ai-per-follower", "ai-per-minute", "ai-daily", "ai-concurrency"] as const;
export type AccountSettingName = (typeof ACCOUNT_OWN)[number] | (typeof ACCOUNT_INHERITED)[number];
/** Each account setting's declaration (setting-defs.ts). */
export const accountSettingDefs = () =>
  Object.fromEntries([...ACCOUNT_OWN, ...ACCOUNT_INHERITED].map((n) => [n, SERVE_SETTINGS[n]])) as { [K in AccountSettingName]: (typeof SERVE_SETTINGS)[K] };

/** Where an account's setting came from: its own table, or the server's value (which came from `source`). */
export type AccountSource = "account" | `server (${Source})`;

/** One `[accounts.NAME]` resolved: its settings, the server's where it sets none. */
export interface ResolvedAccount {
  name: string;
  values: Pick<Resolved, AccountSettingName>;
  sources: Record<AccountSettingName, AccountSource | null>;
}

/**
 * The declared accounts: each setting from its table, else (ACCOUNT_INHERITED) the server's. An
 * account's own settings set for the server too are refused rather than shared or ignored: which
 * account would the server's wx-token be?
 */
export function resolveAccounts(declared: { name: string; settings: Record<string, string> }[], server: Resolved, serverSources: Record<SettingName, Source | null>): ResolvedAccount[] {
  for (const name of ACCOUNT_OWN) {
    const source = serverSources[name];
    if (source !== null && source !== "default")
      throw usage(`${name} is set for the server (${source === "flag" ? `--${name}` : source === "environment" ? SERVE_SETTINGS[name].env : "in the config file"}) and the config file declares [accounts]: each account has its own, in its [accounts.NAME] table`);
  }
  const defs = accountSettingDefs();
  return declared.map(({ name, settings }) => {
    const values: Record<string, Value | undefined> = {};
    const sources = {} as Record<AccountSettingName, AccountSource | null>;
    // ai-url = "": no model for this account, whatever the server's settings say.
    const modelOff = settings["ai-url"]?.trim() === "";
    for (const key of [...ACCOUNT_OWN, ...ACCOUNT_INHERITED]) {
      const raw = settings[key];
      if (key === "ai-url" && modelOff) {
        values[key] = undefined;
        sources[key] = "account";
      } else if (raw !== undefined) {
        values[key] = (defs[key] as Setting).parse(raw);
        sources[key] = "account";
      } else if ((ACCOUNT_INHERITED as readonly string[]).includes(key)) {
        values[key] = server[key];
        const from = serverSources[key];
        sources[key] = from === null ? null : `server (${from})`;
      } else sources[key] = null;
    }
    // An account without a model's address (ai-url = "", or none anywhere) does not take the
    // server's key and model name: they are for the accounts that have one, not a mistake of this one.
    if (values["ai-url"] === undefined)
      for (const key of ["ai-key", "ai-model"] as const)
        if (sources[key] !== "account") {
          values[key] = undefined;
          sources[key] = null;
        }
    return { name, values: values as ResolvedAccount["values"], sources };
  });
}

/** An account's settings as --check-config shows them, as settingsShown does the server's. */
export function accountShown(a: ResolvedAccount): { name: AccountSettingName; value: string | number | boolean | null; secret: boolean; source: AccountSource | null }[] {
  return (Object.entries(accountSettingDefs()) as [AccountSettingName, Setting][]).map(([name, s]) => {
    const v = a.values[name];
    const value = v === undefined ? null : s.secret ? "(set, hidden)" : s.url ? redactUrl(String(v)) : v;
    return { name, value, secret: Boolean(s.secret), source: a.sources[name] };
  });
}
