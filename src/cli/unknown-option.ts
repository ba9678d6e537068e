/**
 * An option nothing takes, named as it was typed. cac reports `--max-uploads` as `--maxUploads`
 * (its camelCase key); the operator typed the first. The command's own options and the client's
 * are compared for the closest (`did you mean --max-upload?`), and a setting that is never a flag
 * (`--ai-key`) says where it goes instead.
 */
import { CLIENT_OPTIONS, type CommandSpec } from "./command.ts";
import { CLIError } from "./errors.ts";
import { SERVE_SETTINGS, type Setting } from "./setting-defs.ts";
import { didYouMean } from "../base/suggest.ts";

const camel = (flag: string) => flag.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());

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
  const hint = didYouMean(typed, known);
  const where = spec ? `replyd ${name} --help` : "replyd --help";
  return new CLIError("usage", `unknown option ${typed}${spec ? ` for ${name}` : ""}${hint} (${where} lists them)`, 2);
}
