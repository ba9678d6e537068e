/**
 * An option nothing takes, named as it was typed. cac reports `--max-uploads` as `--maxUploads`
 * (its camelCase key); the operator typed the first. The command's own options and the client's
 * are compared for the closest (`did you mean --max-upload?`), and a setting that is never a flag
 * (`--ai-key`) says where it goes instead.
 */
import { CLIENT_OPTIONS, type CommandSpec } from "./command.ts";
import { CLIError } from "./errors.ts";
import { SERVE_SETTINGS, type Setting } from "./setting-defs.ts";

const camel = (flag: string) => flag.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());

/** Edit distance, for a suggestion: options are short. */
function distance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) cur[j] = Math.min((prev[j] as number) + 1, (cur[j - 1] as number) + 1, (prev[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[b.length] as number;
}

/** The usage error for cac's "Unknown option `--x`", or null when that is not what `message` says. */
export function unknownOption(message: string, argv: readonly string[], commands: readonly CommandSpec[]): CLIError | null {
  const reported = /^Unknown option `(-[^`]+)`/.exec(message)?.[1];
  if (!reported) return null;
  const typed = argv.map((a) => a.replace(/=.*$/, "")).find((a) => a.startsWith("--") && `--${camel(a.slice(2))}` === reported) ?? reported;
  const name = argv.find((a) => !a.startsWith("-"));
  const spec = commands.find((c) => c.usage.split(" ")[0] === name);
  const setting = spec?.usage.startsWith("serve") ? (SERVE_SETTINGS as Record<string, Setting>)[typed.slice(2)] : undefined;
  const refused = spec?.refused?.[typed];
  if (refused) return new CLIError("usage", refused, 2);
  if (setting?.noFlag)
    return new CLIError("usage", `${typed} is never taken as a flag (every user of this machine could read it in ps): set ${setting.env} in the environment or "${setting.name}" in the config file (--config)`, 2);
  const known = [...(spec?.options ?? []), ...(spec && !spec.local ? CLIENT_OPTIONS : []), { flags: "--json" }, { flags: "--help" }].map((o) => /--[a-z][a-z0-9-]*/.exec(o.flags)?.[0] as string);
  const near = known.map((k) => ({ k, d: distance(typed, k) })).sort((a, b) => a.d - b.d)[0];
  const hint = near && near.d <= Math.max(2, Math.floor(typed.length / 4)) ? `; did you mean ${near.k}?` : "";
  const where = spec ? `replyd ${name} --help` : "replyd --help";
  return new CLIError("usage", `unknown option ${typed}${spec ? ` for ${name}` : ""}${hint} (${where} lists them)`, 2);
}
