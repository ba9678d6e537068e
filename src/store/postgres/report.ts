import type { SQL } from "bun";
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

/** A local day of a UTC time held as text: `day(at)` in SQL. */
const localDay = (expr: string) => `to_char((${expr})::timestamptz AT TIME ZONE 'UTC' + $1::interval, 'YYYY-MM-DD')`;

type AgainRow = LoggedText & { seq: string; p_seq: string | null; p_at: string | null; p_text: string | null; p_answer: string | null };

/** What `replyd report` reads of the database's log, as the data folder's (sqlite/report.ts) reads it. */
export class PgLogReport {
  constructor(private readonly sql: SQL) {}

  async sendFailed(f: FailedSend): Promise<void> {
    await this.sql`INSERT INTO send_failures (at, openid, sent_by, code, detail) VALUES (${new Date(f.nowMs).toISOString()}, ${f.openid}, ${f.sentBy}, ${f.code}, ${f.detail})`;
  }

  async figures(q: ReportQuery): Promise<LogFigures> {
    const day = offsetModifier(q.tz);
    // Each local day a range of the counts' keys, as on SQLite.
    const days = dayPeriods(q);
    const ranges = `(VALUES ${days.map((_, i) => `($${3 * i + 1}::text, $${3 * i + 2}::text, $${3 * i + 3}::text)`).join(", ")}) AS d(day, first, last)`;
    const bounds = days.flatMap((d) => [d.day, d.first, d.last]);
    const perDay = <T>(query: string): Promise<T[]> => (days.length ? (this.sql.unsafe(query, bounds) as Promise<T[]>) : Promise.resolve([]));
    const [kinds, replyTimes, model, failures, unanswered, closeCalls, askedAgain, meta] = await Promise.all([
      perDay<LogFigures["kinds"][number]>(
        `SELECT d.day, c.kind, sum(c.n)::float8 AS n, sum(c.close)::float8 AS close, sum(c.again)::float8 AS again
         FROM ${ranges} JOIN log_counts c ON c.period >= d.first AND c.period <= d.last GROUP BY 1, 2 ORDER BY 1, 2`,
      ),
      perDay<LogFigures["replyTimes"][number]>(`SELECT d.day, c.ms, sum(c.n)::float8 AS n FROM ${ranges} JOIN log_reply_ms c ON c.period >= d.first AND c.period <= d.last GROUP BY 1, 2 ORDER BY 1, 2`),
      this.sql.unsafe(
        `SELECT ${localDay("at")} AS day, outcome, count(*)::float8 AS n, coalesce(sum(tokens_prompt), 0)::float8 AS tokens_prompt, coalesce(sum(tokens_completion), 0)::float8 AS tokens_completion
         FROM generated WHERE at >= $2 AND at <= $3 GROUP BY 1, 2 ORDER BY 1, 2`,
        [day, q.since, q.until],
      ) as Promise<LogFigures["model"]>,
      this.sql`SELECT code, sent_by = 'ai' AS ai, count(*)::float8 AS n FROM send_failures WHERE at >= ${q.since} AND at <= ${q.until} GROUP BY 1, 2 ORDER BY 3 DESC, 1, 2` as Promise<{ code: string; ai: boolean; n: number }[]>,
      this.unanswered(q),
      this.sql.unsafe(
        `SELECT seq::float8 AS seq, received_at AS at, content AS text, answer, margin::float8 AS margin FROM messages
         WHERE margin >= ${CLOSE_MARGIN} AND received_at >= $1 AND received_at <= $2 ORDER BY received_at DESC LIMIT ${EXAMPLES}`,
        [q.since, q.until],
      ) as Promise<LogFigures["closeCalls"]>,
      this.askedAgain(q),
      this.sql`SELECT value FROM meta WHERE key = 'log_details_since'` as Promise<{ value: string }[]>,
    ]);
    return {
      kinds: [...kinds],
      replyTimes: [...replyTimes],
      model: [...model],
      failures: failures.map((r) => ({ code: r.code, by: r.ai ? ("ai" as const) : ("operator" as const), n: r.n })),
      unanswered,
      closeCalls: closeCalls.map((r) => ({ ...r, margin: Number(r.margin) })),
      askedAgain,
      detailsSince: meta[0]?.value ?? null,
    };
  }

  /**
   * As sqlite/report.ts: the newest UNMATCHED_READ entries of the inbox's index from the first
   * message of the time asked about. Their seqs are an array looked up by the primary key: joined
   * to the log instead, PostgreSQL guessed a few rows and scanned the million (bench/report.ts:
   * 0.75-0.95 s of the report's 1.0-1.8 s).
   */
  private async unanswered(q: ReportQuery): Promise<LogFigures["unanswered"]> {
    const [first] = (await this.sql`SELECT seq::text AS seq FROM messages WHERE received_at >= ${q.since} ORDER BY received_at LIMIT 1`) as { seq: string }[];
    if (!first) return [];
    const unanswered = UNANSWERED_KINDS.map((k) => `split_part(regexp_replace(m.answer, '^(${UNANSWERED_READINGS.join("|")}):', ''), ':', 1) = '${k}'`).join(" OR ");
    const rows = (await this.sql.unsafe(
      `SELECT m.seq::float8 AS seq, m.received_at AS at, m.from_user AS "from", m.content AS text, m.answer
       FROM messages m
       WHERE m.seq = ANY(ARRAY(SELECT seq FROM messages WHERE unmatched AND seq >= $1::bigint ORDER BY seq DESC LIMIT ${UNMATCHED_READ})) AND m.direction = 'in' AND m.type IN ('text', 'voice') AND m.content IS NOT NULL AND m.received_at <= $2 AND (${unanswered})
       ORDER BY m.seq DESC LIMIT ${UNANSWERED_READ}`,
      [first.seq, q.until],
    )) as LogFigures["unanswered"];
    return [...rows];
  }

  private async askedAgain(q: ReportQuery): Promise<AskedAgain[]> {
    const rows = (await this.sql.unsafe(
      `SELECT m.seq::text AS seq, m.received_at AS at, m.content AS text, m.answer, p.seq::text AS p_seq, p.received_at AS p_at, p.content AS p_text, p.answer AS p_answer
       FROM messages m LEFT JOIN messages p ON p.seq = m.again_of
       WHERE m.again_of IS NOT NULL AND m.received_at >= $1 AND m.received_at <= $2 ORDER BY m.received_at DESC LIMIT ${EXAMPLES}`,
      [q.since, q.until],
    )) as AgainRow[];
    return rows.map((r) => ({
      seq: Number(r.seq),
      at: r.at,
      text: r.text,
      answer: r.answer,
      after: r.p_seq === null ? null : { seq: Number(r.p_seq), at: r.p_at as string, text: r.p_text ?? "", answer: r.p_answer as string },
    }));
  }
}
