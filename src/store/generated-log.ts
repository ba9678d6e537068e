/**
 * Every call to the model, as both stores keep it (docs/answers.md "What is logged"): the
 * follower's question, the passages the model was given, what it wrote, what was sent and how —
 * listed by `replyd inbox --ai`. The calls of the last 24 hours are what the caps count after a
 * restart, and an answer waiting for the follower's next message is kept here until it is sent.
 */

/** The article passages a model was given, as logged. */
export interface LoggedSource {
  id: string;
  title: string;
  url: string;
  passages: string[];
}

/**
 * What became of a call: `reply` the answer went out on a delivery of the message;
 * `customer_service` it followed the retrieval reply as a customer-service message; `pending` it
 * waits for the follower's next message, `next_message` went out on it, `expired` waited past a
 * day; `refused:<check>` and `failed:<kind>` the retrieval reply went instead (llm/output/check.ts,
 * llm/client.ts); `ask` an operator's `replyd ask --generate`, shown to them and sent to nobody.
 */
export type Outcome = string;

export interface GeneratedEntry {
  seq: number;
  /** When the question arrived. */
  at: string;
  msg_key: string;
  openid: string;
  question: string;
  model: string;
  sources: LoggedSource[];
  /** What the model wrote (at most OUTPUT_KEPT characters); null when the call failed. */
  output: string | null;
  /** What was sent, or waits to be: the checked answer; null when none passed. */
  answer: string | null;
  /** The articles the answer cites. */
  cited: string[];
  outcome: Outcome;
  /** Why, in one line, when it failed or was refused. */
  detail: string | null;
  ms: number | null;
  tokens_prompt: number | null;
  tokens_completion: number | null;
  delivered_at: string | null;
}

export type NewGenerated = Omit<GeneratedEntry, "seq">;

/** What the log keeps of a model's output: an answer is a few hundred characters. */
export const OUTPUT_KEPT = 8192;

/** How long an answer waits for the follower's next message. */
export const PENDING_MS = 24 * 3_600_000;

/**
 * Where to look for a message the follower sent while a pending answer's call ran (takePending):
 * those logged from the call's start to a little after its own question was (logged with its late
 * answer), which any later message follows — a bound of seconds, not a day of every follower's
 * messages; and the calls begun before it (within an hour), whose questions were logged late too
 * and were sent before it: two questions a few seconds apart, both answered late, had each expired
 * the other (a review).
 */
export function whileItRan(row: { at: string; ms: number | string | null }): { from: string; to: string; callsFrom: string } {
  const at = Date.parse(row.at);
  // A driver may hand a bigint column back as text.
  const ms = row.ms === null ? CALL_BOUND_MS : Number(row.ms);
  return { from: row.at, to: new Date(at + ms + LOGGED_AFTER_MS).toISOString(), callsFrom: new Date(at - CALL_BOUND_MS).toISOString() };
}
/** No call runs longer (the model's timeout is at most minutes). */
const CALL_BOUND_MS = 3_600_000;
/** A call's question is logged within this of its end. */
const LOGGED_AFTER_MS = 10_000;

export interface GeneratedLog {
  add(e: NewGenerated): Promise<number>;
  /** Moves entry `seq` to `outcome` (from `from` only, when given); false when it was not there. */
  settle(seq: number, outcome: Outcome, deliveredAt: string | null, from?: Outcome): Promise<boolean>;
  /**
   * Takes the follower's newest answer pending since `since` (ISO), marking it `next_message` at
   * `deliveredAt`: once, whichever instance asks; null when there is none. It answers the follower's
   * next message only: when the follower's last interaction logged is another message than its
   * own, since its call began (a message answered while the model was off, a menu click), or a
   * message of theirs was logged while the call ran that they sent after it began (one answered
   * meanwhile, logged before the late answer's own question: whileItRan), it expires instead.
   */
  takePending(openid: string, since: string, deliveredAt: string): Promise<GeneratedEntry | null>;
  /** Followers with an answer pending since `since`. */
  pendingFollowers(since: string): Promise<string[]>;
  /** The calls made since `since`, oldest first (the caps after a restart): not the messages the caps kept from the model (`capped:*`). */
  calls(since: string): Promise<{ openid: string; at: string }[]>;
  list(opts: { limit: number; offset: number }): Promise<{ items: GeneratedEntry[]; total: number }>;
}

/** A stored row: sources and cited kept as JSON text. */
export interface GeneratedRow extends Omit<GeneratedEntry, "sources" | "cited" | "seq"> {
  seq: number | string;
  sources: string;
  cited: string;
}

export const entryOfRow = (r: GeneratedRow): GeneratedEntry => ({
  ...r,
  seq: Number(r.seq),
  sources: JSON.parse(r.sources) as LoggedSource[],
  cited: JSON.parse(r.cited) as string[],
  ms: r.ms === null ? null : Number(r.ms),
  tokens_prompt: r.tokens_prompt === null ? null : Number(r.tokens_prompt),
  tokens_completion: r.tokens_completion === null ? null : Number(r.tokens_completion),
});

/** The columns written, in order, and the values of an entry for them. */
export const GENERATED_COLUMNS = ["at", "msg_key", "openid", "question", "model", "sources", "output", "answer", "cited", "outcome", "detail", "ms", "tokens_prompt", "tokens_completion", "delivered_at"] as const;

export const rowValues = (e: NewGenerated): (string | number | null)[] => [
  e.at,
  e.msg_key,
  e.openid,
  e.question,
  e.model,
  JSON.stringify(e.sources),
  e.output === null ? null : e.output.slice(0, OUTPUT_KEPT),
  e.answer,
  JSON.stringify(e.cited),
  e.outcome,
  e.detail,
  e.ms,
  e.tokens_prompt,
  e.tokens_completion,
  e.delivered_at,
];
