import { badRequest, ReplydError } from "../../base/errors.ts";
import { SynonymTable, withSynonyms } from "../../ranking/synonyms.ts";
import { termsOf } from "../../ranking/words.ts";
import { adviceFor } from "../../wechat/platform/response.ts";
import type { SignedRequest } from "../auth.ts";
import { declaredName, type AppContext } from "../context.ts";
import { Fields } from "../fields.ts";
import { assembleReport, withAnsweredNow } from "./figures.ts";
import { answeredNow } from "../answered-now.ts";

/** The longest time a report covers: the counts it reads grow with it (bench/report.ts). */
export const MAX_REPORT_DAYS = 92;
const QUARTER_MS = 15 * 60_000;
const DAY_MS = 86_400_000;

/** Why replyd sent nothing, beside the platform's own codes (wechat/platform/response.ts). */
const OWN_CODES: Record<string, string> = {
  window_closed: "not sent: the follower's 48-hour window was closed",
  reply_limit: "not sent: the replies allowed since the follower's last message were spent",
  unreachable: "the platform could not be reached",
};
export const sendFailureMeaning = (code: string): string | null => OWN_CODES[code] ?? (/^-?\d+$/.test(code) ? (adviceFor(Number(code)) ?? null) : null);

/** The offset tz= names, in minutes east of UTC: whole quarter hours from -12:00 to +14:00. */
function offsetOf(f: Fields): number {
  const v = f.get("tz") ?? "0";
  const tz = Number(v);
  if (!/^[+-]?\d{1,4}$/.test(v) || tz < -720 || tz > 840 || tz % 15 !== 0)
    throw badRequest(`"tz" must be the days' offset from UTC in minutes, a multiple of 15 from -720 to 840 (480 for UTC+8); "${v.slice(0, 20)}" given`);
  return tz;
}

/**
 * The first quarter hour since= names: 7d or 24h back from now, or a day (2026-11-01, from its
 * midnight in the offset); at most MAX_REPORT_DAYS back and not after now.
 */
export function sinceOf(since: string, tz: number, nowMs: number): number {
  const relative = /^(\d{1,4})([dh])$/.exec(since);
  let ms: number;
  if (relative) ms = nowMs - Number(relative[1]) * (relative[2] === "d" ? DAY_MS : 3_600_000);
  else if (/^\d{4}-\d{2}-\d{2}$/.test(since) && !Number.isNaN(Date.parse(`${since}T00:00:00Z`)) && new Date(`${since}T00:00:00Z`).toISOString().startsWith(since))
    ms = Date.parse(`${since}T00:00:00Z`) - tz * 60_000;
  else throw badRequest(`"since" must be a number of days or hours back (7d, 24h) or a day (2026-11-01); "${since.slice(0, 40)}" given`);
  if (ms > nowMs) throw badRequest(`"since" (${since}) is after now: a report covers what was logged`);
  if (nowMs - ms > MAX_REPORT_DAYS * DAY_MS) throw badRequest(`a report covers at most ${MAX_REPORT_DAYS} days; "since" (${since}) is further back`);
  return Math.floor(ms / QUARTER_MS) * QUARTER_MS;
}

/**
 * GET /api/cli/report (admin keys: it quotes followers' words): how followers were answered since
 * since= (7d when not given), per day of the offset tz= (minutes east of UTC; the client sends its
 * own), as `replyd report` shows it (docs/operations.md "The report"). Counted by the store over
 * the log's quarter-hour counts and indexes, never by reading the log whole.
 */
export async function getReport(ctx: AppContext, req: SignedRequest) {
  const f = new Fields(req.fields).only(["since", "tz"]);
  if (req.files.size) throw badRequest("a report takes no file");
  if (req.key.scope !== "admin") throw new ReplydError("forbidden", `the key "${req.key.appkey}" is read-only; the report quotes followers' messages and needs an admin key`);
  const tz = offsetOf(f);
  const now = ctx.clock.now();
  const since = new Date(sinceOf(f.get("since") ?? "7d", tz, now)).toISOString();
  const until = new Date(now).toISOString();
  const figures = await ctx.write.log.figures({ since, until, tz });
  // The questions are grouped by their terms as the ranking reads them, the operator's synonyms applied.
  const synonyms = SynonymTable.of(ctx.read.content.synonyms(), termsOf);
  const title = (id: string) => ctx.read.articles.get(id)?.title ?? null;
  const report = withSynonyms(synonyms, () => assembleReport(figures, { since, until, tz }, sendFailureMeaning, title));
  // Named, so that two accounts' reports mailed on are told apart.
  return { account: declaredName(ctx), ...withAnsweredNow(report, await answeredNow(ctx, report.unanswered_questions.groups.filter((g) => !g.followup).map((g) => g.text)), title) };
}

