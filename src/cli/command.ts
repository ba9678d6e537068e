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
  run(c: CommandContext): Promise<void>;
}

export const defineCommand = (spec: CommandSpec): CommandSpec => spec;

/** The listing commands' paging (the server caps a page at 1000). */
export const PAGING: readonly OptionSpec[] = [
  { flags: "--limit <n>", help: "how many, up to 1000" },
  { flags: "--offset <n>", help: "skip this many" },
];
