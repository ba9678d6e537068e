/**
 * `serve --config FILE`: a TOML table of setting names, read as an operator trusts it. A key that is
 * no setting is refused (a typo is an error, not ignored); a file holding a secret is refused while
 * other users can read or write it, as keys.json is; and a file that is not TOML is refused naming
 * the line, never printing what is on it — that line may be the key someone forgot to quote.
 */
import { closeSync, fstatSync, openSync, readFileSync } from "node:fs";
import { openToOthers } from "../fsutil.ts";
import { CLIError } from "./errors.ts";
import type { Setting } from "./settings.ts";

const bad = (message: string) => new CLIError("bad_config", message, 2);

/** A password in a URL (`postgres://user:password@host`). */
const URL_PASSWORD = /:\/\/[^/@\s]*:[^/@\s]*@/;

/** Whether a setting's value must stay between its owner and replyd: a secret, or a URL with a password. */
export const settingHoldsSecret = (s: Setting, raw: string): boolean => Boolean(s.secret || (s.url && URL_PASSWORD.test(raw)));

/** The config file's settings by name, as text (parsed by each setting's own parser later). */
export function readConfigFile(path: string, known: Readonly<Record<string, Setting>>, platform: NodeJS.Platform = process.platform): Record<string, string> {
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
  const out: Record<string, string> = {};
  let secret: string | null = null;
  for (const [key, value] of Object.entries(parsed)) {
    const s = Object.hasOwn(known, key) ? known[key] : undefined;
    // A key that is not a setting's shape may be a secret written where a name goes: never quoted back.
    if (!s) throw bad(`${path}: ${/^[a-z]{1,16}(?:-[a-z]{1,16}){0,3}$/.test(key) ? `"${key}"` : "a key"} is not a setting; known: ${Object.keys(known).join(", ")}`);
    if (typeof value !== "string" && typeof value !== "number" && typeof value !== "boolean") throw bad(`${path}: "${key}" must be a string, a number or true/false`);
    out[key] = String(value);
    if (!secret && settingHoldsSecret(s, out[key])) secret = key;
  }
  // Others may not read it when it holds a secret, nor ever write it: they would choose where the key or the AppSecret is sent (ai-url, wx-api).
  const exposed = secret ? openToOthers(path, mode, platform) : null;
  if (exposed) throw bad(`the config file holds a secret ("${secret}") and ${exposed}`);
  const writable = openToOthers(path, mode & 0o022, platform);
  if (writable) throw bad(`the config file decides where replyd sends its keys and ${writable}`);
  return out;
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
  return bad(`${path}: line ${broken}${named} is not valid TOML: ${tomlReason(message, line, known)} (what the line holds is not shown)`);
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
