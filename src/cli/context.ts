import { ANSWER_DEFAULTS } from "./verified-answer.ts";
import { numberOption, rawOption, sizeOption } from "./args.ts";
import { Client } from "./client.ts";
import { resolveConfig } from "./config.ts";
import { usage } from "./errors.ts";
import type { IO } from "./io.ts";

/** What every command receives: its arguments, the raw argv for string options, I/O, a lazily built client. */
export interface CommandContext {
  io: IO;
  argv: readonly string[];
  args: string[];
  flags: Record<string, unknown>;
  json: boolean;
  client(): Client;
  /** A text option read from the raw argv (never coerced to a number). */
  str(...names: string[]): string | undefined;
  /** `[name, value]` for each of these `--name` options that was given, for a request's fields. */
  given(...names: string[]): [string, string][];
  /** --limit and --offset as fields, checked here: a usage error (exit 2) before any request. */
  paging(): [string, string][];
  print(data: unknown, human: () => string): void;
}

export function makeContext(io: IO, argv: readonly string[], args: string[], flags: Record<string, unknown>): CommandContext {
  let client: Client | undefined;
  const json = Boolean(flags.json);
  const str = (...names: string[]) => rawOption(argv, ...names);
  return {
    io,
    argv,
    args,
    flags,
    json,
    str,
    given: (...names) => names.flatMap((n) => {
      const v = str(`--${n}`);
      return v === undefined ? [] : [[n, v] as [string, string]];
    }),
    paging: () =>
      (["limit", "offset"] as const).flatMap((n) => {
        const v = str(`--${n}`);
        if (v === undefined) return [];
        const [min, max] = n === "limit" ? [1, 1000] : [0, Number.MAX_SAFE_INTEGER];
        if (!/^\d{1,16}$/.test(v) || Number(v) < min || Number(v) > max)
          throw usage(n === "limit" ? `--limit must be a whole number from 1 to 1000 ("${v}" given)` : `--offset must be a whole number, 0 or more ("${v}" given)`);
        return [[n, String(Number(v))] as [string, string]];
      }),
    client: () =>
      (client ??= new Client(resolveConfig({ url: str("--url"), appkey: str("--appkey"), secret: str("--secret"), profile: str("--profile") }, io), io, {
        ...ANSWER_DEFAULTS,
        timeoutMs: numberOption(argv, "--timeout", ANSWER_DEFAULTS.timeoutMs / 1000, 0.1, 86_400) * 1000,
        idleMs: numberOption(argv, "--idle-timeout", ANSWER_DEFAULTS.idleMs / 1000, 0.1, 86_400) * 1000,
        maxAnswer: sizeOption(argv, "--max-answer", ANSWER_DEFAULTS.maxAnswer),
        maxDownload: sizeOption(argv, "--max-download", ANSWER_DEFAULTS.maxDownload),
      })),
    print: (data, human) => io.out(json ? JSON.stringify(data, null, 2) : human()),
  };
}
