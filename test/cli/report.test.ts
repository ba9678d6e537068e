/**
 * `replyd report` as the client shows it (issue 35 C): the terminal's lines within 80 columns
 * whatever the figures and the followers' words (Chinese counted double, controls and line breaks
 * flattened), bars and sparklines; the HTML page self-contained, escaped, with each chart; --tz and
 * --since checked before the server is asked.
 */
import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { offsetOption } from "../../src/cli/commands/report.ts";
import { run } from "../../src/cli/index.ts";
import { CHARTS, reportHtml, said } from "../../src/cli/report/html.ts";
import { answerName, articleName, reportText, WIDTH } from "../../src/cli/report/terminal.ts";
import { bar, countIn, fit, oneLine, sparkline } from "../../src/cli/report/text-charts.ts";
import { assembleReport, withAnsweredNow, type Report } from "../../src/server/report/figures.ts";
import type { LogFigures } from "../../src/store/report-query.ts";
import { captureIO, tempDir } from "../helpers.ts";

const NOW = Date.parse("2026-11-21T10:00:00.000Z");
const DAY = 86_400_000;
const HOSTILE = "<script>alert('x')</script>\u001b]0;owned\u0007 <img src=http://evil.example/x.png> 退款\n还没到账？？？";
const LONG_CN = "我想问一下你们家的退款到底什么时候能到账，已经等了很久很久了，客服也一直不回复，真的很着急".repeat(3);

/** A report over 92 days with the most of everything: every kind, big counts, twenty long groups, ten of each example, many outcomes and codes. */
function heavy(): Report {
  const days = Array.from({ length: 93 }, (_, i) => new Date(NOW - (92 - i) * DAY).toISOString().slice(0, 10));
  const kinds = ["rule", "code", "tag", "help", "answer", "answers", "search", "ai", "fallback", "not_found", "search_busy", "ai-pending", "welcome", "media", "none", "reply", "reply_ai", "future_kind"];
  const f: LogFigures = {
    kinds: days.flatMap((day, d) => kinds.map((kind, k) => ({ day, kind, n: 1_000_000 + d * 997 + k * 12_345, close: 3_000, again: 4_000 }))),
    replyTimes: days.flatMap((day, d) => [1, 45, 990, 4_500, 12_000, 600_000].map((ms, k) => ({ day, ms, n: 100 * (k + 1) + d }))),
    model: days.flatMap((day) => ["reply", "customer_service", "failed:timeout", "failed:http_502_bad_gateway_from_the_upstream_proxy", "refused:grounding", "ask"].map((outcome) => ({ day, outcome, n: 123_456, tokens_prompt: 9_876_543, tokens_completion: 1_234_567 }))),
    failures: ["45015", "45047", "48001", "window_closed", "reply_limit", "unreachable", "99999"].map((code, i) => ({ code, by: i % 2 ? ("ai" as const) : ("operator" as const), n: 100_000 - i })),
    unanswered: Array.from({ length: 5000 }, (_, i) => ({
      seq: 900_000_000 + i,
      at: new Date(NOW - i * 60_000).toISOString(),
      from: `o_${i % 333}`,
      text: i % 3 === 0 ? `${LONG_CN} ${i % 40}` : i % 3 === 1 ? `${HOSTILE} ${i % 40}` : `a very long English question about topic number ${i % 40} that goes on and on and on`,
      answer: `fallback:${"averyveryverylongarticleid".repeat(2)},b${i % 7},c`,
    })),
    closeCalls: Array.from({ length: 10 }, (_, i) => ({ seq: 999_999_000 + i, at: new Date(NOW - i).toISOString(), text: i % 2 ? LONG_CN : HOSTILE, answer: "answer:long", margin: 0.4 + i / 100 })),
    askedAgain: Array.from({ length: 10 }, (_, i) => ({
      seq: 999_999_100 + i,
      at: new Date(NOW - i).toISOString(),
      text: HOSTILE,
      answer: "help",
      after: i % 3 ? { seq: 999_999_050 + i, at: new Date(NOW - i - 1000).toISOString(), text: LONG_CN, answer: "answers:long,other,third" } : null,
    })),
    detailsSince: new Date(NOW - 10 * DAY).toISOString(),
  };
  const title = (id: string) => (id === "long" ? `${LONG_CN} <b>title</b>` : id === "other" ? null : `Title of ${id}`);
  const r = assembleReport(f, { since: new Date(NOW - 92 * DAY).toISOString(), until: new Date(NOW).toISOString(), tz: 345 }, (code) => (code === "99999" ? null : `what ${code} means, in a sentence long enough to need cutting at the edge of the terminal`), title);
  // Two groups answered since (taught, a rule added): one by long and hostile titles.
  const [first, second] = r.unanswered_questions.groups;
  return withAnsweredNow(r, new Map([[first?.text ?? "", "answers:long,hostile"], [second?.text ?? "", "rule:hours"]]), (id) => (id === "hostile" ? HOSTILE : title(id)));
}

