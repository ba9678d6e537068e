/**
 * `replyd serve`'s settings resolved (their declarations: setting-defs.ts). Precedence: flag >
 * environment > config file (`--config replyd.toml`, TOML, keys as the flags without their dashes:
 * `port = 8080`, `wx-secret = "…"`) > default. A secret given as a flag is warned about (every user
 * of the machine sees it in `ps`). What settings need of each other is checked in
 * server/serve-checks.ts.
 */
import { resolve } from "node:path";
import { isLoopback } from "../base/loopback.ts";
import { redactUrl } from "../store/postgres/url.ts";
import { dbOption, formatBytes } from "./args.ts";
import { readConfig, settingHoldsSecret } from "./config-file.ts";
import { CLIError, usage } from "./errors.ts";
import { accountSettingDefs, accountShown, resolveAccounts, type ResolvedAccount } from "./account-settings.ts";
import { SERVE_SETTINGS, type Resolved, type Setting, type SettingName, type Source } from "./setting-defs.ts";

export { accountShown, type ResolvedAccount };

type Value = string | number | boolean;

/** Whether `host` is this machine: a key sent there in clear text stays on it. */

/** The raw text after `--name` or in `--name=value` (cac coerces numeric-looking values: never read from it). */
function flagValue(argv: readonly string[], name: string, boolean: boolean): string | undefined {
  let found: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string;
    if (a === "--") break;
    if (a === `--${name}`) {
      if (boolean) found = "true";
      else {
        const next = argv[i + 1];
        if (next === undefined) throw usage(`--${name} needs a value`);
        found = next;
        i++;
      }
    } else if (a.startsWith(`--${name}=`)) found = a.slice(name.length + 3);
  }
  return found;
}

export interface ResolvedSettings {
  values: Resolved;
  sources: Record<SettingName, Source | null>;
  /** Secrets given as flags: visible in `ps` to every user of the machine. */
  warnings: string[];
  /** The accounts the config file declares, in its order; null: none (one account, `default`, as before). */
  accounts: ResolvedAccount[] | null;
}

/** A yes/no setting: true or 1, false or 0 — anything else refused rather than read as false ("yes", "on"). */
function onOff(raw: string, where: string): boolean {
  const v = raw.trim().toLowerCase();
  if (v === "true" || v === "1") return true;
  if (v === "false" || v === "0") return false;
  throw usage(`${where} must be true or false ("${raw}" given)`);
}

/** `s.parse(raw)`, a refusal naming where the value was given (its parsers say `--name`). */
function parsedAt(s: Setting, raw: string, where: string): Value {
  try {
    return s.parse(raw);
  } catch (e) {
    if (e instanceof CLIError && where !== `--${s.name}`) throw new CLIError(e.code, e.message.replace(`--${s.name} `, `${where} `), e.exitCode);
    throw e;
  }
}

