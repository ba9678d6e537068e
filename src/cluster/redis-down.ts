/**
 * Redis is away — unreachable, or answering every command with an error (full, read-only): what
 * the link to the cluster's Redis (store/redis/link.ts) rejects with, and what the one "Redis away"
 * decision (fallback.ts) and the admin door tell apart from every other failure.
 */
import { ReplydError } from "../base/errors.ts";

/** Redis is away: the admin interface answers 503 with this; the callback falls back to its own memory. */
export class RedisDown extends ReplydError {
  /** Why, as Redis or the connection said it ("Connection closed", "OOM …"): what the link keeps as its last error, not this whole message. */
  readonly reason: string;

  constructor(reason: string, refusing = false) {
    super(
      "redis_unavailable",
      `${refusing ? "Redis refuses commands" : "Redis is unreachable"} (${reason}): admin requests are refused until it answers again (followers are still answered)`,
      { retry_after: 2 },
    );
    this.name = "RedisDown";
    this.reason = reason;
  }
}
