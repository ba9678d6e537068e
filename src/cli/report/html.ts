/**
 * `replyd report --html FILE`: the report as one page an operator can mail (docs/client.md
 * "report"). Self-contained: its charts are inline SVG, its style inline; it has no script and
 * names no address, and its Content-Security-Policy forbids fetching anything should a mail
 * reader add something. Every text from the server (followers' words, titles) is escaped.
 */
import type { Report } from "../../server/report/figures.ts";
import { VERSION } from "../../base/version.ts";
import { kindsIn } from "./kinds.ts";
import { answerName, articleName, listedShare, localTime, moreThanListed } from "./terminal.ts";
import { esc, horizontalBars, lines, stackedBars } from "./svg-charts.ts";
import { count, duration, percent } from "./text-charts.ts";
import { folded } from "../../ranking/words.ts";

const HAN = /\p{Script=Han}/gu;

/**
 * A follower's words, escaped, marked with their language where they are Chinese: the page is
 * English, and a browser draws Han characters of an English page in whatever face its locale
 * prefers — traditional characters in a simplified face, or Japanese forms. zh-Hant when any of
 * them reads another way simplified (ranking/words.ts folded), else zh-Hans.
 */
export function said(text: string): string {
  const han = text.match(HAN);
  if (!han) return esc(text);
  const traditional = han.some((c) => folded(c) !== c);
  return `<span lang="${traditional ? "zh-Hant" : "zh-Hans"}">${esc(text)}</span>`;
}

/** Each chart's own colours (the kinds' are in report-kinds.ts). */
export const CHART_COLOURS = { share: "#e08214", p50: "#01665e", p99: "#8c510a", model: "#542788", sent: "#35978f", failed: "#c51b7d" } as const;

/** The charts the page shows, by the id of their figure. */
export const CHARTS = ["chart-kinds", "chart-share", "chart-reply", "chart-model", "chart-sends"] as const;

const STYLE = `body{font:14px/1.45 system-ui,-apple-system,"Segoe UI","PingFang SC","Microsoft YaHei",sans-serif;color:#222;max-width:800px;margin:24px auto;padding:0 12px}
h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:28px 0 8px;border-bottom:1px solid #ddd;padding-bottom:4px}
figure{margin:0}figcaption{font-size:12px;color:#555;margin-top:4px}.key{display:inline-block;width:10px;height:10px;margin:0 4px 0 10px;vertical-align:middle}
table{border-collapse:collapse;width:100%;font-size:13px}th,td{text-align:left;padding:3px 6px;border-bottom:1px solid #eee;vertical-align:top}td.n,th.n{text-align:right;white-space:nowrap}
.muted{color:#666;font-size:12px}.k{white-space:nowrap}:lang(zh-Hant){font-family:system-ui,-apple-system,"PingFang TC","Microsoft JhengHei",sans-serif}`;

const table = (head: readonly string[], rows: readonly (readonly string[])[], numeric: readonly number[] = []) =>
  `<table><tr>${head.map((h, i) => `<th${numeric.includes(i) ? ' class="n"' : ""}>${esc(h)}</th>`).join("")}</tr>${rows
    .map((r) => `<tr>${r.map((c, i) => `<td${numeric.includes(i) ? ' class="n"' : ""}>${c}</td>`).join("")}</tr>`)
    .join("")}</table>`;

const figure = (id: (typeof CHARTS)[number], svg: string, caption: string) => `<figure class="chart" id="${id}">${svg}<figcaption>${caption}</figcaption></figure>`;
// A key's swatch and label wrap together, never apart.
const key = (colour: string, label: string) => `<span class="k"><span class="key" style="background:${colour}"></span>${esc(label)}</span>`;

function answered(r: Report): string {
  const days = r.days.map((d) => d.day);
  const kinds = kindsIn(r.totals.kinds);
  const chart = stackedBars(
    "Follower messages per day, by how they were answered",
    days,
    kinds.map((k) => ({ label: k.label, colour: k.colour, values: r.days.map((d) => d.kinds[k.kind] ?? 0) })),
    count,
  );
  const rows = kinds.map((k) => [key(k.colour, k.label), esc(count(r.totals.kinds[k.kind] ?? 0)), esc(percent(r.totals.messages ? (r.totals.kinds[k.kind] ?? 0) / r.totals.messages : null))]);
  return `<h2>By how they were answered</h2>${figure("chart-kinds", chart, kinds.map((k) => key(k.colour, k.label)).join(" "))}${table(["answered by", "messages", "share"], rows, [1, 2])}`;
}

