import { cac } from "cac";
import { VERSION } from "../version.ts";
import { add, ls, rm, set, show } from "./commands/articles.ts";
import { health } from "./commands/health.ts";
import { token } from "./commands/token.ts";
import { menu } from "./commands/menu.ts";
import { reply } from "./commands/reply.ts";
import { inbox, media } from "./commands/messages.ts";
import { keys } from "./commands/keys.ts";
import { serve } from "./commands/serve.ts";
import { sign } from "./commands/sign.ts";
import { backup, backups, importCmd, restore } from "./commands/transfer.ts";
import { makeContext, type CommandContext } from "./context.ts";
import { CLIError } from "./errors.ts";
import { SERVE_SETTINGS, type Setting } from "./settings.ts";
import { formatBytes } from "./args.ts";
import type { IO } from "./io.ts";

type Command = (c: CommandContext) => Promise<void>;

/** Runs one replyd command line; answers the exit status. Never calls process.exit, so tests can drive it. */
export async function run(argv: string[], io: IO): Promise<number> {
  const cli = cac("replyd");
  let chosen: Command | null = null;
  const on = (fn: Command) => () => void (chosen = fn);
  /** The listing commands' paging options (the server caps a page at 1000). */
  const paged = (command: ReturnType<typeof cli.command>) =>
    command.option("--limit <n>", "how many, up to 1000").option("--offset <n>", "skip this many");

  cli.option("--url <url>", "server address (env REPLYD_URL)");
  cli.option("--appkey <appkey>", "admin key id (env REPLYD_APPKEY)");
  cli.option("--secret <secret>", "admin key secret (env REPLYD_SECRET)");
  cli.option("--json", "machine-readable output");
  cli.option("--timeout <seconds>", "longest wait for an answer to start, and for a whole answer that is not a download", { default: 120 });
  cli.option("--idle-timeout <seconds>", "longest silence while an answer arrives (downloads are bounded by this)", { default: 30 });
  cli.option("--max-answer <size>", "largest answer read into memory", { default: "32M" });
  cli.option("--max-download <size>", "largest backup download", { default: "8G" });

  // serve's options come from its settings (settings.ts), declared there once.
  const serveCommand = cli
    .command("serve", "run the server")
    .option("--config <file>", "read settings from this TOML file (env REPLYD_CONFIG): flag > environment > file > default")
    .option("--check-config", "print the settings in effect (secrets hidden) and where each came from, then exit");
  for (const s of Object.values(SERVE_SETTINGS) as Setting[]) {
    const env = s.env ? ` (env ${s.env})` : "";
    const def = s.default !== undefined && !s.boolean ? { default: s.bytes ? formatBytes(Number(s.default)) : s.default } : undefined;
    serveCommand.option(s.boolean ? `--${s.name}` : `--${s.name} <value>`, `${s.help}${env}`, def);
  }
  serveCommand.action(on(serve));
  cli.command("health", "check the server: status, counts, newest backup").action(on(health));
  cli.command("token", "print the account's current access token (the server keeps it; a token or admin key)").action(on(token));
  paged(cli.command("inbox", "follower messages that matched nothing, newest first").option("--all", "every logged message, not only the unmatched")).action(
    on(inbox),
  );
  cli
    .command("menu [...action]", "the account's menu: show it, or pull | set FILE | push | rm")
    .option("--live", "show the platform's live menu instead of the stored one")
    .option("--no-push", "with set: store the menu without pushing it")
    .option("--keep-live", "with rm: remove the stored menu only")
    .action(on(menu));
  cli
    .command("reply <to> [...text]", "answer a follower (openid, or an inbox message's id) with a text or --article CODE")
    .option("--article <code>", "send this article instead of a text")
    .action(on(reply));
  cli.command("media <action> <file>", "upload an image (media put FILE) and print its URL for picurl").action(on(media));
  paged(
    cli
      .command("ls [...words]", "list articles (all, or matching words)")
      .option("--tag <tag>", "only this tag")
      .option("--code <code>", "the live article with this code")
      .option("-q, --q <words>", "words in title, description, keywords or code")
      .option("--deleted <which>", "live (default), all or only")
      .option("--all", "include deleted articles"),
  ).action(on(ls));
  cli.command("show <id>", "show one article").action(on(show));
  cli.command("add [...fields]", "add one article: title=… url=… [id= code= tag= description= picurl= keywords=a,b]").action(on(add));
  cli
    .command("set <id> [...fields]", "revise an article: only the fields given change (rev=N: only if still at rev N); an unknown id is created")
    .option("--undelete", "bring a deleted article back")
    .action(on(set));
  cli.command("rm <id>", "delete an article (restorable)").option("--purge", "remove it for good").action(on(rm));
  cli.command("import <file>", "bulk add articles from a document or a JSON array").option("--init", "replace all articles with the file's").action(on(importCmd));
  cli
    .command("backup [matter]", "back up all|articles|rules|texts|menu on the server, then download it")
    .option("-o, --output <file>", "where to save it")
    .option("--force", "replace the file if it exists")
    .action(on(backup));
  cli.command("backups [matter]", "list server backups").action(on(backups));
  cli
    .command("restore [file]", "replace data on the server from a document")
    .option("--matter <matter>", "what to restore from it (default: the document's matter)")
    .option("--id <backup>", "restore a server backup instead of a local file")
    .option("--yes", "do not ask for confirmation")
    .option("--push", "push the restored menu to the platform (matters all and menu)")
    .action(on(restore));
  cli
    .command("sign <method> <path> [...params]", "print signed parameters for curl or httpie (k=v, name@file)")
    .option("--curl", "print a curl command")
    .option("--httpie", "print an httpie command")
    .option("--ts <ts>", "sign with this ts instead of now")
    .option("--nonce <nonce>", "sign with this nonce instead of a fresh one")
    .option("--verbose", "also print the canonical string on stderr")
    .action(on(sign));
  cli
    .command("keys [action] [appkey]", "manage admin keys in the local data folder, or in the database with --db: ls, add, rm")
    .option("--data <dir>", "data folder (env REPLYD_DATA)")
    .option("--db <url>", "the PostgreSQL database the servers share, postgres://… (env REPLYD_DB; completed from DATABASE_URL and PG*)")
    .option("--scope <scope>", "admin, read or token (with add)")
    .option("--note <text>", "a note stored with the key (with add)")
    .action(on(keys));
  cli.help();
  cli.version(VERSION);

  // cac's own --version prints the runtime as "bun-v26.3.0" (the Node.js version Bun reports).
  if (argv.length === 1 && (argv[0] === "--version" || argv[0] === "-v")) {
    io.out(`replyd ${VERSION} (Bun ${Bun.version}, ${process.platform}-${process.arch})`);
    return 0;
  }
  try {
    // cac reads a lone "-" as a missing value; "-o -" (standard output) is given to it as one word.
    const forCac = argv.flatMap((a, i) => (a === "-" && (argv[i - 1] === "-o" || argv[i - 1] === "--output") ? [] : a === "-o" || a === "--output" ? (argv[i + 1] === "-" ? ["--output=-"] : [a]) : [a]));
    const parsed = cli.parse(["replyd", "replyd", ...forCac], { run: false });
    if (parsed.options.help || parsed.options.version) return 0;
    if (!cli.matchedCommand) {
      if (parsed.args.length) throw new CLIError("unknown_command", `unknown command "${parsed.args[0]}"; run replyd --help`, 2);
      cli.outputHelp();
      return 2;
    }
    await cli.runMatchedCommand();
    if (!chosen) return 0;
    const args = (parsed.args as unknown[]).flat().map(String);
    await (chosen as Command)(makeContext(io, argv, args, parsed.options));
    return 0;
  } catch (e) {
    const failure =
      e instanceof CLIError
        ? e
        : (e as Error)?.name === "CACError"
          ? new CLIError("usage", `${(e as Error).message}; run replyd --help`, 2)
          : new CLIError("unexpected", `unexpected error: ${(e as Error)?.message ?? String(e)}`);
    // With --json a failure is one JSON object on stdout too, for the script that reads it; the exit status says it failed.
    if (argv.includes("--json")) {
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
