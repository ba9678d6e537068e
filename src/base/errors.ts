/**
 * Every code the service answers with, and its HTTP status: the closed set, declared once.
 * docs/protocol.md explains each; the client and the tests compare against CODE, never a literal.
 */
export const ERRORS = {
  // The request, or a document in it, is not what it should be.
  bad_request: 400,
  unknown_field: 400,
  repeated_field: 400,
  bad_json: 400,
  bad_encoding: 400,
  invalid_document: 400,
  invalid_article: 400,
  invalid_menu: 400,
  checksum_mismatch: 400,
  matter_mismatch: 400,
  bad_matter: 400,
  bad_media: 400,
  too_many_fields: 400,
  too_many_words: 400,
  bad_host: 400,
  account_required: 400,
  not_a_follower_message: 400,
  text_too_long: 400,
  bad_openid: 400,
  nothing_to_push: 400,
  not_a_question: 400,
  leans_on_before: 400,
  // The callback's refusals of what does not come from the platform.
  bad_xml: 400,
  bad_encryption: 400,
  plaintext_refused: 401,
  wrong_sender: 401,
  wrong_account: 403,
  signature_reused: 401,
  // Who is asking.
  unsigned: 401,
  unknown_appkey: 401,
  bad_signature: 401,
  stale_timestamp: 401,
  replayed: 401,
  forbidden: 403,
  too_many_failures: 429,
  // What is asked for.
  not_found: 404,
  no_menu: 404,
  no_live_menu: 404,
  no_message: 404,
  unknown_account: 404,
  id_exists: 409,
  code_taken: 409,
  rev_mismatch: 409,
  window_closed: 409,
  reply_limit: 409,
  key_from_environment: 409,
  article_deleted: 409,
  already_taught: 409,
  answered_by_another: 409,
  too_large: 413,
  // What the server depends on.
  platform_refused: 502,
  platform_unreachable: 502,
  busy: 503,
  upload_failed: 503,
  platform_not_configured: 503,
  ai_not_configured: 503,
  database_unavailable: 503,
  outcome_unknown: 503,
  redis_unavailable: 503,
  keys_unavailable: 503,
  read_only: 500,
  io_error: 500,
  disk_full: 507,
  not_logged: 507,
  not_stored: 507,
  internal: 500,
} as const;

export type ErrorCode = keyof typeof ERRORS;

/** Each code by its name (`CODE.rev_mismatch`): what answers are compared against. */
export const CODE = Object.fromEntries(Object.keys(ERRORS).map((k) => [k, k])) as { readonly [K in ErrorCode]: K };

export const isErrorCode = (code: unknown): code is ErrorCode => typeof code === "string" && Object.hasOwn(ERRORS, code);

/** Every failure the service reports: a code of the closed set, its HTTP status, a human message. */
export class ReplydError extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.status = ERRORS[code];
    this.name = "ReplydError";
  }
}

export interface Problem {
  /** Record index inside its section, when the problem belongs to one record. */
  index?: number;
  /** That record's id, when it has a valid one: what the operator finds it by. */
  id?: string;
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
    super("invalid_document", `${message} (${total} problem${total === 1 ? "" : "s"})`, { problems: listed, total_problems: total });
    this.problems = listed;
  }
}

export const badRequest = (message: string, code: ErrorCode = "bad_request", details?: Record<string, unknown>) => new ReplydError(code, message, details);
export const notFound = (message: string, code: ErrorCode = "not_found") => new ReplydError(code, message);
export const tooLarge = (message: string) => new ReplydError("too_large", message);
export const conflict = (message: string, code: ErrorCode, details?: Record<string, unknown>) => new ReplydError(code, message, details);

/** `articles[3] (guarantors).url: must be an absolute http(s) URL`, one line per problem, with the count left out. */
export function formatProblems(problems: readonly Problem[], total = problems.length): string[] {
  const lines = problems.map((p) => {
    const where = `${p.section ?? ""}${p.index !== undefined ? `[${p.index}]` : ""}${p.id !== undefined ? ` (${p.id})` : ""}${p.section || p.index !== undefined ? "." : ""}${p.field}`;
    return `  ${where}: ${p.reason}`;
  });
  if (total > lines.length) lines.push(`  … and ${total - lines.length} more`);
  return lines;
}