function shareAndTimes(r: Report): string {
  const days = r.days.map((d) => d.day);
  const share = lines("Share answered per day", days, [{ label: "answered", colour: CHART_COLOURS.share, values: r.days.map((d) => (d.share === null ? null : d.share * 100)) }], (v) => `${v.toFixed(0)}%`, 100);
  const times = lines(
    "Reply time per day",
    days,
    [
      { label: "p50", colour: CHART_COLOURS.p50, values: r.days.map((d) => d.reply_ms?.p50 ?? null) },
      { label: "p99", colour: CHART_COLOURS.p99, values: r.days.map((d) => d.reply_ms?.p99 ?? null) },
    ],
    duration,
  );
  const missing = r.totals.no_reply_time ? ` ${esc(count(r.totals.no_reply_time))} messages have no reply time (logged before replyd recorded it).` : "";
  const rows = r.days.map((d) => [esc(d.day), esc(count(d.messages)), esc(percent(d.share)), esc(count(d.close)), esc(count(d.again)), esc(duration(d.reply_ms?.p50)), esc(duration(d.reply_ms?.p99)), esc(count(d.sent.operator + d.sent.ai)), esc(count(d.model_calls))]);
  return (
    `<h2>Share answered</h2>${figure("chart-share", share, `${key(CHART_COLOURS.share, "answered")} of the messages that wanted an answer: ${esc(percent(r.totals.share))} in all`)}` +
    `<h2>Reply time</h2>${figure("chart-reply", times, `${key(CHART_COLOURS.p50, "median (p50)")} ${key(CHART_COLOURS.p99, "p99")} from a message's arrival to its answer.${missing}`)}` +
    `<h2>Per day</h2>${table(["day", "messages", "answered", "close calls", "asked again", "reply p50", "p99", "sent", "model calls"], rows, [1, 2, 3, 4, 5, 6, 7, 8])}`
  );
}

function questions(r: Report): string {
  const u = r.unanswered_questions;
  const nothingNamed = u.nothing_named ? `<p class="muted">${esc(`${count(u.nothing_named)} more named nothing to teach (emoji, only how long…): see replyd inbox.`)}</p>` : "";
  if (!u.groups.length) return `<h2>Questions nothing answered</h2><p>None.</p>${nothingNamed}`;
  const rows = u.groups.map((g) => [
    said(g.text) +
      (g.answered_now
        ? `<div class="muted">answered now: ${esc(answerName(g.answered_now, r.articles))}</div>`
        : g.considered.length
          ? `<div class="muted">closest: ${g.considered.map((id) => esc(articleName(id, r.articles))).join(", ")}</div>`
          : ""),
    esc(count(g.count)),
    esc(count(g.followers)),
    esc(localTime(g.last_at, r.tz)),
    esc(String(g.seq)),
  ]);
  return `<h2>Questions nothing answered</h2><p class="muted">${esc(`${u.groups.length} of ${count(u.groups_total)} groups, from the newest ${count(u.grouped)} texts; the same question in other words counts once. Teach one to the article that answers it: replyd teach SEQ ARTICLE.`)}</p>${table(["question", "asked", "followers", "last", "seq"], rows, [1, 2, 4])}${nothingNamed}`;
}

function examples(r: Report): string {
  const c = r.close_calls;
  const a = r.asked_again;
  const close = c.examples.map((e) => [esc(String(e.seq)), esc(e.margin.toFixed(2)), said(e.text), esc(answerName(e.answer, r.articles))]);
  const again = a.examples.map((e) => [esc(String(e.seq)), said(e.text), e.after ? `${esc(`${e.after.seq}: “`)}${said(e.after.text)}${esc(`” → ${answerName(e.after.answer, r.articles)}`)}` : "(pruned)"]);
  return (
    `<h2>Close calls</h2><p>${esc(`${count(c.count)} of ${count(c.alone)} articles sent alone had a runner-up scoring ${Math.round(c.margin_from * 100)}% of them or more (a list starts at ${Math.round(c.list_from * 100)}%).`)}</p>` +
    (close.length ? table(["seq", "margin", "question", "sent"], close, [0, 1]) : "") +
    more(c.count, close.length) +
    `<h2>Asked again right after</h2><p>${esc(`${count(a.count)} follower text${a.count === 1 ? "" : "s"} came within ${a.within_s} s of an answer the ranking or the model chose to the same follower (${count(a.chosen)} such answers).`)}</p>` +
    (again.length ? table(["seq", "then asked", "after"], again, [0]) : "") +
    more(a.count, again.length)
  );
}

