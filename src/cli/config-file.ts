/**
 * `serve --config FILE`: a TOML table of setting names, read as an operator trusts it. A key that is
 * no setting is refused (a typo is an error, not ignored); a file holding a secret is refused while
 * other users can read or write it, as keys.json is; and a file that is not TOML is refused naming
 * the line, never printing what is on it — that line may be the key someone forgot to quote.
 */
import { closeSync, fstatSync, openSync, readFileSync } from "node:fs";
import { ACCOUNT_NAME } from "../base/account-name.ts";
import { openToOthers } from "../base/fsutil.ts";
import { CLIError } from "./errors.ts";
import type { Setting } from "./setting-defs.ts";
import { didYouMean } from "../base/suggest.ts";

const bad = (message: string) => new CLIError("bad_config", message, 2);

/** A password in a URL (`postgres://user:password@host`). */
const URL_PASSWORD = /:\/\/[^/@\s]*:[^/@\s]*@/;

/** Whether a setting's value must stay between its owner and replyd: a secret, or a URL with a password. */
export const settingHoldsSecret = (s: Setting, raw: string): boolean => Boolean(s.secret || (s.url && URL_PASSWORD.test(raw)));

/** The config file's settings by name, as text (parsed by each setting's own parser later). */
export function readConfigFile(path: string, known: Readonly<Record<string, Setting>>, platform: NodeJS.Platform = process.platform): Record<string, string> {
  return readConfig(path, known, {}, platform).settings;
}

export interface ConfigFile {
  /** The server's settings by name, as text. */
  settings: Record<string, string>;
  /** `[accounts.NAME]` tables, in the file's order, each its settings by name as text; null when the file declares none. */
  accounts: { name: string; settings: Record<string, string> }[] | null;
}

/**
 * The config file: the server's settings, and the accounts it declares (`[accounts.NAME]`, each
 * with the settings an account may set, `perAccount`). A name is checked as every account name is
 * (base/account-name.ts); a key an account may not set is refused as an unknown one is.
 */
export function readConfig(
  path: string,
  known: Readonly<Record<string, Setting>>,
  perAccount: Readonly<Record<string, Setting>>,
  platform: NodeJS.Platform = process.platform,
): ConfigFile {
  let text: string;
  let mode: number;
  try {
    // The mode of the file read, not of whatever is at the path a moment later.
    const fd = openSync(path, "r");
    try {
      mode = fstatSync(fd).mode;
      text = readFileSync(fd, "utf8");
    } finally {
      closeSync(fd);
    }
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw bad(`cannot read the config file ${path}: ${code === "ENOENT" ? "no such file" : code === "EACCES" ? "permission denied" : code === "EISDIR" ? "it is a folder" : (e as Error).message}`);
  }
  let parsed: Record<string, unknown>;
  try {
    parsed = Bun.TOML.parse(text) as Record<string, unknown>;
  } catch (e) {
    throw notToml(path, text, (e as Error).message, known);
  }
  let secret: string | null = null;
  /** One table's settings; `where` names it in a refusal ("", or ` in [accounts.shop]`). */
  const table = (entries: Record<string, unknown>, allowed: Readonly<Record<string, Setting>>, where: string) => {
    const out: Record<string, string> = {};
    for (const [key, value] of Object.entries(entries)) {
      const s = Object.hasOwn(allowed, key) ? allowed[key] : undefined;
      // A key that is not a setting's shape may be a secret written where a name goes: never quoted back.
      if (!s) {
        // A setting's name written with _ (wx_token): named, as the name it means. Any other key
        // shaped like a name is quoted with the nearest setting; one that is not may be a secret.
        const dashed = key.replace(/_/g, "-");
        const meant = Object.hasOwn(allowed, dashed);
        const named = meant || /^[a-z]{1,16}(?:-[a-z]{1,16}){0,3}$/.test(key);
        const hint = meant ? `; did you mean "${dashed}"?` : named ? didYouMean(key, Object.keys(allowed)).replace(/mean (.*)\?$/, 'mean "$1"?') : "";
        throw bad(`${path}: ${named ? `"${key}"` : "a key"} is not a setting${where}${hint} (known: ${Object.keys(allowed).join(", ")})`);
      }
      if (typeof value !== "string" && typeof value !== "number" && typeof value !== "boolean") throw bad(`${path}: "${key}"${where} must be a string, a number or true/false`);
      out[key] = String(value);
      if (!secret && settingHoldsSecret(s, out[key])) secret = `"${key}"${where}`;
    }
    return out;
  };
  const { accounts: declared, ...server } = parsed;
  const out = table(server, known, "");
  let accounts: ConfigFile["accounts"] = null;
  if (declared !== undefined) {
    if (typeof declared !== "object" || declared === null || Array.isArray(declared) || declared instanceof Date)
      throw bad(`${path}: "accounts" must be tables, one per account: [accounts.NAME]`);
    accounts = [];
    for (const [name, settings] of Object.entries(declared as Record<string, unknown>)) {
      // Never quoted back unless it is a name's shape: it may be a value written where a name goes.
      if (!ACCOUNT_NAME.test(name))
        throw bad(`${path}: ${/^[A-Za-z0-9_.-]{1,40}$/.test(name) ? `[accounts.${name}]` : "an [accounts.…] table"}: an account's name is 1 to 32 lower-case letters, digits, - and _, starting with a letter or digit`);
      if (typeof settings !== "object" || settings === null || Array.isArray(settings)) throw bad(`${path}: accounts.${name} must be a table: [accounts.${name}]`);
      accounts.push({ name, settings: table(settings as Record<string, unknown>, perAccount, ` in [accounts.${name}]`) });
    }
    if (!accounts.length) throw bad(`${path}: [accounts] declares no account: add [accounts.NAME] tables, or remove it`);
  }
  // Others may not read it when it holds a secret, nor ever write it: they would choose where the key or the AppSecret is sent (ai-url, wx-api).
  const exposed = secret ? openToOthers(path, mode, platform) : null;
  if (exposed) throw bad(`the config file holds a secret (${secret}) and ${exposed}`);
  const writable = openToOthers(path, mode & 0o022, platform);
  if (writable) throw bad(`the config file decides where replyd sends its keys and ${writable}`);
  return { settings: out, accounts };
}