describe("the terminal", () => {
  test("close calls and questions asked again say when more happened than the examples listed, in the terminal and on the page: the newest listed, how many more; none said when all are listed", () => {
    const r = heavy();
    const listed = (x: { examples: unknown[] }) => x.examples.length;
    const text = reportText({ ...r, close_calls: { ...r.close_calls, count: listed(r.close_calls) + 3 }, asked_again: { ...r.asked_again, count: listed(r.asked_again) + 1 } });
    expect(text).toContain(`(the newest ${listed(r.close_calls)} listed; 3 more)`);
    expect(text).toContain(`(the newest ${listed(r.asked_again)} listed; 1 more)`);
    const all = reportText({ ...r, close_calls: { ...r.close_calls, count: listed(r.close_calls) }, asked_again: { ...r.asked_again, count: listed(r.asked_again) } });
    expect(all).not.toContain("more)");
    // The page says it alike.
    const page = reportHtml({ ...r, close_calls: { ...r.close_calls, count: listed(r.close_calls) + 3 }, asked_again: { ...r.asked_again, count: listed(r.asked_again) } });
    expect(page).toContain(`the newest ${listed(r.close_calls)} listed; 3 more.`);
    expect(page.match(/listed; \d+ more/g)?.length).toBe(1);
  });

  test(`every line within ${WIDTH} columns as a terminal counts them, with 92 days, millions, long Chinese and hostile texts`, () => {
    const text = reportText(heavy());
    const lines = text.split("\n");
    const over = lines.filter((l) => Bun.stringWidth(l) > WIDTH);
    expect(over).toEqual([]);
    // Nothing a terminal would act on; the hostile text is flattened to one line.
    expect(text).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]/);
    expect(lines.length).toBeGreaterThan(150);
    // Bars and sparklines of block characters.
    expect(text).toMatch(/█+[▏▎▍▌▋▊▉]?/);
    expect(text).toMatch(/\nmessages\s+[▁▂▃▄▅▆▇█]{44}\s/);
    // The days of the report's offset, each a line; the whole day count.
    expect(text).toContain("PER DAY (UTC+05:45)");
    expect(lines.filter((l) => /^\d\d-\d\d (Mon|Tue|Wed|Thu|Fri|Sat|Sun) /.test(l))).toHaveLength(93);
    expect(text).toContain("reply times, close calls and follow-ups are logged from 2026-11-11");
    // A group answered since says how, in place of the articles it was closest to.
    expect(text).toMatch(/\n {38}answered now: rule\n/);
    expect(text).toMatch(/\n {38}answered now: list: 我想问一下/);
  });

  /** A day with nothing logged. */
  const emptyReport = () =>
    assembleReport(
      { kinds: [], replyTimes: [], model: [], failures: [], unanswered: [], closeCalls: [], askedAgain: [], detailsSince: null },
      { since: new Date(NOW - DAY).toISOString(), until: new Date(NOW).toISOString(), tz: 0 },
      () => null,
      () => null,
    );

  test("a report of nothing says so, section by section", () => {
    const empty = emptyReport();
    const text = reportText(empty);
    expect(text).toContain("0 follower messages\n— answered, of the 0 that wanted an answer");
    expect(text).toContain("QUESTIONS NOTHING ANSWERED  none");
    expect(text).toContain("MODEL CALLS  none");
    expect(text).not.toContain("named nothing to teach");
    // Emoji alone nothing answered: counted below the questions, on the terminal and the page.
    const angry = { ...empty, unanswered_questions: { ...empty.unanswered_questions, nothing_named: 3 } };
    expect(reportText(angry)).toContain("QUESTIONS NOTHING ANSWERED  none\n3 more named nothing to teach (emoji, only how long…): see replyd inbox");
    expect(reportHtml(angry)).toContain("3 more named nothing to teach");
    expect(Math.max(...text.split("\n").map((l) => Bun.stringWidth(l)))).toBeLessThanOrEqual(WIDTH);
  });

  test("the share answered says how much of it was a ranked list, on the terminal and the page; nothing said without lists", () => {
    const day = new Date(NOW - 1000).toISOString().slice(0, 10);
    const r = assembleReport(
      { kinds: [{ day, kind: "answer", n: 6, close: 0, again: 0 }, { day, kind: "answers", n: 3, close: 0, again: 0 }, { day, kind: "fallback", n: 1, close: 0, again: 0 }], replyTimes: [], model: [], failures: [], unanswered: [], closeCalls: [], askedAgain: [], detailsSince: null },
      { since: new Date(NOW - DAY).toISOString(), until: new Date(NOW).toISOString(), tz: 0 },
      () => null,
      () => null,
    );
    expect(reportText(r)).toContain("90.0% answered, of the 10 that wanted an answer\n  30.0% of them by a ranked list (replyd inbox --all shows what each got)");
    expect(reportHtml(r)).toContain("90.0% of those that wanted an answer answered (30.0% by a ranked list the follower chooses from).");
    expect(reportText(emptyReport())).not.toContain("of them by a ranked list");
  });

  test("the messages the caps kept from the model are said after the calls, by cap, on the terminal and the page", () => {
    const day = new Date(NOW - 1000).toISOString().slice(0, 10);
    const r = assembleReport(
      { kinds: [], replyTimes: [], model: [{ day, outcome: "reply", n: 4, tokens_prompt: 100, tokens_completion: 10 }, { day, outcome: "capped:minute", n: 3, tokens_prompt: 0, tokens_completion: 0 }, { day, outcome: "capped:daily", n: 2, tokens_prompt: 0, tokens_completion: 0 }, { day, outcome: "capped:follower", n: 1, tokens_prompt: 0, tokens_completion: 0 }], failures: [], unanswered: [], closeCalls: [], askedAgain: [], detailsSince: null },
      { since: new Date(NOW - DAY).toISOString(), until: new Date(NOW).toISOString(), tz: 0 },
      () => null,
      () => null,
    );
    expect(r.model).toMatchObject({ calls: 4, capped: { minute: 3, daily: 2, follower: 1 } });
    expect(reportText(r)).toContain("MODEL CALLS  4 (100 prompt + 10 completion tokens)");
    // Every cap's count whole on the terminal, within its width (they had been cut: a gym's walkthrough).
    expect(reportText(r)).toContain("kept from the model by its caps (the retrieval reply instead):\n    minute 3, daily 2, follower 1\n");
    expect(reportHtml(r)).toContain("kept from the model by its caps (the retrieval reply instead): minute 3, daily 2, follower 1");
  });

  test("what followers say between questions (thx, 2, another) is not listed among the questions nothing answered: teach refuses it", () => {
    const asked = (seq: number, text: string) => ({ seq, at: new Date(NOW - 1000 * seq).toISOString(), from: `o_${seq}`, text, answer: "fallback" });
    const r = assembleReport(
      { kinds: [], replyTimes: [], model: [], failures: [], unanswered: [asked(1, "thx"), asked(2, "2"), asked(3, "another"), asked(4, "谢谢"), asked(5, "do you sell helmets")], closeCalls: [], askedAgain: [], detailsSince: null },
      { since: new Date(NOW - DAY).toISOString(), until: new Date(NOW).toISOString(), tz: 0 },
      () => null,
      () => null,
    );
    expect(r.unanswered_questions.groups.map((g) => g.text)).toEqual(["do you sell helmets"]);
  });

  test("a report of a declared account names it in its first line and its page; one of a server of one account names none", () => {
    const base = emptyReport();
    expect(reportText({ ...base, account: "shop" }).split("\n")[0]).toStartWith("replyd report of account shop: ");
    expect(reportText({ ...base, account: null }).split("\n")[0]).toStartWith("replyd report: ");
    const page = reportHtml({ ...base, account: "shop" });
    expect(page).toContain("<title>replyd report, account shop, ");
    expect(page).toContain("<h1>How followers were answered — account shop</h1>");
    expect(reportHtml({ ...base, account: null })).not.toContain("account");
  });

  test("bars to an eighth of a column, at least ▏ for any value; sparklines fit their width by averaging runs", () => {
    expect(bar(0, 10, 8)).toBe("");
    expect(bar(10, 10, 8)).toBe("████████");
    expect(bar(5, 10, 3)).toBe("█▌");
    expect(bar(0.0001, 10, 8)).toBe("▏");
    expect(sparkline([0, 1, 2, 3, 4, 5, 6, 7], 8)).toBe("▁▂▃▄▅▆▇█");
    expect(sparkline([1, null, 1], 3)).toBe("█ █");
    expect(sparkline(Array.from({ length: 100 }, (_, i) => i), 44)).toHaveLength(44);
    expect(sparkline(Array.from({ length: 88 }, (_, i) => (i < 44 ? 0 : 10)), 44)).toBe(`${"▁".repeat(22)}${"█".repeat(22)}`);
    expect(fit("退款退款退款", 7)).toBe("退款退…");
    expect(Bun.stringWidth(fit(LONG_CN, 20))).toBeLessThanOrEqual(20);
    // The escape is a space: what follows it is shown, never acted on.
    expect(oneLine("a\nb\u001b[2J\tc")).toBe("a b [2J c");
    expect([999, 12_345, 999_999_999, 1_234_567, 17_506_090, 1_696_309_026].map((n) => countIn(n, 6))).toEqual(["999", "12,345", "1.00G", "1.23M", "17.5M", "1.70G"]);
  });
});