/** Every setting from the flags, the environment, the config file and the defaults, in that order. */
export function resolveSettings(argv: readonly string[], env: Record<string, string | undefined>, cwd: string): ResolvedSettings {
  const configPath = flagValue(argv, "config", false) ?? env.REPLYD_CONFIG;
  const config = configPath ? readConfig(resolve(cwd, configPath), SERVE_SETTINGS, accountSettingDefs()) : { settings: {}, accounts: null };
  const file = config.settings;
  const values: Record<string, Value | undefined> = {};
  const sources = {} as Record<SettingName, Source | null>;
  const warnings: string[] = [];
  for (const [name, s] of Object.entries(SERVE_SETTINGS) as [SettingName, Setting][]) {
    const fromFlag = flagValue(argv, name, Boolean(s.boolean));
    if (fromFlag !== undefined && s.noFlag)
      throw usage(`--${name} is never taken as a flag (every user of this machine could read it in ps): set ${s.env} in the environment or "${name}" in the config file`);
    const fromEnv = s.env ? env[s.env] : undefined;
    const fromFile = file[name];
    const [raw, source]: [string | undefined, Source | null] =
      fromFlag !== undefined ? [fromFlag, "flag"] : fromEnv !== undefined ? [fromEnv, "environment"] : fromFile !== undefined ? [fromFile, "file"] : [undefined, s.default === undefined ? null : "default"];
    sources[name] = source;
    if (raw === undefined) {
      values[name] = s.default;
      continue;
    }
    const where = source === "flag" ? `--${name}` : source === "environment" ? (s.env as string) : `"${name}" in the config file`;
    values[name] = s.boolean ? onOff(raw, where) : parsedAt(s, raw, where);
    if (source === "flag" && settingHoldsSecret(s, raw))
      warnings.push(`--${name} given as a flag is visible to every user of this machine (ps); set ${s.env ?? `"${name}"`} in the environment${s.env ? " or" : ""} in the config file instead`);
  }
  const ai = values["ai-url"] as string | undefined;
  if (ai && values["ai-key"] !== undefined && ai.startsWith("http://") && !isLoopback(new URL(ai).hostname))
    warnings.push(`--ai-url is http:// to another machine: the key (REPLYD_AI_KEY) travels in clear text to ${new URL(ai).host}; use https://`);
  // --db is completed from DATABASE_URL and PG*, as PostgreSQL's own tools take them.
  if (values.db !== undefined) values.db = dbOption(values.db as string, env);
  // The data folder as serve uses it (from the working folder), so --check-config shows where it is.
  if (typeof values.data === "string") values.data = resolve(cwd, values.data);
  const accounts = config.accounts ? resolveAccounts(config.accounts, values as Resolved, sources) : null;
  return { values: values as Resolved, sources, warnings, accounts };
}

/** The resolved settings for `serve --check-config`: each with its value (secrets masked) and where it came from; then each account's. */
export function describeSettings(r: ResolvedSettings): string {
  // With a database the data folder is not used: said beside it, where its default had read as a folder serve would make (a bike share's walkthrough).
  // wx-mode without a key: its default "safe" had read as the callback's mode, which took plaintext (a
  // theatre's walkthrough) — of an account, its own key's (the server's line then names none: each account's is its own).
  const plaintext = "  (not used: no wx-aeskey, the callback takes plaintext)";
  const unused = (name: string, keyed: boolean) => (name === "data" && r.values.db !== undefined ? "  (not used: db is set)" : name === "wx-mode" && !keyed ? (r.accounts ? "  (each account's own: below)" : plaintext) : "");
  const line = (keyed: boolean) => (x: { name: string; value: Value | null; secret: boolean; source: string | null }) =>
    `${x.name.padEnd(18)} ${(x.value === null ? "(not set)" : x.secret && x.value !== null ? "(set, hidden)" : String(x.value)).padEnd(40)} ${x.source ?? ""}${unused(x.name, keyed)}`;
  const accounts = (r.accounts ?? []).map((a) => [``, `[accounts.${a.name}]  callback ${r.values["wx-path"].replace(/\/+$/, "")}/${a.name}`, ...accountShown(a).map((x) => (x.name === "wx-mode" && a.values["wx-aeskey"] === undefined ? `${line(true)(x)}${plaintext}` : line(true)(x)))].join("\n"));
  return [settingsShown(r).map(line(r.values["wx-aeskey"] !== undefined)).join("\n"), ...accounts].join("\n");
}

/** Each setting as --check-config shows it: its value (a secret never: only that it is set; a URL's password hidden), and where it came from. */
export function settingsShown(r: ResolvedSettings): { name: SettingName; value: string | number | boolean | null; secret: boolean; source: Source | null }[] {
  return (Object.entries(SERVE_SETTINGS) as [SettingName, Setting][]).map(([name, s]) => {
    const v = r.values[name];
    const value = v === undefined ? null : s.secret ? "(set, hidden)" : s.url ? redactUrl(String(v)) : s.bytes ? formatBytes(Number(v)) : v;
    return { name, value, secret: Boolean(s.secret), source: r.sources[name] };
  });
}
