/**
 * `replyd report` in a terminal (docs/client.md "report"): every line within 80 columns, a
 * follower's text cut by the columns it takes (Chinese counts double), bars and sparklines of block
 * characters, no colour and no escape.
 */
import type { DayFigures, Report } from "../../server/report/figures.ts";
import { unprefixed } from "../../store/log-kinds.ts";
import { kindsIn } from "./kinds.ts";
import { bar, count, countIn, duration, fit, oneLine, pad, percent, sparkline } from "./text-charts.ts";

export const WIDTH = 80;

/** When, as the report shows it: 11-21 09:58 (2026-11-21 09:58 with `year`) in the report's offset (+08:00). */
export function localTime(iso: string, tz: string, year = false): string {
  const sign = tz.startsWith("-") ? -1 : 1;
  const [h, m] = tz.slice(1).split(":").map(Number) as [number, number];
  return new Date(Date.parse(iso) + sign * (h * 60 + m) * 60_000).toISOString().slice(year ? 0 : 5, 16).replace("T", " ");
}

const weekday = (day: string) => ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"][new Date(`${day}T00:00:00Z`).getUTCDay()] as string;

/** An article as the report names it: its id and title, or its id alone when it is no longer stored. */
export const articleName = (id: string, articles: Record<string, string | null>): string => {
  const title = articles[id];
  return title ? `${id} (${oneLine(title)})` : id;
};

/** What an answer was, in words, with the articles' titles: "list: Returns, Delivery"; a follow-up's "(follow-up) Returns". */
export function answerName(answer: string, articles: Record<string, string | null>): string {
  const plain = unprefixed(answer);
  const reading = plain === answer ? "" : `(${answer.slice(0, answer.indexOf(":")).replace("followup", "follow-up")}) `;
  const colon = plain.indexOf(":");
  const kind = colon < 0 ? plain : plain.slice(0, colon);
  const titles = (colon < 0 ? [] : plain.slice(colon + 1).split(",")).filter(Boolean).map((id) => articles[id] ?? id);
  return reading + nameOf(kind, titles);
}

function nameOf(kind: string, titles: string[]): string {
  switch (kind) {
    case "answer":
      return titles[0] ?? "an article";
    case "pick":
      return `picked: ${titles[0] ?? "an article"}`;
    case "answers":
      return `list: ${titles.join(", ")}`;
    case "ai":
      return titles.length ? `generated, citing ${titles.join(", ")}` : "generated";
    case "search":
      return "word search";
    default:
      return kind;
  }
}

function kindsTable(r: Report): string[] {
  const t = r.totals;
  const kinds = kindsIn(t.kinds);
  const most = Math.max(0, ...kinds.map((k) => t.kinds[k.kind] ?? 0));
  const lines = [`${pad("HOW THEY WERE ANSWERED", 34)}${pad("MESSAGES", 9, true)}${pad("SHARE", 8, true)}`];
  let group = "";
  for (const k of kinds) {
    if (k.group !== group) {
      group = k.group;
      // Not in the share answered: no question the articles could answer (a photo waits in the inbox for the operator).
      lines.push(group === "answered" ? "answered:" : group === "unanswered" ? "not answered:" : "not counted in the share answered (no question to answer from the articles):");
    }
    const n = t.kinds[k.kind] ?? 0;
    lines.push(`  ${pad(k.label, 32)}${pad(countIn(n, 9), 9, true)}${pad(percent(t.messages ? n / t.messages : null), 8, true)}  ${bar(n, most, 26)}`);
  }
  return lines;
}

/** The per-day table's columns: its heading, its width (negative: left-aligned) and a day's cell. */
const DAY_COLUMNS: [string, number, (d: DayFigures) => string][] = [
  ["DAY", -9, (d) => `${d.day.slice(5)} ${weekday(d.day)}`],
  ["MESSAGES", 9, (d) => countIn(d.messages, 9)],
  ["ANSWERED", 9, (d) => percent(d.share)],
  ["CLOSE", 7, (d) => countIn(d.close, 7)],
  ["AGAIN", 7, (d) => countIn(d.again, 7)],
  ["REPLY p50", 9, (d) => duration(d.reply_ms?.p50)],
  ["p99", 9, (d) => duration(d.reply_ms?.p99)],
  ["SENT", 6, (d) => countIn(d.sent.operator + d.sent.ai, 6)],
  ["MODEL", 7, (d) => countIn(d.model_calls, 7)],
];
const dayCells = (cell: (c: (typeof DAY_COLUMNS)[number]) => string) => DAY_COLUMNS.map((c) => pad(cell(c), Math.abs(c[1]), c[1] > 0)).join(" ");

