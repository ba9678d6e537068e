/** Regex rules under a flood (issue 12 E): a catastrophic rule stops costing the others. */
import { expect, test } from "bun:test";
import { RegexMatcher, STRIKES } from "../../src/wechat/answering/regex.ts";
import { body, signedRequest, doc, testApp } from "../helpers.ts";
import { textMsg, TOKEN, wxPost } from "../wechat/helpers.ts";

const CATASTROPHIC = "^(a+)+$";
const ORDER = "^order\\s*#?\\d{4,}$";
const evil = "a".repeat(40) + "!";
// 300 ms per match, not 100: on a loaded 2-core machine a worker restarted after a timeout could
// take most of 100 ms to start, and the innocent matches after it timed out too. The catastrophic
// pattern runs for minutes on `evil`, so it times out whatever the budget.
const BUDGET_MS = 300;

test("messages queued behind a timed-out match are matched again, not answered 'no match'", async () => {
  const logs: string[] = [];
  const m = new RegexMatcher(BUDGET_MS, (l) => logs.push(l));
  try {
    const bad = m.match([CATASTROPHIC, ORDER], evil);
    const good = Array.from({ length: 53 }, (_, i) => m.match([CATASTROPHIC, ORDER], `order ${1000 + i}`));
    const results = await Promise.all(good);
    expect(results.filter((r) => r.has(1))).toHaveLength(53);
    expect([...(await bad)]).toEqual([]);
    expect(logs.some((l) => l.includes(CATASTROPHIC))).toBe(true);
  } finally {
    m.close();
  }
});

test(`the timed-out message itself is matched again without its culprit`, async () => {
  const m = new RegexMatcher(BUDGET_MS);
  try {
    // Matches ORDER only after the catastrophic pattern is set aside.
    expect([...(await m.match([CATASTROPHIC, "a+!$"], evil))]).toEqual([1]);
  } finally {
    m.close();
  }
});

test(`a pattern that times out ${STRIKES} times is disabled until the rules are written again`, async () => {
  const logs: string[] = [];
  const m = new RegexMatcher(BUDGET_MS, (l) => logs.push(l));
  try {
    for (let i = 0; i < STRIKES - 1; i++) await m.match([CATASTROPHIC, ORDER], evil, 1);
    expect(m.disabled()).toEqual([]);
    await m.match([CATASTROPHIC, ORDER], evil, 1);
    expect(m.disabled().map((d) => d.pattern)).toEqual([CATASTROPHIC]);
    expect(logs.at(-1)).toContain("disabled");
    // Disabled: the same flood no longer runs it (no timeout logged), and the other rule still matches.
    const logged = logs.length;
    for (let i = 0; i < 20; i++) await m.match([CATASTROPHIC, ORDER], evil, 1);
    expect(logs.length).toBe(logged);
    expect([...(await m.match([CATASTROPHIC, ORDER], "order 1234", 1))]).toEqual([1]);
    // The rules written again (a new version): the pattern gets another chance.
    await m.match([CATASTROPHIC, ORDER], "order 1", 2);
    expect(m.disabled()).toEqual([]);
  } finally {
    m.close();
  }
});

test("through the callback: every legitimate order message reaches its rule during a flood; health reports the disabled rule", async () => {
  const t = await testApp({ wechat: { token: TOKEN } });
  try {
    const rules = [
      { id: "slow", match: "regex", pattern: CATASTROPHIC, reply: { type: "text", text: "never" } },
      { id: "order", match: "regex", pattern: ORDER, reply: { type: "text", text: "Order received" } },
    ];
    t.clock.advance(10_000);
    expect((await t.handle(signedRequest("POST", "/api/cli", { nowMs: t.clock.now(), files: [{ name: "json", content: doc([], { rules }) }] }))).status).toBe(200);
    const now = Math.floor(t.clock.now() / 1000);
    const send = (text: string) => t.handle(wxPost(textMsg(text, now), now)).then((r) => r.text());
    const answers = await Promise.all([...Array.from({ length: 4 }, () => send(evil)), ...Array.from({ length: 53 }, (_, i) => send(`order ${5000 + i}`))]);
    expect(answers.slice(4).filter((x) => x.includes("Order received"))).toHaveLength(53);
    const health = await body(await t.handle(signedRequest("GET", "/api/cli", { nowMs: t.clock.now() })));
    expect(health.data.regex_rules_disabled.map((d: { pattern: string }) => d.pattern)).toEqual([CATASTROPHIC]);
  } finally {
    t.close();
  }
});
