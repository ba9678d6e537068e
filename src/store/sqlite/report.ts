import type { Database } from "bun:sqlite";
import { CLOSE_MARGIN } from "../log-kinds.ts";
import {
  dayPeriods,
  EXAMPLES,
  offsetModifier,
  UNANSWERED_KINDS,
  UNANSWERED_READ,
  UNANSWERED_READINGS,
  UNMATCHED_READ,
  type AskedAgain,
  type FailedSend,
  type LogFigures,
  type LoggedText,
  type ReportQuery,
} from "../report-query.ts";

/**
 * The unanswered kinds as a condition on `answer`: the name alone or followed by the articles
 * considered, read alone or as a follow-up (followup:fallback:…; not another:not_found).
 */
const UNANSWERED = ["", ...UNANSWERED_READINGS.map((r) => `${r}:`)].flatMap((p) => UNANSWERED_KINDS.map((k) => `m.answer = '${p}${k}' OR m.answer GLOB '${p}${k}:*'`)).join(" OR ");

type AgainRow = LoggedText & { p_seq: number | null; p_at: string | null; p_text: string | null; p_answer: string | null };

/**
 * What `replyd report` reads of the data folder's log (store/report-query.ts): the quarter hours'
 * counts the log writer keeps, summed per local day; the model calls and failed sends of the time
 * asked about; the newest unanswered texts, close calls and follow-ups over their indexes. The log
 * itself is never read whole: a report over a million messages reads a few thousand rows.
 */
export class LogReport {
  constructor(private readonly db: Database) {}

  sendFailed(f: FailedSend): void {
    this.db.run("INSERT INTO send_failures (at, openid, sent_by, code, detail) VALUES (?, ?, ?, ?, ?)", [new Date(f.nowMs).toISOString(), f.openid, f.sentBy, f.code, f.detail]);
  }

  figures(q: ReportQuery): LogFigures {
    const day = offsetModifier(q.tz);
    // Each local day a range of the counts' keys (CROSS JOIN: the days are the outer loop).
    const days = dayPeriods(q);
    const ranges = `WITH d(day, first, last) AS (VALUES ${days.map(() => "(?, ?, ?)").join(", ")})`;
    const bounds = days.flatMap((d) => [d.day, d.first, d.last]);
    const kinds = days.length
      ? (this.db
          .query(`${ranges} SELECT d.day, c.kind, sum(c.n) AS n, sum(c.close) AS close, sum(c.again) AS again FROM d CROSS JOIN log_counts c WHERE c.period >= d.first AND c.period <= d.last GROUP BY 1, 2 ORDER BY 1, 2`)
          .all(...bounds) as LogFigures["kinds"])
      : [];
    const replyTimes = days.length
      ? (this.db.query(`${ranges} SELECT d.day, c.ms, sum(c.n) AS n FROM d CROSS JOIN log_reply_ms c WHERE c.period >= d.first AND c.period <= d.last GROUP BY 1, 2 ORDER BY 1, 2`).all(...bounds) as LogFigures["replyTimes"])
      : [];
    const model = this.db
      .query(
        "SELECT date(at, ?) AS day, outcome, count(*) AS n, coalesce(sum(tokens_prompt), 0) AS tokens_prompt, coalesce(sum(tokens_completion), 0) AS tokens_completion FROM generated WHERE at >= ? AND at <= ? GROUP BY 1, 2 ORDER BY 1, 2",
      )
      .all(day, q.since, q.until) as LogFigures["model"];
    const failures = (
      this.db.query("SELECT code, sent_by = 'ai' AS ai, count(*) AS n FROM send_failures WHERE at >= ? AND at <= ? GROUP BY 1, 2 ORDER BY 3 DESC, 1, 2").all(q.since, q.until) as { code: string; ai: number; n: number }[]
    ).map((r) => ({ code: r.code, by: r.ai ? ("ai" as const) : ("operator" as const), n: r.n }));
    return { kinds, replyTimes, model, failures, unanswered: this.unanswered(q), closeCalls: this.closeCalls(q), askedAgain: this.askedAgain(q), detailsSince: this.detailsSince() };
  }

  /**
   * The newest follower texts nothing answered: the newest UNMATCHED_READ entries of the inbox's own
   * index from the first message of the time asked about (found in the time index), of which the
   * texts that got the fallback or an empty search, UNANSWERED_READ at most.
   */
  private unanswered(q: ReportQuery): LogFigures["unanswered"] {
    const first = this.db.query("SELECT seq FROM messages WHERE received_at >= ? ORDER BY received_at LIMIT 1").get(q.since) as { seq: number } | null;
    if (!first) return [];
    return this.db
      .query(
        `SELECT m.seq, m.received_at AS at, m.from_user AS "from", m.content AS text, m.answer
         FROM (SELECT seq FROM messages INDEXED BY messages_unmatched WHERE unmatched = 1 AND seq >= ? ORDER BY seq DESC LIMIT ${UNMATCHED_READ}) u
         JOIN messages m ON m.seq = u.seq
         WHERE m.direction = 'in' AND m.type IN ('text', 'voice') AND m.content IS NOT NULL AND m.received_at <= ? AND (${UNANSWERED})
         ORDER BY m.seq DESC LIMIT ${UNANSWERED_READ}`,
      )
      .all(first.seq, q.until) as LogFigures["unanswered"];
  }

  /** The newest articles sent alone whose runner-up came close, over the index of those alone (its predicate is CLOSE_MARGIN's). */
  private closeCalls(q: ReportQuery): LogFigures["closeCalls"] {
    return this.db
      .query(
        `SELECT seq, received_at AS at, content AS text, answer, margin FROM messages INDEXED BY messages_close
         WHERE margin >= ${CLOSE_MARGIN} AND received_at >= ? AND received_at <= ? ORDER BY received_at DESC LIMIT ${EXAMPLES}`,
      )
      .all(q.since, q.until) as LogFigures["closeCalls"];
  }

  /** The newest follow-ups, each with the message it asked again after, over the index of follow-ups. */
  private askedAgain(q: ReportQuery): AskedAgain[] {
    const rows = this.db
      .query(
        `SELECT m.seq, m.received_at AS at, m.content AS text, m.answer, p.seq AS p_seq, p.received_at AS p_at, p.content AS p_text, p.answer AS p_answer
         FROM messages m INDEXED BY messages_again LEFT JOIN messages p ON p.seq = m.again_of
         WHERE m.again_of IS NOT NULL AND m.received_at >= ? AND m.received_at <= ? ORDER BY m.received_at DESC LIMIT ${EXAMPLES}`,
      )
      .all(q.since, q.until) as AgainRow[];
    return rows.map((r) => ({
      seq: r.seq,
      at: r.at,
      text: r.text,
      answer: r.answer,
      after: r.p_seq === null ? null : { seq: r.p_seq, at: r.p_at as string, text: r.p_text ?? "", answer: r.p_answer as string },
    }));
  }

  private detailsSince(): string | null {
    return (this.db.query("SELECT value FROM meta WHERE key = 'log_details_since'").get() as { value: string } | null)?.value ?? null;
  }
}
