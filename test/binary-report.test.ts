/**
 * `replyd report` through dist/replyd (issue 35 C), on a data folder and on PostgreSQL: followers
 * write through the callback, then the operator's client shows how they were answered — within 80
 * columns in the terminal, the same figures with --json, and with --html one page that fetches
 * nothing, which headless Chromium renders with each of its charts drawn.
 */
import { afterEach, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CHART_COLOURS, CHARTS } from "../src/cli/report/html.ts";
import { KINDS } from "../src/cli/report/kinds.ts";
import type { Report } from "../src/server/report/figures.ts";
import { wxSignature } from "../src/wechat/door/crypto.ts";
import { render } from "./chromium.ts";
import { BIN, buildIfMissing, startBinaryServer } from "./binary-server.ts";
import { doc } from "./helpers.ts";
import { pixelsOf, readPng } from "./png.ts";
import { TOKEN } from "./wechat/helpers.ts";
import { startFakeModel } from "./model/fake.ts";
import { startFakePlatform } from "./platform/fake.ts";
import { APPID, SECRET } from "./platform/harness.ts";

const MODEL_KEY = "sk-test-0123456789abcdefghij";

const ADMIN = { appkey: "ops", secret: "ops-secret-0123456789abcdef" };

beforeAll(buildIfMissing);

let cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.reverse()) await c();
  cleanups = [];
});

const SHOP = [
  { id: "returns", code: "r1", tag: "shop", title: "Returns and refunds", url: "https://shop.example/returns", body: "You can return any item within 30 days of delivery. Refunds are paid to the original payment method within 5 working days." },
  { id: "delivery", tag: "shop", title: "Delivery times", url: "https://shop.example/delivery", body: "Orders ship within 2 days. Standard delivery takes 3 to 5 working days; express delivery arrives the next day." },
  { id: "password", title: "Reset your password", url: "https://shop.example/password", body: "Click forgot password on the sign-in page and follow the link we email you." },
  { id: "payment", title: "Ways to pay", url: "https://shop.example/payment", body: "We accept credit cards and bank transfers. Invoices are sent by email." },
  { id: "express", title: "Express delivery", url: "https://shop.example/express", body: "Express delivery costs 10 euros and arrives the next working day." },
];

/**
 * A server of the binary on a data folder or a database, its admin key from its environment (and,
 * with `extra`, a model or the platform's API); its client, and a follower's voice.
 */
async function serve(kind: "sqlite" | "postgres", extra: { args: string[]; env: Record<string, string> } = { args: [], env: {} }) {
  const { dir, url } = await startBinaryServer(kind, { prefix: "replyd-binreport-", admin: ADMIN, cleanups, args: extra.args, env: extra.env });
  // Not spawnSync: the fake model and platform answer from this process while the client waits.
  const client = async (...args: string[]) => {
    const r = Bun.spawn([BIN, ...args], {
      cwd: dir,
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", REPLYD_URL: url, REPLYD_APPKEY: ADMIN.appkey, REPLYD_SECRET: ADMIN.secret, TZ: "Asia/Shanghai" },
      stdout: "pipe",
      stderr: "pipe",
    });
    const [out, err, code] = await Promise.all([new Response(r.stdout).text(), new Response(r.stderr).text(), r.exited]);
    return { code, out, err };
  };
  let msgId = 7000;
  const say = async (from: string, text: string) => {
    const now = Math.floor(Date.now() / 1000);
    const xml = `<xml><ToUserName><![CDATA[gh_account]]></ToUserName><FromUserName><![CDATA[${from}]]></FromUserName><CreateTime>${now}</CreateTime><MsgType><![CDATA[text]]></MsgType><Content><![CDATA[${text}]]></Content><MsgId>${++msgId}</MsgId></xml>`;
    const nonce = String(1e9 + Math.floor(Math.random() * 9e9));
    const q = new URLSearchParams({ timestamp: String(now), nonce, openid: from, signature: wxSignature(TOKEN, String(now), nonce) });
    return (await fetch(`${url}/wechat?${q}`, { method: "POST", body: xml, headers: { "content-type": "text/xml" } })).text();
  };
  writeFileSync(join(dir, "shop.json"), doc(SHOP, { matter: "all", rules: [{ id: "hours", match: "exact", pattern: "hours", reply: { type: "text", text: "We are open 9 to 6." } }] }));
  expect((await client("import", "shop.json")).code).toBe(0);
  for (let i = 0; i < 300; i++) {
    if ((JSON.parse((await client("health", "--json")).out) as { passage_index?: { state?: string } }).passage_index?.state === "ready") break;
    await Bun.sleep(50);
  }
  return { dir, client, say };
}