/** Whether this much of a file reads as TOML. */
function reads(text: string): boolean {
  try {
    Bun.TOML.parse(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * The refusal of a file that is not TOML: the line it stops reading at, its key when that is a
 * setting, and why, without any of the line's value. Bun's messages quote the value ("Strings must
 * be quoted: "sk-…"") and give no position of their own (an error's line and column are the
 * caller's): the line is the first from which the file no longer reads, found by halves.
 */
function notToml(path: string, text: string, message: string, known: Readonly<Record<string, Setting>>): CLIError {
  const lines = text.split("\n");
  let good = 0;
  let broken = lines.length;
  while (broken - good > 1) {
    const mid = (good + broken) >> 1;
    if (reads(lines.slice(0, mid).join("\n"))) good = mid;
    else broken = mid;
  }
  const line = lines[broken - 1] ?? "";
  const key = /^\s*([A-Za-z0-9_-]+)\s*=/.exec(line)?.[1];
  const named = key !== undefined && Object.hasOwn(known, key) ? ` ("${key}")` : "";
  // A setting's value left unquoted (max-upload = 64M, wx-mode = safe): TOML takes only numbers and true/false bare.
  const value = /^\s*[A-Za-z0-9_-]+\s*=\s*(.*)$/.exec(line)?.[1]?.trim() ?? "";
  // One word, unquoted, that is no number or true/false (64M, safe): two words are no slip of quoting.
  const word = value.replace(/\s*#.*$/, "");
  const bare = named && /^[^\s"'[{]+$/.test(word) && !/^(?:[-+]?\d+(?:\.\d+)?|true|false)$/.test(word);
  const yesNo = key !== undefined && known[key]?.boolean;
  const reason = tomlReason(message, line, known);
  const hint = !bare ? "" : yesNo ? `; ${key} is true or false` : /quot/i.test(reason) ? "" : `; a value other than a number or true/false goes in quotes: ${key} = "…"`;
  return bad(`${path}: line ${broken}${named} is not valid TOML: ${reason}${hint} (what the line holds is not shown)`);
}

/** Bun's reason with everything that may be taken from the file cut out: what follows a colon, what was found, quoted text but a key's name or one punctuation mark. */
export function tomlReason(message: string, line: string, known: Readonly<Record<string, Setting>>): string {
  let why = message.replace(/^TOML Parse error:\s*/i, "");
  const colon = why.indexOf(":");
  if (colon >= 0) why = why.slice(0, colon);
  why = why.replace(/\s*but found\b.*$/i, "");
  why = why.replace(/'([^']*)'|"([^"]*)"/g, (quoted, a?: string, b?: string) => {
    const inside = a ?? b ?? "";
    return /^[[\]{}=,.#"']$/.test(inside) || Object.hasOwn(known, inside) ? quoted : "…";
  }).trim();
  // However Bun worded it, no piece of the line but a setting's name is in it.
  const key = /^\s*([A-Za-z0-9_-]+)\s*=/.exec(line);
  const rest = key && Object.hasOwn(known, key[1] as string) ? line.slice(key[0].length) : line;
  const pieces = rest.split(/[^A-Za-z0-9]+/).filter((p) => p.length >= 3);
  if (!why || pieces.some((p) => why.includes(p))) return "it is not a setting = value";
  return why.charAt(0).toLowerCase() + why.slice(1);
}
