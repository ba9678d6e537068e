import { formatProblems, ReplydError, type Problem } from "../base/errors.ts";

/** A client failure: printed as one line, exit status non-zero. */
export class CLIError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly exitCode = 1,
    /** Lines printed after the one-line reason (e.g. every problem in a refused document). */
    readonly detailLines: string[] = [],
  ) {
    super(message);
    this.name = "CLIError";
  }
}

export const usage = (message: string) => new CLIError("usage", message, 2);

/**
 * Runs a check the server would make, before anything leaves the laptop: its refusal becomes the
 * client's, naming the file, with every problem listed.
 */
export function checkedLocally<T>(file: string, check: () => T): T {
  try {
    return check();
  } catch (e) {
    if (!(e instanceof ReplydError)) throw e;
    const problems = (e.details?.problems ?? []) as Problem[];
    throw new CLIError(e.code, `${file}: ${e.message} [${e.code}]`, 1, formatProblems(problems, Number(e.details?.total_problems ?? problems.length)));
  }
}

/**
 * A server older than this client refusing what it sent (`code`, its message matching `refused`):
 * said as what it is — "the server is older than replyd …" and what to do instead —, any other error
 * as it is. The flags a release adds meet servers before it (--replace-questions, inbox --lists, a
 * second ask --after).
 */
export function olderServerSaid(e: unknown, code: string, refused: RegExp, said: string): unknown {
  if (!(e instanceof CLIError) || e.code !== code || !refused.test(e.message)) return e;
  return new CLIError(e.code, `the server is older than replyd ${said}`, e.exitCode);
}