const more = (total: number, listed: number): string => {
  const m = moreThanListed(total, listed);
  return m === null ? "" : `<p class="muted">${esc(`${m}.`)}</p>`;
};

/** The messages the caps kept from the model, said after the calls (an older server's report has none). */
const cappedText = (capped: Record<string, number> | undefined): string => {
  const by = Object.entries(capped ?? {}).sort((a, b) => b[1] - a[1]);
  return by.length ? `; kept from the model by its caps (the retrieval reply instead): ${by.map(([cap, n]) => `${cap} ${count(n)}`).join(", ")}` : "";
};

function modelAndSends(r: Report): string {
  const m = r.model;
  const outcomes = Object.entries(m.outcomes)
    .sort((x, y) => y[1] - x[1])
    .map(([label, value]) => ({ label, value, colour: CHART_COLOURS.model }));
  const s = r.sends;
  const sends = [
    { label: "sent by operators", value: s.sent.operator, colour: CHART_COLOURS.sent },
    { label: "generated, sent after the reply", value: s.sent.ai, colour: CHART_COLOURS.sent },
    ...s.failed.map((f) => ({ label: `failed ${f.code} (${f.by})`, value: f.n, colour: CHART_COLOURS.failed })),
  ];
  const failures = s.failed.map((f) => [esc(f.code), esc(f.by), esc(count(f.n)), esc(f.meaning ?? "")]);
  // Nothing to draw is said in words, as the text report does: an empty chart reads as a broken one.
  const model = outcomes.length
    ? figure("chart-model", horizontalBars("Model calls by outcome", outcomes, count), esc(`${count(m.calls)} calls, ${count(m.tokens.prompt)} prompt and ${count(m.tokens.completion)} completion tokens${cappedText(m.capped)}`))
    : `<p class="muted">${esc(`none in this time${cappedText(m.capped)}`)}</p>`;
  const sent = sends.some((x) => x.value > 0)
    ? figure("chart-sends", horizontalBars("Customer-service messages sent and failed", sends, count), `${key(CHART_COLOURS.sent, "sent")} ${key(CHART_COLOURS.failed, "failed, by the platform's error code")}`)
    : `<p class="muted">none sent or failed in this time</p>`;
  return `<h2>Model calls</h2>${model}<h2>Customer-service messages</h2>${sent}` + (failures.length ? table(["code", "by", "failed", "meaning"], failures, [2]) : "");
}

/** The whole page. */
export function reportHtml(r: Report): string {
  const range = `${localTime(r.since, r.tz, true)} to ${localTime(r.until, r.tz, true)} (UTC${r.tz})`;
  const head = `<h1>How followers were answered${r.account ? ` — account ${esc(r.account)}` : ""}</h1><p>${esc(`${range}: ${count(r.totals.messages)} follower messages, ${percent(r.totals.share)} of those that wanted an answer answered${listedShare(r) === null ? "" : ` (${percent(listedShare(r))} by a ranked list the follower chooses from)`}.`)}</p>${
    r.details_since ? `<p class="muted">${esc(`Reply times, close calls and follow-ups are logged from ${localTime(r.details_since, r.tz, true)} on.`)}</p>` : ""
  }`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(`replyd report, ${r.account ? `account ${r.account}, ` : ""}${range}`)}</title>
<style>${STYLE}</style></head>
<body>
${head}
${answered(r)}
${shareAndTimes(r)}
${questions(r)}
${examples(r)}
${modelAndSends(r)}
<p class="muted">${esc(`Made by replyd ${VERSION}.`)}</p>
</body></html>
`;
}
