import { cac } from "cac";
import { BUILD_COMMIT, BUILD_TARGET, VERSION } from "../base/version.ts";
import { addCommand, lsCommand, rmCommand, setCommand, showCommand } from "./commands/articles.ts";
import { healthCommand } from "./commands/health.ts";
import { accountsCommand } from "./commands/accounts.ts";
import { keysCommand } from "./commands/keys.ts";
import { menuCommand } from "./commands/menu.ts";
import { inboxCommand, mediaCommand } from "./commands/messages.ts";
import { replyCommand } from "./commands/reply.ts";
import { profileCommand } from "./commands/profile.ts";
import { synonymsCommand, teachCommand } from "./commands/teach.ts";
import { rulesCommand } from "./commands/rules.ts";
import { reportCommand } from "./commands/report.ts";
import { serveCommand } from "./commands/serve.ts";
import { signCommand } from "./commands/sign.ts";
import { tokenCommand } from "./commands/token.ts";
import { askCommand } from "./commands/ask.ts";
import { backupCommand, backupsCommand } from "./commands/backup.ts";
import { importCommand } from "./commands/import.ts";
import { restoreCommand } from "./commands/restore.ts";
import { noticesCommand } from "./commands/notices.ts";
import { CLIENT_OPTIONS, type CommandSpec } from "./command.ts";
import { unknownOption } from "./unknown-option.ts";
import { nearest } from "../base/suggest.ts";
import { makeContext, type CommandContext } from "./context.ts";
import { CLIError } from "./errors.ts";
import type { IO } from "./io.ts";

type Command = (c: CommandContext) => Promise<void>;

/** Every command, in the order `replyd --help` lists them; each declared beside its handler. */
export const COMMANDS: readonly CommandSpec[] = [
  serveCommand,
  healthCommand,
  accountsCommand,
  tokenCommand,
  askCommand,
  inboxCommand,
  reportCommand,
  menuCommand,
  replyCommand,
  teachCommand,
  synonymsCommand,
  rulesCommand,
  mediaCommand,
  lsCommand,
  showCommand,
  addCommand,
  setCommand,
  rmCommand,
  importCommand,
  backupCommand,
  backupsCommand,
  restoreCommand,
  signCommand,
  keysCommand,
  profileCommand,
  noticesCommand,
];

/** What marks a word after "--" as an argument for cac (a character no command line types), taken off again. */
const ARGUMENT = "\u0001";
const ARGUMENT_MARK = /^\u0001/;