test("an answer named with its articles' titles, read in a conversation or picked from a list", () => {
  const titles = { a: "Returns", b: "Delivery" };
  expect(["answer:a", "answers:a,b", "followup:answer:a", "another:answers:b,a", "pick:b", "another:not_found", "ai:a"].map((x) => answerName(x, titles))).toEqual([
    "Returns",
    "list: Returns, Delivery",
    "(follow-up) Returns",
    "(another) list: Delivery, Returns",
    "picked: Delivery",
    "(another) not_found",
    "generated, citing Returns",
  ]);
  // An article no longer stored is named by its id alone.
  expect([articleName("a", titles), articleName("gone", { gone: null })]).toEqual(["a (Returns)", "gone"]);
});

describe("the page", () => {
  test("self-contained: no script, nothing it would fetch, a policy that forbids fetching; followers' words escaped; each chart there", () => {
    const page = reportHtml(heavy());
    expect(page).toContain(`<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">`);
    const tags = page.match(/<[^>]*>/g) ?? [];
    const loading = tags.filter((t) => /^<(script|link|img|iframe|object|embed|image|use|base|audio|video|source)\b/i.test(t) || /\b(src|href|xlink:href|srcset|action)\s*=|url\(|:\/\//i.test(t));
    expect(loading).toEqual([]);
    expect(page).not.toMatch(/@import|url\(/i);
    // The hostile text is shown as text.
    expect(page).toContain("&#60;script&#62;alert(&#39;x&#39;)&#60;/script&#62;");
    expect(page).not.toContain("\u001b");
    // A group answered since says how; the hostile title it names is text too.
    expect(page).toContain('<div class="muted">answered now: rule</div>');
    expect(page).toMatch(/<div class="muted">answered now: list: 我想问一下[^<]*&#60;b&#62;title&#60;\/b&#62;, &#60;script&#62;alert/);
    for (const id of CHARTS) expect(page).toMatch(new RegExp(`<figure class="chart" id="${id}"><svg [^>]*role="img"`));
  });

  test("followers' Chinese words are marked with their script, the page being English: traditional, simplified, none for other words; escaped inside", () => {
    expect(said("自修室幾點開")).toBe('<span lang="zh-Hant">自修室幾點開</span>');
    expect(said("自修室几点开")).toBe('<span lang="zh-Hans">自修室几点开</span>');
    expect(said("<b>营业</b>")).toBe('<span lang="zh-Hans">&#60;b&#62;营业&#60;/b&#62;</span>');
    expect(said("opening hours")).toBe("opening hours");
    expect(reportHtml(heavy())).toContain('<span lang="zh-Hans">我想问一下');
  });
});

describe("the command's options, checked before the server is asked", () => {
  const cli = async (...argv: string[]) => {
    const tmp = tempDir();
    try {
      const io = captureIO({ REPLYD_URL: "http://127.0.0.1:9", REPLYD_APPKEY: "k", REPLYD_SECRET: "s" }, tmp.dir);
      mkdirSync(join(tmp.dir, "out"));
      writeFileSync(join(tmp.dir, "out", "there.html"), "x");
      const code = await run(argv, io);
      // With --json a refusal is JSON on standard output.
      return { code, err: [...io.stderr, ...io.stdout].join("\n") };
    } finally {
      tmp.cleanup();
    }
  };
  test("--since, --tz, --html - with --json, and an --html file that is there: usage errors, nothing asked", async () => {
    expect(await cli("report", "--since", "yesterday")).toMatchObject({ code: 2, err: expect.stringContaining("--since must be") });
    expect(await cli("report", "--tz", "+08:10")).toMatchObject({ code: 2, err: expect.stringContaining("--tz must be UTC or an offset") });
    // A value west of UTC, given as its own word, is the value, not options ("unknown option -0" it had been: Boston's -05:00).
    expect(await cli("report", "--tz", "-12:15")).toMatchObject({ code: 2, err: expect.stringContaining('--tz must be UTC or an offset from UTC in quarter hours, from -12:00 to +14:00 (+08:00, -05:30); "-12:15" given') });
    const west = await cli("report", "--tz", "-05:00", "--since", "24h");
    expect(west.err).not.toContain("unknown option");
    expect(west.err).not.toContain("--tz must be");
    expect(await cli("report", "--html", "-", "--json")).toMatchObject({ code: 2, err: expect.stringContaining("choose one") });
    expect(await cli("report", "extra")).toMatchObject({ code: 2 });
    const there = await cli("report", "--html", "out/there.html");
    expect(there.err).toContain("there.html exists; no report was written (--force replaces it)");
  });
  test("--tz: UTC, ±HH:MM in quarter hours from -12:00 to +14:00; without it this machine's offset", () => {
    expect(offsetOption("UTC", new Date())).toBe(0);
    expect(offsetOption("+08:00", new Date())).toBe(480);
    expect(offsetOption("-05:30", new Date())).toBe(-330);
    expect(offsetOption("+14:00", new Date())).toBe(840);
    expect(() => offsetOption("+14:15", new Date())).toThrow();
    expect(() => offsetOption("-12:15", new Date())).toThrow();
    expect(() => offsetOption("8", new Date())).toThrow();
    const d = new Date();
    expect(offsetOption(undefined, d)).toBe(-d.getTimezoneOffset());
  });
});

test("every kind's label fits the terminal report's column of 32, a space left before the count (a walkthrough's 'thanks, greeting (welcome or none)' pushed its row's numbers out of line)", async () => {
  const { KINDS } = await import("../../src/cli/report/kinds.ts");
  expect(KINDS.filter((k) => [...k.label].length > 31).map((k) => k.label)).toEqual([]);
});
