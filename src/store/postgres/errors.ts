/**
 * PostgreSQL failures told apart by their kind, never by a driver's wording: the connection lost or
 * refused (Bun's connection error codes, the socket's), the server shutting down or starting up
 * (SQLSTATE 57P01–57P03), a connection exception (class 08), too many connections (53300), a
 * standby that takes no writes (25006). Each is the database being unavailable: 503, not 500.
 */
import { ReplydError } from "../../base/errors.ts";

const CONNECTION = new Set([
  "ERR_POSTGRES_CONNECTION_REFUSED",
  "ERR_POSTGRES_CONNECTION_CLOSED",
  "ERR_POSTGRES_CONNECTION_TIMEOUT",
  "ERR_POSTGRES_IDLE_TIMEOUT",
  "ERR_POSTGRES_LIFETIME_TIMEOUT",
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
]);
const SERVER_STATES: Record<string, string> = {
  "57P01": "the database server is shutting down",
  "57P02": "the database server crashed and is restarting",
  "57P03": "the database server is starting up",
  "53300": "the database server has no connection slot free",
  "25006": "the database is read-only (a standby)",
};

/** Why the database is unavailable, when `e` says it is; null for any other failure. */
export function unavailableReason(e: unknown): string | null {
  const { code, errno } = (e ?? {}) as { code?: unknown; errno?: unknown };
  if (typeof code === "string" && CONNECTION.has(code)) return code === "ERR_POSTGRES_CONNECTION_REFUSED" || code === "ECONNREFUSED" ? "the database refuses connections" : "the connection to the database was lost";
  if (typeof errno === "string") {
    if (SERVER_STATES[errno]) return SERVER_STATES[errno] as string;
    if (errno.startsWith("08")) return "the connection to the database failed";
  }
  return null;
}

export class DatabaseUnavailable extends ReplydError {
  constructor(reason: string, what = "nothing was changed") {
    super("database_unavailable", `${reason}: ${what}; try again once it answers (followers are still answered)`, { retry_after: 5 });
    this.name = "DatabaseUnavailable";
  }
}

/** `e` as the 503 it is when the database is unavailable; null otherwise. */
export function databaseUnavailable(e: unknown): DatabaseUnavailable | null {
  const reason = unavailableReason(e);
  return reason ? new DatabaseUnavailable(reason) : null;
}
