/** Every failure the service reports: a stable machine `code`, an HTTP `status`, a human message. */
export class ReplydError extends Error {
  constructor(
    readonly code: string,
    readonly status: number,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = "ReplydError";
  }
}

export interface Problem {
  /** Record index inside its section, when the problem belongs to one record. */
  index?: number;
  section?: string;
  field: string;
  reason: string;
}

/** The most problems one error carries; a document with more says how many were left out. */
export const MAX_PROBLEMS_LISTED = 1000;

/**
 * Problems found while checking a document: the first MAX_PROBLEMS_LISTED are kept, the rest only
 * counted, so a document of a million bad records costs a counter, not a list of millions.
 */
export class ProblemList {
  readonly listed: Problem[] = [];
  total = 0;

  push(...problems: Problem[]): void {
    for (const p of problems) {
      this.total++;
      if (this.listed.length < MAX_PROBLEMS_LISTED) this.listed.push(p);
    }
  }

  get length(): number {
    return this.total;
  }
}

export class InvalidDocumentError extends ReplydError {
  readonly problems: Problem[];
  constructor(problems: Problem[] | ProblemList, message = "the document is invalid; nothing was written") {
    const listed = problems instanceof ProblemList ? problems.listed : problems.slice(0, MAX_PROBLEMS_LISTED);
    const total = problems.length;
    super("invalid_document", 400, `${message} (${total} problem${total === 1 ? "" : "s"})`, { problems: listed, total_problems: total });
    this.problems = listed;
  }
}

export const badRequest = (message: string, code = "bad_request", details?: Record<string, unknown>) =>
  new ReplydError(code, 400, message, details);
export const notFound = (message: string, code = "not_found") => new ReplydError(code, 404, message);
export const conflict = (message: string, code = "conflict", details?: Record<string, unknown>) =>
  new ReplydError(code, 409, message, details);

/** `articles[3].url: must be an absolute http(s) URL`, one line per problem, with the count left out. */
export function formatProblems(problems: readonly Problem[], total = problems.length): string[] {
  const lines = problems.map((p) => {
    const where = `${p.section ?? ""}${p.index !== undefined ? `[${p.index}]` : ""}${p.section || p.index !== undefined ? "." : ""}${p.field}`;
    return `  ${where}: ${p.reason}`;
  });
  if (total > lines.length) lines.push(`  … and ${total - lines.length} more`);
  return lines;
}
