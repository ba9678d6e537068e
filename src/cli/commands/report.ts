/**
 * replyd report (docs/client.md "report"): how followers were answered, from the server's counts
 * (GET /api/cli/report, admin keys) — in the terminal within 80 columns, as JSON with --json, as a
 * page to mail with --html FILE.
 */
import { dirname, resolve } from "node:path";
import type { Report } from "../../server/report/figures.ts";
import { defineCommand } from "../command.ts";
import type { CommandContext } from "../context.ts";
import { usage } from "../errors.ts";
import { checkTarget, fileSink, placeFile } from "../files.ts";
import { reportHtml } from "../report/html.ts";
import { reportText } from "../report/terminal.ts";

/** The days' offset --tz names (UTC, +08:00, -05:30), in minutes east of UTC; without it, this machine's now. */
export function offsetOption(value: string | undefined, now: Date): number {
  if (value === undefined) return -now.getTimezoneOffset();
  if (/^(utc|z)$/i.test(value)) return 0;
  const m = /^([+-])(\d{2}):(\d{2})$/.exec(value);
  const minutes = m ? (m[1] === "-" ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3])) : NaN;
  if (!m || Number(m[3]) % 15 !== 0 || minutes < -720 || minutes > 840) throw usage(`--tz must be UTC or an offset from UTC in quarter hours, from -12:00 to +14:00 (+08:00, -05:30); "${value}" given`);
  return minutes;
}

export async function report(c: CommandContext): Promise<void> {
  if (c.args.length) throw usage("report takes options only: replyd report --since 7d");
  const since = c.str("--since") ?? "7d";
  if (!/^(\d{1,4}[dh]|\d{4}-\d{2}-\d{2})$/.test(since)) throw usage(`--since must be a number of days or hours back (7d, 24h) or a day (2026-11-01); "${since}" given`);
  const tz = offsetOption(c.str("--tz"), new Date(c.io.now()));
  const html = c.str("--html");
  if (html === "-" && c.json) throw usage("--html - writes the page to standard output, as --json writes the figures: choose one");
  const target = html !== undefined && html !== "-" ? resolve(c.io.cwd, html) : null;
  // Before the server is asked: a page that could not be written is found out first.
  if (target) checkTarget(target, Boolean(c.flags.force), "no report was written");
  const r = await c.client().call<Report>({ method: "GET", path: "/api/cli/report", fields: [["since", since], ["tz", String(tz)]] });
  const page = html === undefined ? null : new TextEncoder().encode(reportHtml(r));
  if (page && !target) return c.io.raw(page);
  if (page && target) {
    const bytes = page;
    const sink = fileSink(dirname(target), bytes.length);
    try {
      sink.write(bytes);
      sink.finish();
    } catch (e) {
      sink.discard();
      throw e;
    }
    placeFile(sink.path, target, Boolean(c.flags.force));
  }
  c.print(r, () => reportText(r));
  if (page && target) c.io.err(`wrote the report to ${target} (${Math.ceil(page.length / 1024)} KB: one page with its charts, fetching nothing)`);
}

export const reportCommand = defineCommand({
  usage: "report",
  summary: "how followers were answered: per day, the questions nothing answered, close calls, model calls, sends",
  description:
    "Shows how follower messages were answered since --since (7d when not given; 24h, or a day such as 2026-11-01), per day of this machine's time zone (--tz to choose): by rule, code, tag, help, ranked article alone, ranked list, word search, generated answer, or the fallback, and the share answered; the questions nothing answered, grouped so that the same question in other words counts once, with the SEQ to teach one with (replyd teach SEQ ARTICLE); close calls and follow-ups asked right after an answer; reply times (p50, p99); the model's calls, failures, refusals and tokens; customer-service messages sent and failed by the platform's error code. --json prints the same figures; --html FILE writes them as one page with its charts, which fetches nothing (- for standard output). Needs an admin key: it quotes followers' words.",
  examples: ["replyd report", "replyd report --since 24h --json", "replyd report --since 2026-11-01 --html report.html"],
  options: [
    { flags: "--since <when>", help: "7d, 24h, or a day (2026-11-01); at most 92 days back" },
    { flags: "--tz <offset>", help: "the days' time zone: UTC, +08:00 … (this machine's when not given)" },
    { flags: "--html <file>", help: "also write the report as a self-contained page (- for standard output)" },
    { flags: "--force", help: "replace the --html file if it exists" },
  ],
  run: report,
});