/** Runs one replyd command line; answers the exit status. Never calls process.exit, so tests can drive it. */
export async function run(argv: string[], io: IO): Promise<number> {
  const cli = cac("replyd");
  let chosen: Command | null = null;
  const on = (fn: Command) => () => void (chosen = fn);
  cli.option("--json", "machine-readable output");

  for (const spec of COMMANDS) {
    const command = cli.command(spec.usage, spec.summary);
    for (const o of [...(spec.options ?? []), ...(spec.local ? [] : CLIENT_OPTIONS)]) command.option(o.flags, o.help, o.default !== undefined ? { default: o.default } : undefined);
    // The command's own --help: its usage, then its paragraph; then its examples.
    command.usage(`${spec.usage}\n\n  ${spec.description}`);
    for (const example of spec.examples) command.example(`  $ ${example}`);
    command.action(on(spec.run));
  }
  cli.help((sections) => {
    // cac gives a --no-x option the default true, and prints it: "store without pushing (default: true)" says the opposite.
    const out = sections.map((s) => ({ ...s, body: s.body.replace(/^(\s*--no-\S+.*?) \(default: true\)$/gm, "$1") }));
    // The whole list: what every command that asks a server takes, and where each command's own help is.
    if (!cli.matchedCommand && out.some((s) => s.title === "Commands")) {
      const width = Math.max(...CLIENT_OPTIONS.map((o) => o.flags.length));
      out.push({
        title: "Options of every command that asks a server",
        body: CLIENT_OPTIONS.map((o) => `  ${o.flags.padEnd(width)}  ${o.help}${o.default !== undefined ? ` (default: ${o.default})` : ""}`).join("\n"),
      });
      out.push({ title: "Each command's own options", body: "  replyd help COMMAND, or replyd COMMAND --help" });
    }
    return out;
  });
  cli.version(VERSION);

  // cac's own --version prints the runtime as "bun-v26.3.0" (the Node.js version Bun reports).
  const asked = new Set(argv);
  if ((asked.has("--version") || asked.has("-v")) && argv.every((a) => a === "--version" || a === "-v" || a === "--json")) {
    const build = { version: VERSION, target: BUILD_TARGET, commit: BUILD_COMMIT, bun: Bun.version };
    io.out(asked.has("--json") ? JSON.stringify(build) : `replyd ${VERSION} (${BUILD_TARGET}, commit ${BUILD_COMMIT}; Bun ${Bun.version})`);
    return 0;
  }
  // `replyd help` and `replyd help COMMAND`, as git and npm take them.
  if (argv[0] === "help") {
    const name = argv[1];
    if (name && !COMMANDS.some((c) => c.usage.split(" ")[0] === name)) {
      io.err(`replyd: no command "${name}"; replyd help lists them`);
      return 2;
    }
    return run(name ? [name, "--help"] : ["--help"], io);
  }
  // After "--" every word is an argument, one starting with a minus sign too (replyd ask -- "-5度能发货吗",
  // replyd rm -- -1): each is given to cac marked, so that it reads none as an option and counts
  // them among the command's arguments (words it kept apart after "--" failed a required one).
  const ends = argv.indexOf("--");
  const head = ends < 0 ? argv : argv.slice(0, ends);
  const rest = ends < 0 ? [] : argv.slice(ends + 1).map((a) => ARGUMENT + a);
  try {
    // cac reads a lone "-" as a missing value; "-o -" and "--html -" (standard output) are given to it as one word.
    const toStdout: Record<string, string> = { "-o": "--output=-", "--output": "--output=-", "--html": "--html=-" };
    // …and a value that starts with a minus sign reads as options ("--tz -05:00": "unknown option -0"): given as one word too.
    const signed = (a: string | undefined, next: string | undefined) => a === "--tz" && next !== undefined && /^-\d/.test(next);
    const forCac = head.flatMap((a, i) =>
      (a === "-" && toStdout[head[i - 1] as string]) || signed(head[i - 1], a)
        ? []
        : toStdout[a] && head[i + 1] === "-"
          ? [toStdout[a] as string]
          : signed(a, head[i + 1])
            ? [`${a}=${head[i + 1]}`]
            : [a],
    );
    const parsed = cli.parse(["replyd", "replyd", ...forCac, ...rest], { run: false });
    if (parsed.options.help || parsed.options.version) return 0;
    if (!cli.matchedCommand) {
      if (parsed.args.length) {
        const typed = String(parsed.args[0]);
        const meant = nearest(typed, COMMANDS.map((c) => c.usage.split(" ")[0] as string));
        throw new CLIError("unknown_command", `unknown command "${typed}"${meant ? `: did you mean "${meant}"?` : ""} (replyd --help lists them)`, 2);
      }
      cli.outputHelp();
      return 2;
    }
    await cli.runMatchedCommand();
    if (!chosen) return 0;
    const args = (parsed.args as unknown[]).flat().map((a) => String(a).replace(ARGUMENT_MARK, ""));
    await (chosen as Command)(makeContext(io, argv, args, parsed.options));
    return 0;
  } catch (e) {
    const failure =
      e instanceof CLIError
        ? e
        : (e as Error)?.name === "CACError"
          ? (unknownOption((e as Error).message, argv, COMMANDS) ?? new CLIError("usage", `${(e as Error).message}; run replyd ${cli.matchedCommand ? `${cli.matchedCommand.name} ` : ""}--help`, 2))
          : new CLIError("unexpected", `unexpected error: ${(e as Error)?.message ?? String(e)}`);
    // With --json a failure is one JSON object on stdout too, for the script that reads it; the exit status says it failed.
    if (head.includes("--json")) {
      const { code, detailLines } = failure;
      // The text form ends "[code, HTTP 401; …]": the object carries the code on its own.
      const message = failure.message.replace(/ \[[a-z0-9_]+(, [^\]]*)?\]$/, "");
      io.out(JSON.stringify({ ok: false, error: { code, message, ...(detailLines.length ? { details: detailLines.map((l) => l.trim()) } : {}) } }));
    } else {
      io.err(`replyd: ${failure.message}`);
      for (const line of failure.detailLines) io.err(line);
    }
    return failure.exitCode;
  }
}
