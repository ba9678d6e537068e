/**
 * The Redis keyspace (src/cluster/keyspace.ts): the default account's names are exactly the ones
 * every earlier version used (a cluster upgraded one instance at a time keeps sharing its state);
 * a named account's all carry the account, in a shape no other account's can equal; the names an
 * account may have, just past each limit. No module outside src/cluster/ spells a key.
 */
import { expect, test } from "bun:test";
import { Glob } from "bun";
import { join } from "node:path";
import { ACCOUNT_NAME, checkAccountName, DEFAULT_KEYS, keyspace, type Keyspace } from "../../src/cluster/keyspace.ts";
import { CODE } from "../../src/base/errors.ts";

/** Every builder, called with the same arguments: what a key is named for each. */
function names(k: Keyspace): Record<string, string> {
  return {
    nonce: k.nonce("n0123456789abcdef"),
    failCount: k.failCount("10.0.0.1"),
    failLock: k.failLock("2001:db8:1:2::/64"),
    probe: k.probe,
    stableToken: k.stableToken("wx0123456789abcdef"),
    tokenTurn: k.tokenTurn("wx0123456789abcdef"),
    answer: k.answer("m:o_follower:7001"),
    signature: k.signature("1764115200", "n42"),
    generation: k.generation("m:o_follower:7001"),
    lease: k.lease("m:o_follower:7001"),
    conversation: k.conversation("o_follower"),
    unlisted: k.unlisted("o_follower"),
    coded: k.coded("o_follower"),
    capsDay: k.capsDay,
    capsFollower: k.capsFollower("o_follower"),
    capsFlight: k.capsFlight,
    pendingChannel: k.pendingChannel,
    changedChannel: k.changedChannel,
  };
}

/** The names before issue 36, as server/nonces.ts, limiter.ts, store/redis/link.ts, wechat/ai/pending.ts, shared-token.ts, shared.ts, generation-book.ts, model-caps.ts, conversation.ts and store/postgres/open.ts spelled them. */
const BEFORE = {
  nonce: "replyd:nonce:n0123456789abcdef",
  failCount: "replyd:fail:n:10.0.0.1",
  failLock: "replyd:fail:lock:2001:db8:1:2::/64",
  probe: "replyd:probe",
  stableToken: "replyd:stable-token:wx0123456789abcdef",
  tokenTurn: "replyd:token-turn:wx0123456789abcdef",
  answer: "replyd:answer:m:o_follower:7001",
  signature: "replyd:answer:sig:1764115200:n42",
  generation: "replyd:answer:m:o_follower:7001:g",
  lease: "replyd:answer:m:o_follower:7001:lease",
  conversation: "replyd:conversation:o_follower",
  // New in 0.2.2, named as conversation.ts first spelled it.
  unlisted: "replyd:conversation:o_follower:unlisted",
  // New in 0.2.9.
  coded: "replyd:conversation:o_follower:coded",
  capsDay: "replyd:ai:caps:day",
  capsFollower: "replyd:ai:caps:f:o_follower",
  capsFlight: "replyd:ai:caps:flight",
  pendingChannel: "replyd:ai:pending",
  changedChannel: "replyd:changed",
};

/** The instance's names: the same whatever the account (keyspace.ts says why). */
const INSTANCE = ["nonce", "failCount", "failLock", "probe", "stableToken", "tokenTurn"];

test("the default account's names are exactly those before accounts, one by one, and every builder is among them", () => {
  expect(names(keyspace())).toEqual(BEFORE);
  expect(names(DEFAULT_KEYS)).toEqual(BEFORE);
  expect(keyspace().account).toBeNull();
  // A builder added later must be added here (and to BEFORE, or to what a named account changes).
  const builders = Object.keys(keyspace()).filter((k) => k !== "account");
  expect(builders.sort()).toEqual(Object.keys(BEFORE).sort());
});

test("a named account's names all begin replyd:acct:{NAME}: — but the instance's, which are the default's", () => {
  const shop = names(keyspace("shop"));
  for (const [builder, name] of Object.entries(shop)) {
    if (INSTANCE.includes(builder)) expect(name).toBe(BEFORE[builder as keyof typeof BEFORE]);
    else expect(name).toBe(BEFORE[builder as keyof typeof BEFORE].replace(/^replyd:/, "replyd:acct:{shop}:"));
  }
  expect(keyspace("shop").account).toBe("shop");
});

test("no account's key equals another's or the default's, whatever the names and the arguments", () => {
  // Names that are prefixes, suffixes or spellings of each other, and arguments that imitate a key.
  const accounts = [undefined, "a", "ab", "a-b", "a_b", "b", "acct", "default", "answer", "0", "a".repeat(32)];
  const args = ["", "x", "conversation:x", "ai:caps:day", "answer:x", "acct:{a}:answer:x", "{b}:x", "}:answer:x", ":", "sig:1:2", "x:g", "x:lease"];
  const owner = new Map<string, string>();
  for (const account of accounts) {
    const k = keyspace(account);
    const of = (name: string) => {
      const before = owner.get(name);
      expect(before === undefined || before === String(account)).toBe(true);
      owner.set(name, String(account));
    };
    for (const a of args) {
      const perAccount = [k.answer(a), k.signature(a, a), k.generation(a), k.lease(a), k.conversation(a), k.capsFollower(a)];
      for (const name of perAccount) of(name);
    }
    for (const name of [k.capsDay, k.capsFlight, k.pendingChannel, k.changedChannel]) of(name);
  }
  // The account a key belongs to reads back from the key alone.
  for (const account of accounts.filter((a) => a !== undefined))
    for (const name of [keyspace(account).answer("acct:{zz}:x"), keyspace(account).capsDay]) expect(/^replyd:acct:\{([^}]*)\}:/.exec(name)?.[1]).toBe(account as string);
  for (const a of args) expect(keyspace().conversation(a)).not.toStartWith("replyd:acct:");
});

test("account names: 1 to 32 of a-z 0-9 - _, starting with a letter or digit; anything else is bad_request", () => {
  for (const ok of ["a", "0", "shop", "shop-2", "shop_eu", "a".repeat(32), "9-_"]) {
    expect(checkAccountName(ok)).toBe(ok);
    expect(ACCOUNT_NAME.test(ok)).toBe(true);
  }
  // Just past each limit: 33 characters, empty, a capital, the separators a key or a hash tag would be cut at, a leading - or _.
  const bad = ["a".repeat(33), "", "Shop", "a:b", "a{b", "a}b", "-a", "_a", "a b", "a/b", "a.b", "é", "a\n", "商店"];
  for (const name of bad) {
    expect(() => keyspace(name)).toThrow(expect.objectContaining({ code: CODE.bad_request, status: 400 }));
    expect(ACCOUNT_NAME.test(name)).toBe(false);
  }
});

test("no file outside src/cluster/ spells a Redis key or channel", async () => {
  const src = join(import.meta.dir, "../../src");
  const found: string[] = [];
  for await (const file of new Glob("**/*.ts").scan(src)) {
    if (file.startsWith("cluster/")) continue;
    const text = await Bun.file(join(src, file)).text();
    // "replyd: …" (a message) is not a key; "replyd:x" and "replyd:" + x are.
    for (const m of text.matchAll(/replyd:(?!\s)/g)) found.push(`${file}: ${text.slice(m.index, m.index + 30)}`);
  }
  expect(found).toEqual([]);
});
