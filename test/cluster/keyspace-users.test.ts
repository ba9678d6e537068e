/**
 * Every user of the cluster's Redis names its keys from the keyspace it is given: driven against a
 * real redis-server, the default account's users write exactly the keys earlier versions wrote (so
 * a rolling upgrade keeps sharing state), and a named account's write theirs under
 * replyd:acct:{NAME}: — but the instance's own (nonces, failure counts, the probe, the token).
 */
import { afterAll, beforeAll, beforeEach, expect, test } from "bun:test";
import { RedisClient } from "bun";
import { keyspace, type Keyspace } from "../../src/cluster/keyspace.ts";
import { FailureLimiter, SharedLimiter } from "../../src/server/limiter.ts";
import { SharedNonces } from "../../src/server/nonces.ts";
import { RedisLink } from "../../src/store/redis/link.ts";
import { LocalConversations, SharedConversations, turnKey } from "../../src/wechat/answering/conversation.ts";
import { RedisBook } from "../../src/wechat/ai/generation-book.ts";
import { LocalCaps, SharedCaps } from "../../src/wechat/ai/caps.ts";
import { PendingFollowers } from "../../src/wechat/ai/pending.ts";
import { SHARED_ANSWER_DEFAULTS, SharedAnswers } from "../../src/wechat/door/shared-retries.ts";
import { RedisTokenShare } from "../../src/wechat/platform/shared-token.ts";
import { startRedis, type Redis } from "../redis.ts";

let redis: Redis;
let raw: RedisClient;
const links: RedisLink[] = [];
beforeAll(async () => {
  redis = await startRedis();
  raw = new RedisClient(redis.url);
  await raw.connect();
});
afterAll(() => {
  for (const l of links) l.close();
  raw?.close();
  redis?.stop();
});
beforeEach(async () => {
  await raw.send("FLUSHALL", []);
});

/** What each user writes, and the channel it tells on, through keyspace `k`. */
async function drive(k: Keyspace): Promise<{ keys: string[]; channels: string[] }> {
  const link = new RedisLink(redis.url, { timeoutMs: 500 });
  await link.connect();
  links.push(link);
  const now = Date.now();
  await new SharedNonces(link, k).remember("nonce1", now + 60_000, now);
  await new SharedLimiter(link, new FailureLimiter({ maxFailures: 5, periodMs: 60_000, lockMs: 60_000, maxEntries: 10 }), k).failed("10.0.0.1", now);
  await new SharedLimiter(link, new FailureLimiter({ maxFailures: 1, periodMs: 60_000, lockMs: 60_000, maxEntries: 10 }), k).failed("10.0.0.2", now);
  const answers = new SharedAnswers(link, "A", SHARED_ANSWER_DEFAULTS, k);
  expect(await answers.answer("m:o1:1", "100", "n1", now + 4000, () => "one")).toBe("one");
  expect(await new RedisBook(answers).open("m:o1:2", now, "fallback")).toBe(true);
  const slot = await new SharedCaps(link, new LocalCaps({ perFollower: 5, perMinute: 5, daily: 5, concurrency: 5 }), 10_000, k).take("o1", now);
  expect(typeof slot).toBe("object");
  await new SharedConversations(link, new LocalConversations(), Date.now, k).add("o1", { key: turnKey("m:o1:1"), at: now, text: "营业到几点", earlier: [], offered: [], shown: [] }, []);
  const token = new RedisTokenShare(link, "A", "wxappid", k);
  await token.write({ token: "T", leftMs: 60_000 });
  expect(await token.lock(10_000)).toBe(true);
  // The channels: what a subscriber to each hears.
  const heard: string[] = [];
  const listener = new RedisClient(redis.url);
  await listener.connect();
  for (const channel of ["replyd:ai:pending", "replyd:acct:{shop}:ai:pending"]) await listener.subscribe(channel, () => heard.push(channel));
  const pending = new PendingFollowers(k);
  await pending.share(link);
  pending.add("o1");
  for (let i = 0; i < 100 && !heard.length; i++) await Bun.sleep(10);
  listener.close();
  await Bun.sleep(50); // the settled answer is written after it is returned
  return { keys: ((await raw.send("KEYS", ["*"])) as string[]).sort(), channels: heard };
}

/** The keys an earlier version's instance wrote, as it spelled them. */
const INSTANCE = ["replyd:fail:lock:10.0.0.2", "replyd:fail:n:10.0.0.1", "replyd:nonce:nonce1", "replyd:probe", "replyd:stable-token:wxappid", "replyd:token-turn:wxappid"];
const ACCOUNT = [
  "replyd:ai:caps:day",
  "replyd:ai:caps:f:o1",
  "replyd:ai:caps:flight",
  "replyd:answer:m:o1:1",
  "replyd:answer:m:o1:2",
  "replyd:answer:m:o1:2:g",
  "replyd:answer:m:o1:2:lease",
  "replyd:answer:sig:100:n1",
  "replyd:conversation:o1",
];

test("the default account's users write exactly the keys earlier versions wrote, and tell on the same channel", async () => {
  const got = await drive(keyspace());
  expect(got.keys).toEqual([...INSTANCE, ...ACCOUNT].sort());
  expect(got.channels).toEqual(["replyd:ai:pending"]);
});

test("a named account's users write under replyd:acct:{NAME}:, but for the instance's keys", async () => {
  const got = await drive(keyspace("shop"));
  expect(got.keys).toEqual([...INSTANCE, ...ACCOUNT.map((k) => k.replace(/^replyd:/, "replyd:acct:{shop}:"))].sort());
  expect(got.channels).toEqual(["replyd:acct:{shop}:ai:pending"]);
});
