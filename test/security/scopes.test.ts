/**
 * Followers' own words are an admin key's to read (issue 33 F): the inbox and the model calls' log
 * and the report (issue 35 C) refuse a read key; every other signed GET a read key may use answers without them.
 */
import { afterEach, beforeEach, expect, test } from "bun:test";
import { CODE } from "../../src/base/errors.ts";
import type { Param } from "../../src/sign.ts";
import { ADMIN, article, body, doc, READER, signedRequest, testApp } from "../helpers.ts";

/** What a follower wrote, which only an admin key may read back. */
const WORDS = "我的手机号是13800138000，订单还没到";

let t: Awaited<ReturnType<typeof testApp>>;
beforeEach(async () => {
  t = await testApp();
  t.clock.advance(60_000);
  expect((await t.handle(signedRequest("POST", "/api/cli", { nowMs: t.clock.now(), fields: [["mode", "merge"]], files: [{ name: "json", content: doc([article(1)]) }] }))).status).toBe(200);
  t.log.add({ received_ms: t.clock.now(), msg_key: "m:o_1:1", from_user: "o_1", type: "text", event: null, content: WORDS, answer: "fallback", unmatched: true });
  await t.log.settled();
  await t.app.ctx.write.generated.add({
    at: new Date(t.clock.now()).toISOString(),
    msg_key: "m:o_1:1",
    openid: "o_1",
    question: WORDS,
    model: "m1",
    sources: [],
    output: null,
    answer: null,
    cited: [],
    outcome: "failed:timeout",
    detail: null,
    ms: null,
    tokens_prompt: null,
    tokens_completion: null,
    delivered_at: null,
  });
});
afterEach(() => t.close());

const get = async (path: string, fields: Param[], key = READER) => {
  const res = await t.handle(signedRequest("GET", path, { nowMs: t.clock.now(), key, fields }));
  return { status: res.status, text: await res.text() };
};

for (const inbox of ["all", "unmatched", "ai"]) {
  test(`inbox=${inbox}: a read key is refused 403 forbidden without a follower's words; an admin key reads them`, async () => {
    const asReader = await get("/api/cli", [["inbox", inbox]]);
    expect(asReader.status).toBe(403);
    expect(JSON.parse(asReader.text).error.code).toBe(CODE.forbidden);
    expect(asReader.text).not.toContain(WORDS);
    const asAdmin = await get("/api/cli", [["inbox", inbox]], ADMIN);
    expect(asAdmin.status).toBe(200);
    expect(asAdmin.text).toContain(WORDS);
  });
}

test("report: a read key is refused 403 forbidden without a follower's words; an admin key reads them, in the questions nothing answered", async () => {
  const asReader = await get("/api/cli/report", []);
  expect(asReader.status).toBe(403);
  expect(JSON.parse(asReader.text).error.code).toBe(CODE.forbidden);
  expect(asReader.text).not.toContain(WORDS);
  const asAdmin = await get("/api/cli/report", [], ADMIN);
  expect(asAdmin.status).toBe(200);
  expect(JSON.parse(asAdmin.text).data.unanswered_questions.groups[0].text).toBe(WORDS);
});

test("every other signed GET answers a read key without a follower's words (and the list of GET routes is the one checked)", async () => {
  const backup = await body(await t.handle(signedRequest("POST", "/api/cli/revert/all", { nowMs: t.clock.now() })));
  const gets: [string, Param[]][] = [
    ["/api/cli", []],
    ["/api/cli", [["q", ""]]],
    ["/api/cli", [["id", "a1"]]],
    ["/api/cli/ask", [["q", "订单还没到"]]],
    ["/api/cli/menu", []],
    ["/api/cli/synonyms", []],
    ["/api/cli/rules", []],
    ["/api/cli/accounts", []],
    ["/api/cli/revert/all", []],
    ["/api/cli/revert/all", [["id", backup.data.id]]],
  ];
  for (const [path, fields] of gets) {
    const r = await get(path, fields);
    expect({ path, fields, status: r.status }).toEqual({ path, fields, status: 200 });
    expect(r.text).not.toContain(WORDS);
  }
  // The token is not a read key's either; a new GET route fails here until its read-key answer is looked at.
  expect((await get("/api/cli/token", [])).status).toBe(403);
  const signedGets = t.app.routes.filter((r) => r.method === "GET" && r.path.startsWith("/api/")).map((r) => r.path);
  expect(signedGets.sort()).toEqual(["/api/cli", "/api/cli/accounts", "/api/cli/ask", "/api/cli/menu", "/api/cli/report", "/api/cli/revert/:matter", "/api/cli/rules", "/api/cli/synonyms", "/api/cli/token"]);
});
