/**
 * A client command declared beside its handler (as citty declares them): its usage, a line for
 * `replyd --help`, a paragraph and examples for its own `--help`, and its options. cli/index.ts
 * registers every command from these and declares nothing of its own but the global options.
 */
import type { CommandContext } from "./context.ts";

export interface OptionSpec {
  /** As cac takes them: `--tag <tag>`, `-o, --output <file>`, `--force`. */
  readonly flags: string;
  readonly help: string;
  readonly default?: string | number;
}

export interface CommandSpec {
  /** `ls [...words]`: the name and its arguments. */
  readonly usage: string;
  /** One line in the list of commands. */
  readonly summary: string;
  /** A paragraph in the command's own --help. */
  readonly description: string;
  readonly examples: readonly string[];
  readonly options?: readonly OptionSpec[];
  /** Runs on this machine without a server (serve, keys, profile, sign): the client's options are not its. */
  readonly local?: true;
  /** Options it refuses on purpose, and what to do instead (`profile add --secret`). */
  readonly refused?: Readonly<Record<string, string>>;
  run(c: CommandContext): Promise<void>;
}

/** What a command that talks to a server takes besides its own options (its --help lists them with its own). */
export const CLIENT_OPTIONS: readonly OptionSpec[] = [
  { flags: "--url <url>", help: "server address (env REPLYD_URL)" },
  { flags: "--appkey <appkey>", help: "admin key id (env REPLYD_APPKEY)" },
  { flags: "--secret <secret>", help: "admin key secret (env REPLYD_SECRET; a profile or the environment keep it out of ps)" },
  { flags: "--profile <name>", help: "a kept server and key (env REPLYD_PROFILE; replyd profile ls); flags and the environment come first" },
  { flags: "--timeout <seconds>", help: "longest wait for an answer to start, and for a whole answer that is not a download", default: 120 },
  { flags: "--idle-timeout <seconds>", help: "longest silence while an answer arrives (downloads are bounded by this)", default: 30 },
  { flags: "--max-answer <size>", help: "largest answer read into memory", default: "32M" },
  { flags: "--max-download <size>", help: "largest backup download", default: "8G" },
];

export const defineCommand = (spec: CommandSpec): CommandSpec => spec;

/** The listing commands' paging (the server caps a page at 1000). */
export const PAGING: readonly OptionSpec[] = [
  { flags: "--limit <n>", help: "how many, up to 1000" },
  { flags: "--offset <n>", help: "skip this many" },
];