/** Followers of a shop writing in English and Chinese: every kind of answer, unanswered questions in other words, a close call, a follow-up. */
async function followersWrite(say: (from: string, text: string) => Promise<string>): Promise<void> {
  await say("o_a", "hours");
  await say("o_a", "h");
  await say("o_b", "r1");
  await say("o_b", "shop");
  await say("o_c", "how long does delivery take");
  await say("o_c", "no, the express delivery");
  await say("o_d", "delivery");
  await say("o_e", "delivery express");
  for (const [from, text] of [
    ["o_f", "I want my money back"],
    ["o_g", "i want my money back!"],
    ["o_h", "Can I have my money back please?"],
    ["o_i", "怎么开发票"],
    ["o_j", "如何开发票？"],
    ["o_k", "我想问一个很长很长的问题，要写满一整行还不够，还要继续写下去才行，门店周末几点开门"],
  ])
    await say(from as string, text as string);
  await say("o_l", "s zzzz");
}

/** Every line within 80 columns as a terminal shows it (a Chinese character takes two). */
const widest = (text: string) => Math.max(...text.split("\n").map((l) => Bun.stringWidth(l)));

describe.each(["sqlite", "postgres"] as const)("%s", (kind) => {
  test("replyd report: within 80 columns, the same figures as --json; --html writes one page that fetches nothing, refused over an existing file without --force", async () => {
    const s = await serve(kind);
    await followersWrite(s.say);
    const text = await s.client("report", "--since", "24h");
    expect(text.code).toBe(0);
    expect(widest(text.out)).toBeLessThanOrEqual(80);
    const json = await s.client("report", "--since", "24h", "--json");
    expect(json.code).toBe(0);
    const r = JSON.parse(json.out) as Report;
    // The days are this machine's (TZ=Asia/Shanghai for the client).
    expect(r.tz).toBe("+08:00");
    expect(r.totals.kinds).toMatchObject({ rule: 1, help: 1, code: 1, tag: 1, answer: 1, answers: 3, fallback: 6, not_found: 1 });
    expect(r.totals.messages).toBe(15);
    expect(r.unanswered_questions.groups.map((g) => [g.count, g.followers])).toEqual([
      [3, 3],
      [2, 2],
      [1, 1],
      [1, 1],
    ]);
    expect(r.close_calls.count).toBe(1);
    expect(r.asked_again.count).toBe(1);
    expect(r.totals.reply_ms?.n).toBe(15);
    // What the terminal shows is what --json says.
    expect(text.out).toContain(`${r.totals.messages} follower messages\n${((r.totals.share as number) * 100).toFixed(1)}% answered, of the ${r.totals.answered + r.totals.unanswered} that wanted an answer`);
    expect(text.out).toContain(`CLOSE CALLS  1 of ${r.close_calls.alone} articles sent alone`);
    expect(text.out).toMatch(new RegExp(`\\n\\s+3\\s+3 \\d\\d-\\d\\d \\d\\d:\\d\\d\\s+${r.unanswered_questions.groups[0]?.seq}  Can I have my money back please\\?\\n`));
    // The long Chinese question, cut to fit.
    expect(text.out).toContain("我想问一个很长很长的问题");
    expect(text.out).not.toContain("门店周末几点开门");
    // The page: refused over a file that is there, written with --force.
    writeFileSync(join(s.dir, "report.html"), "keep me");
    const refused = await s.client("report", "--since", "24h", "--html", "report.html");
    expect(refused.code).not.toBe(0);
    expect(refused.err).toContain("report.html exists");
    expect(readFileSync(join(s.dir, "report.html"), "utf8")).toBe("keep me");
    const wrote = await s.client("report", "--since", "24h", "--html", "report.html", "--force");
    expect(wrote.code).toBe(0);
    expect(wrote.err).toContain("wrote the report to");
    const page = readFileSync(join(s.dir, "report.html"), "utf8");
    expect(page).not.toMatch(/<script|<link|<img|<iframe|<object|<embed|\bsrc=|\bhref=|url\(|@import|:\/\//i);
    // Each chart with something to draw; without model calls or customer-service messages, said so in words.
    for (const id of CHARTS.filter((c) => c !== "chart-model" && c !== "chart-sends")) expect(page).toContain(`id="${id}"`);
    expect(page).not.toContain('id="chart-sends"');
    expect(page).toContain('<h2>Customer-service messages</h2><p class="muted">none sent or failed in this time</p>');
    // --html - writes the page, and only the page, to standard output.
    const piped = await s.client("report", "--since", "24h", "--html", "-");
    expect(piped.code).toBe(0);
    expect(piped.out.startsWith("<!doctype html>")).toBe(true);
    expect(piped.out.trimEnd().endsWith("</html>")).toBe(true);
    // A question with a bad --since is refused before the server is asked.
    expect((await s.client("report", "--since", "soon")).code).toBe(2);
  }, 120_000);
});

test("the page dist/replyd wrote, rendered in headless Chromium: every chart drawn, in its colours", async () => {
  const model = startFakeModel(MODEL_KEY);
  const platform = startFakePlatform(APPID, SECRET);
  cleanups.push(() => model.stop(), () => platform.stop());
  const s = await serve("sqlite", {
    args: ["--ai-url", model.base, "--ai-model", "fake-1", "--wx-appid", APPID, "--wx-secret", SECRET, "--wx-api", platform.url],
    env: { REPLYD_AI_KEY: MODEL_KEY },
  });
  await followersWrite(s.say);
  // A customer-service message sent, and one the platform refuses (it never saw o_g: 40003).
  platform.interact("o_f");
  const sent = await s.client("reply", "o_f", "We will look into it.");
  expect({ code: sent.code, err: sent.err }).toEqual({ code: 0, err: "" });
  expect((await s.client("reply", "o_g", "We will look into it.")).code).not.toBe(0);
  const json = JSON.parse((await s.client("report", "--since", "24h", "--json")).out) as Report;
  expect(json.model.calls).toBeGreaterThan(0);
  expect(json.sends).toMatchObject({ sent: { operator: 1 }, failed: [{ code: "40003", n: 1 }] });
  expect((await s.client("report", "--since", "24h", "--html", "report.html")).code).toBe(0);
  const { dom, png } = render(join(s.dir, "report.html"), 900, 4000);
  // Each chart is in the DOM Chromium built: an svg with marks in it.
  for (const id of CHARTS) {
    const figure = new RegExp(`<figure class="chart" id="${id}"><svg[^>]*>([\\s\\S]*?)</svg>`).exec(dom);
    expect(figure).not.toBeNull();
    expect((figure?.[1] ?? "").match(/<(rect|circle|polyline)\b/g)?.length ?? 0).toBeGreaterThan(0);
  }
  // And drawn: each chart's own colours are on the screenshot.
  const shot = readPng(png);
  const colour = (kind: string) => KINDS.find((k) => k.kind === kind)?.colour as string;
  for (const c of [colour("rule"), colour("fallback"), CHART_COLOURS.share, CHART_COLOURS.p50, CHART_COLOURS.p99, CHART_COLOURS.model, CHART_COLOURS.sent, CHART_COLOURS.failed])
    expect([c, pixelsOf(shot, c) > 20]).toEqual([c, true]);
}, 180_000);
