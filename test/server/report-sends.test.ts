/**
 * The report's customer-service messages (issue 35 C), against the fake platform on each store:
 * what went out, by whom, and what did not by the platform's error code (45015, 45047, 48001) or
 * why replyd sent nothing (window_closed), each with what it means.
 */
import { afterEach, beforeEach, expect, test } from "bun:test";
import type { Report } from "../../src/server/report/figures.ts";
import { type FakePlatform } from "../platform/fake.ts";
import { platformApp, type Harness } from "../platform/harness.ts";
import { textMsg, wxPost } from "../wechat/helpers.ts";

const FOLLOWER = "o_follower";
const HOUR = 3_600_000;
let h: Harness, fake: FakePlatform, t: Harness["t"];
beforeEach(async () => void ({ fake, t } = h = await platformApp()));
afterEach(() => h.close());

/** The follower writes: replyd's window opens, and the platform's when `platformToo`. */
async function followerWrites(platformToo = true): Promise<void> {
  const now = Math.floor(t.clock.now() / 1000);
  await (await t.handle(wxPost(textMsg("where is my order?", now), now))).text();
  if (platformToo) fake.interact(FOLLOWER);
}
const reply = (text: string) => h.call("POST", "/api/cli/reply", { fields: [["openid", FOLLOWER], ["text", text]] });

test("sent by operators, and the sends that failed by the platform's code or replyd's reason, the most first, each with what it means", async () => {
  await followerWrites();
  expect((await reply("one")).status).toBe(200);
  // The platform's own 48 hours ran out while replyd's had not (its clock alone moved): 45015.
  fake.advance(48 * HOUR);
  expect((await reply("two")).status).toBe(502);
  // The follower writes again, but the platform still counts the replies of before: 45047 after its fifth.
  await followerWrites(false);
  fake.interact(FOLLOWER);
  for (let i = 0; i < 5; i++) expect((await reply(`r${i}`)).status).toBe(200);
  await followerWrites(false);
  expect((await reply("past the platform's count")).status).toBe(502);
  // The account may not send them: 48001, twice.
  fake.deny("/cgi-bin/message/custom/send");
  await followerWrites();
  expect((await reply("denied")).status).toBe(502);
  expect((await reply("denied again")).status).toBe(502);
  // replyd's own window closed: refused before the platform is asked.
  h.age(48 * HOUR + 1000);
  expect((await reply("too late")).status).toBe(409);
  const r = (await h.call("GET", "/api/cli/report", { fields: [["since", "7d"], ["tz", "0"]] })).data as Report;
  expect(r.sends.sent).toEqual({ operator: 6, ai: 0 });
  expect(r.sends.failed).toEqual([
    { code: "48001", by: "operator", n: 2, meaning: expect.stringContaining("permission") },
    { code: "45015", by: "operator", n: 1, meaning: expect.stringContaining("48-hour reply window is closed") },
    { code: "45047", by: "operator", n: 1, meaning: expect.stringContaining("replies allowed since the follower's last message are spent") },
    { code: "window_closed", by: "operator", n: 1, meaning: "not sent: the follower's 48-hour window was closed" },
  ]);
  expect(r.days.reduce((s, d) => s + d.sent.operator, 0)).toBe(6);
});
