/**
 * What a store answers for `replyd report` (src/report/): the quarter hours' counts summed per day
 * of the operator's time zone, the model calls and the failed customer-service sends of the time
 * asked about, and the few log entries the report shows — each read over an index, bounded
 * (docs/operations.md "The report"). Both stores answer the same figures for the same log.
 */

export interface ReportQuery {
  /** The first quarter hour counted (ISO, at its start). */
  since: string;
  /** The report's time (ISO): the quarter hour it falls in is counted. */
  until: string;
  /** The days are counted in this offset from UTC, in minutes east (480: UTC+8). */
  tz: number;
}

/** The newest unmatched log entries read to find the follower texts nothing answered. */
export const UNMATCHED_READ = 20_000;
/** Of them, the newest follower texts nothing answered that are grouped (src/report/question-groups.ts). */
export const UNANSWERED_READ = 5_000;
/** Close calls and follow-ups shown, the newest. */
export const EXAMPLES = 10;

export interface KindCount {
  day: string;
  kind: string;
  n: number;
  /** Articles sent alone whose runner-up came close (store/log-kinds.ts CLOSE_MARGIN). */
  close: number;
  /** Follower texts asking again right after a chosen answer. */
  again: number;
}

export interface ReplyTimeCount {
  day: string;
  /** The bucket's lower bound (store/log-kinds.ts replyBucket). */
  ms: number;
  n: number;
}

export interface OutcomeCount {
  day: string;
  outcome: string;
  n: number;
  tokens_prompt: number;
  tokens_completion: number;
}

export interface FailureCount {
  /** The platform's errcode ("45015"), `unreachable`, or why replyd sent nothing (`window_closed`, `reply_limit`). */
  code: string;
  /** Who sent it: an operator's replyd reply, or a generated answer following the reply. */
  by: "operator" | "ai";
  n: number;
}

export interface LoggedText {
  seq: number;
  at: string;
  text: string;
  answer: string;
}

export interface UnansweredText extends LoggedText {
  /** The follower (counted, never shown). */
  from: string;
}

export interface CloseCall extends LoggedText {
  margin: number;
}

export interface AskedAgain extends LoggedText {
  /** The message it asked again after; null when that one was pruned. */
  after: LoggedText | null;
}

export interface LogFigures {
  kinds: KindCount[];
  replyTimes: ReplyTimeCount[];
  model: OutcomeCount[];
  failures: FailureCount[];
  /** Newest first, at most UNANSWERED_READ. */
  unanswered: UnansweredText[];
  closeCalls: CloseCall[];
  askedAgain: AskedAgain[];
  /** Since when reply times, margins and follow-ups are logged (the upgrade that began them); null: since the log began. */
  detailsSince: string | null;
}

/** A customer-service message that did not go out (wechat/platform/follow-up.ts). */
export interface FailedSend {
  openid: string;
  sentBy: string;
  code: string;
  detail: string;
  nowMs: number;
}

/** The answers that mean nothing answered a follower's text: the fallback text, or an explicit search that found nothing. */
export const UNANSWERED_KINDS = ["fallback", "not_found"] as const;
/**
 * The readings whose unanswered texts are grouped: a follow-up's. "Another" with nothing left
 * (another:not_found) is counted as not answered, but its words (换一个, another one) are no question
 * to teach: teach refuses them.
 */
export const UNANSWERED_READINGS = ["followup"] as const;

/** A local day of the report and the quarter hours (UTC, as the counts are kept) it holds, the first and last included. */
export interface DayPeriods {
  day: string;
  first: string;
  last: string;
}

const QUARTER_MS = 15 * 60_000;
const quarterOf = (ms: number): string => new Date(ms).toISOString().slice(0, 16);

/**
 * The report's local days in its offset, each with its quarter hours: the counts are summed by a
 * range of the key per day rather than by turning each row's period into a local day (on 92 days
 * of a busy log, 840,000 reply-time rows: bench/report.ts). An offset of whole quarter hours puts a
 * local midnight on a quarter hour's start.
 */
export function dayPeriods(q: ReportQuery): DayPeriods[] {
  const offset = q.tz * 60_000;
  const [since, until] = [Date.parse(q.since), Date.parse(q.until)];
  const lastQuarter = Math.floor(until / QUARTER_MS) * QUARTER_MS;
  const days: DayPeriods[] = [];
  for (let start = Math.floor((since + offset) / 86_400_000) * 86_400_000 - offset; start <= lastQuarter; start += 86_400_000) {
    const first = Math.max(start, Math.floor(since / QUARTER_MS) * QUARTER_MS);
    const last = Math.min(start + 86_400_000 - QUARTER_MS, lastQuarter);
    if (first <= last) days.push({ day: new Date(start + offset).toISOString().slice(0, 10), first: quarterOf(first), last: quarterOf(last) });
  }
  return days;
}

/** SQLite's date modifier (and PostgreSQL's interval) for an offset in minutes: `+480 minutes`. */
export const offsetModifier = (tz: number): string => `${tz < 0 ? "-" : "+"}${Math.abs(tz)} minutes`;
