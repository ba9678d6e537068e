/**
 * The accounts of a process share one regex thread (issue 36 B: accounts share the worker threads):
 * one account's catastrophic rule costs another's messages a re-run, never a wrong answer, and is
 * struck, logged and disabled in its own account alone.
 */
import { expect, test } from "bun:test";
import { RegexMatcher, STRIKES } from "../../src/wechat/answering/regex.ts";
import { RegexThread } from "../../src/wechat/answering/regex-thread.ts";

const CATASTROPHIC = "^(a+)+$";
const ORDER = "^order\\s*#?\\d{4,}$";
const evil = "a".repeat(40) + "!";
// As in test/security/regex.test.ts: room for a worker restarted on a loaded machine.
const BUDGET_MS = 300;

test("shop's catastrophic rule times out on the shared thread: blog's queued matches are run again and answered right; only shop strikes and disables it", async () => {
  const thread = new RegexThread(BUDGET_MS);
  const shopLog: string[] = [];
  const blogLog: string[] = [];
  const shop = new RegexMatcher(BUDGET_MS, (l) => shopLog.push(l), Date.now, thread);
  const blog = new RegexMatcher(BUDGET_MS, (l) => blogLog.push(l), Date.now, thread);
  try {
    for (let strike = 0; strike < STRIKES; strike++) {
      const bad = shop.match([CATASTROPHIC, ORDER], evil, 1);
      const blogs = Array.from({ length: 20 }, (_, i) => blog.match([CATASTROPHIC, ORDER], `order ${1000 + i}`, 1));
      expect((await Promise.all(blogs)).filter((r) => r.has(1) && !r.has(0))).toHaveLength(20);
      expect([...(await bad)]).toEqual([]);
    }
    expect(shop.disabled().map((d) => d.pattern)).toEqual([CATASTROPHIC]);
    expect(blog.disabled()).toEqual([]);
    expect(shopLog.join("\n")).toContain("disabled");
    expect(blogLog).toEqual([]);
    // blog still runs the pattern (on its own text it is harmless); shop skips it.
    expect([...(await blog.match([CATASTROPHIC], "aaaa", 1))]).toEqual([0]);
    expect([...(await shop.match([CATASTROPHIC], "aaaa", 1))]).toEqual([]);
    // A matcher on a shared thread does not end it for the others: blog's match in flight is answered.
    const inFlight = blog.match([ORDER], "order 1234", 1);
    shop.close();
    expect([...(await inFlight)]).toEqual([0]);
  } finally {
    thread.close();
  }
});