function perDay(r: Report): string[] {
  const lines = [`PER DAY (UTC${r.tz})`, dayCells(([head]) => head), ...r.days.map((d) => dayCells(([, , cell]) => cell(d)))];
  const spark = (label: string, values: (number | null)[], show: (v: number) => string) => {
    const known = values.filter((v): v is number => v !== null);
    const range = known.length ? `${show(Math.min(...known))} … ${show(Math.max(...known))}` : "—";
    return `${pad(label, 11)}${pad(sparkline(values, 44), 45)}${fit(range, WIDTH - 56)}`;
  };
  if (r.days.length > 1)
    lines.push(
      "",
      spark("messages", r.days.map((d) => d.messages), (v) => countIn(v, 8)),
      spark("answered", r.days.map((d) => d.share), percent),
      spark("reply p50", r.days.map((d) => d.reply_ms?.p50 ?? null), duration),
      spark("reply p99", r.days.map((d) => d.reply_ms?.p99 ?? null), duration),
    );
  const missing = r.totals.no_reply_time;
  if (missing) lines.push(`${count(missing)} message${missing === 1 ? " has" : "s have"} no reply time (logged before replyd recorded it)`);
  return lines;
}

function unanswered(r: Report): string[] {
  const u = r.unanswered_questions;
  const nothingNamed = u.nothing_named ? [`${count(u.nothing_named)} more named nothing to teach (emoji, only how long…): see replyd inbox`] : [];
  if (!u.groups.length) return ["QUESTIONS NOTHING ANSWERED  none", ...nothingNamed];
  const lines = [
    `QUESTIONS NOTHING ANSWERED  ${u.groups.length} of ${count(u.groups_total)} groups, from the newest ${count(u.grouped)} texts`,
    `${pad("ASKED", 6, true)} ${pad("PEOPLE", 6, true)} ${pad("LAST", 11)} ${pad("SEQ", 10, true)}  QUESTION`,
  ];
  const indent = 38;
  for (const g of u.groups) {
    lines.push(`${pad(countIn(g.count, 6), 6, true)} ${pad(countIn(g.followers, 6), 6, true)} ${localTime(g.last_at, r.tz)} ${pad(String(g.seq), 10, true)}  ${fit(oneLine(g.text), WIDTH - indent)}`);
    if (g.answered_now) lines.push(`${" ".repeat(indent)}${fit(`answered now: ${answerName(g.answered_now, r.articles)}`, WIDTH - indent)}`);
    else if (g.considered.length) lines.push(`${" ".repeat(indent)}${fit(`closest: ${g.considered.map((id) => articleName(id, r.articles)).join(", ")}`, WIDTH - indent)}`);
  }
  lines.push("teach one to the article that answers it: replyd teach SEQ ARTICLE", ...nothingNamed);
  return lines;
}

function closeCalls(r: Report): string[] {
  const c = r.close_calls;
  const lines = [`CLOSE CALLS  ${count(c.count)} of ${count(c.alone)} articles sent alone`, `(its runner-up scored ${Math.round(c.margin_from * 100)}% of it or more; a list starts at ${Math.round(c.list_from * 100)}%)`];
  if (c.examples.length) lines.push(`${pad("SEQ", 10, true)} ${pad("MARGIN", 6, true)}  ${pad("QUESTION", 34)}  SENT`);
  for (const e of c.examples) lines.push(`${pad(String(e.seq), 10, true)} ${pad(e.margin.toFixed(2), 6, true)}  ${pad(fit(oneLine(e.text), 34), 34)}  ${fit(oneLine(answerName(e.answer, r.articles)), WIDTH - 55)}`);
  return [...lines, ...leftOff(c.count, c.examples.length)];
}

/**
 * The examples listed are the newest few: said so when there are more, where "13 of 31" above ten
 * rows had read as a count that did not add up (a council's walkthrough).
 */
const leftOff = (total: number, listed: number): string[] => {
  const more = moreThanListed(total, listed);
  return more === null ? [] : [`(${more})`];
};

/** "the newest 10 listed; 3 more" when there were more than the examples listed (the terminal and the page say it alike). */
export const moreThanListed = (total: number, listed: number): string | null => (listed > 0 && total > listed ? `the newest ${count(listed)} listed; ${count(total - listed)} more` : null);

