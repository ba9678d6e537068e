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