function askedAgain(r: Report): string[] {
  const a = r.asked_again;
  const share = a.chosen ? ` (${percent(a.count / a.chosen)})` : "";
  const lines = [`ASKED AGAIN WITHIN ${a.within_s} S  ${count(a.count)} after ${count(a.chosen)} chosen answers${share}`];
  if (a.examples.length) lines.push(`${pad("SEQ", 10, true)}  ${pad("THEN ASKED", 26)}  AFTER`);
  for (const e of a.examples) {
    const after = e.after ? `${e.after.seq} "${oneLine(e.after.text)}" → ${oneLine(answerName(e.after.answer, r.articles))}` : "(pruned)";
    lines.push(`${pad(String(e.seq), 10, true)}  ${pad(fit(oneLine(e.text), 26), 26)}  ${fit(after, WIDTH - 40)}`);
  }
  return [...lines, ...leftOff(a.count, a.examples.length)];
}

function model(r: Report): string[] {
  const m = r.model;
  const capped = Object.entries(m.capped ?? {}).sort((a, b) => b[1] - a[1]);
  // The caps decided for these: the retrieval reply went out, no call was made.
  // The counts on a line of their own: after the words, the terminal's width had cut them ("minute 20, dai…": a gym's walkthrough).
  const keptFrom = capped.length ? ["  kept from the model by its caps (the retrieval reply instead):", `    ${capped.map(([cap, n]) => `${cap} ${count(n)}`).join(", ")}`] : [];
  if (!m.calls) return ["MODEL CALLS  none", ...keptFrom];
  const lines = [`MODEL CALLS  ${count(m.calls)} (${count(m.tokens.prompt)} prompt + ${count(m.tokens.completion)} completion tokens)`];
  const outcomes = Object.entries(m.outcomes).sort((a, b) => b[1] - a[1]);
  const most = Math.max(...outcomes.map(([, n]) => n));
  for (const [outcome, n] of outcomes) lines.push(`  ${pad(fit(outcome, 30), 30)} ${pad(countIn(n, 9), 9, true)}  ${bar(n, most, 34)}`);
  return [...lines, ...keptFrom];
}

function sends(r: Report): string[] {
  const s = r.sends;
  const failed = s.failed.reduce((a, f) => a + f.n, 0);
  const lines = [
    `CUSTOMER-SERVICE MESSAGES  ${count(s.sent.operator + s.sent.ai)} sent, ${count(failed)} failed`,
    `(sent: ${count(s.sent.operator)} by operators, ${count(s.sent.ai)} generated answers after the reply)`,
  ];
  for (const f of s.failed) lines.push(`  ${pad(fit(f.code, 13), 13)} ${pad(countIn(f.n, 7), 7, true)}  ${pad(f.by, 8)}  ${fit(f.meaning ?? "", WIDTH - 35)}`);
  return lines;
}

/** The share of the messages that wanted an answer that got a ranked list, null when none did. */
export const listedShare = (r: Report): number | null => {
  const wanted = r.totals.answered + r.totals.unanswered;
  const lists = r.totals.kinds.answers ?? 0;
  return wanted > 0 && lists > 0 ? lists / wanted : null;
};

/** The report as the terminal shows it: lines of at most WIDTH columns. */
export function reportText(r: Report): string {
  const head = [
    fit(`replyd report${r.account ? ` of account ${r.account}` : ""}: ${localTime(r.since, r.tz, true)} to ${localTime(r.until, r.tz, true)} (UTC${r.tz})`, WIDTH),
    `${count(r.totals.messages)} follower messages`,
    `${percent(r.totals.share)} answered, of the ${count(r.totals.answered + r.totals.unanswered)} that wanted an answer`,
  ];
  // A list says an article was offered, not that it answered: said beside the share (two walkthroughs'
  // operators read "92.6% answered" as right, while lists led by the wrong article were among it).
  const listed = listedShare(r);
  if (listed !== null) head.push(`  ${percent(listed)} of them by a ranked list (replyd inbox --all shows what each got)`);
  if (r.details_since) head.push(fit(`reply times, close calls and follow-ups are logged from ${localTime(r.details_since, r.tz, true)} on`, WIDTH));
  const sections = [head, kindsTable(r), perDay(r), unanswered(r), closeCalls(r), askedAgain(r), model(r), sends(r)];
  return sections.map((lines) => lines.map((l) => fit(l, WIDTH)).join("\n")).join("\n\n");
}
