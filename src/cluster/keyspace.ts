/**
 * Every name replyd gives a Redis key or channel (issue 36 A), declared once and built for an
 * account. The default account — the one account of a replyd without `[accounts]` — gets exactly
 * the names every earlier version used, so the instances of a cluster upgraded one at a time keep
 * sharing their state (test/cluster/keyspace.test.ts holds each one). A named account's names all
 * begin `replyd:acct:{NAME}:`: no default name begins `replyd:acct:`, and a name holds no `:`, so
 * no account's key can equal another's or the default's.
 *
 * `{NAME}` is a Redis Cluster hash tag: every key of one account lands in one slot, so the
 * multi-key scripts (a batch of offered answers, a claim and its signature, the caps' three sets,
 * a generation's lease) stay valid there. The default account's names cannot carry one without
 * changing them; replyd speaks to one Redis server today (Bun's client has no cluster mode).
 *
 * Five names are the instance's, not an account's, and stay the same whatever the account: the
 * admin door's nonces and failure counts (one door for every account: counting failures per
 * account named in an unverified request would give a guesser one budget per account), the link's
 * probe (one link per process), and the access token and its refresher's turn, which belong to the
 * appid (two accounts naming one appid share its token rather than refresh it against each other).
 */
import { ACCOUNT_NAME, checkAccountName } from "../base/account-name.ts";

export { ACCOUNT_NAME, checkAccountName };

const ROOT = "replyd:";

export interface Keyspace {
  /** The account these names are for; null for the default account. */
  readonly account: string | null;
  // The instance's (the same for every account).
  /** An admin request's nonce (server/nonces.ts). */
  nonce(nonce: string): string;
  /** An address's failed authentications, and its lock-out (server/limiter.ts; `addr` as limiterKey gives it). */
  failCount(addr: string): string;
  failLock(addr: string): string;
  /** What the link writes to tell whether Redis takes commands again (store/redis/link.ts). */
  readonly probe: string;
  /**
   * The appid's access token, and the turn to refresh it (wechat/platform/shared-token.ts). Not the key
   * versions before the token's life was the key's expiry kept a JSON record at: during a rolling
   * upgrade from those each reads its own.
   */
  stableToken(appid: string): string;
  tokenTurn(appid: string): string;
  // The account's.
  /** A message's retry answer, claim or generation marker (wechat/door/shared-retries.ts, generation-book.ts). */
  answer(msgKey: string): string;
  /** The message a callback signature carried (wechat/door/shared-retries.ts). */
  signature(timestamp: string, nonce: string): string;
  /** A generated answer's deliveries, and its owner's lease (wechat/ai/generation-book.ts). */
  generation(msgKey: string): string;
  lease(msgKey: string): string;
  /** A follower's last turns, when a tag, help or rule last answered them, and the last code sent them (wechat/answering/conversation.ts). */
  conversation(openid: string): string;
  unlisted(openid: string): string;
  coded(openid: string): string;
  /** The model calls of the last 24 hours, a follower's of the last hour, the places in flight (wechat/ai/caps.ts). */
  readonly capsDay: string;
  capsFollower(openid: string): string;
  readonly capsFlight: string;
  /** Channels: followers with a generated answer waiting (wechat/ai/pending.ts); the database changed (store/postgres/open.ts). */
  readonly pendingChannel: string;
  readonly changedChannel: string;
}

/** The names for `account` (checked: bad_request for a name outside ACCOUNT_NAME), or the default account's. */
export function keyspace(account?: string): Keyspace {
  const mine = account === undefined ? ROOT : `${ROOT}acct:{${checkAccountName(account)}}:`;
  const answer = (msgKey: string) => `${mine}answer:${msgKey}`;
  return {
    account: account ?? null,
    nonce: (nonce) => `${ROOT}nonce:${nonce}`,
    failCount: (addr) => `${ROOT}fail:n:${addr}`,
    failLock: (addr) => `${ROOT}fail:lock:${addr}`,
    probe: `${ROOT}probe`,
    stableToken: (appid) => `${ROOT}stable-token:${appid}`,
    tokenTurn: (appid) => `${ROOT}token-turn:${appid}`,
    answer,
    signature: (timestamp, nonce) => `${mine}answer:sig:${timestamp}:${nonce}`,
    generation: (msgKey) => `${answer(msgKey)}:g`,
    lease: (msgKey) => `${answer(msgKey)}:lease`,
    conversation: (openid) => `${mine}conversation:${openid}`,
    unlisted: (openid) => `${mine}conversation:${openid}:unlisted`,
    coded: (openid) => `${mine}conversation:${openid}:coded`,
    capsDay: `${mine}ai:caps:day`,
    capsFollower: (openid) => `${mine}ai:caps:f:${openid}`,
    capsFlight: `${mine}ai:caps:flight`,
    pendingChannel: `${mine}ai:pending`,
    changedChannel: `${mine}changed`,
  };
}

/** The default account's names: what a replyd without accounts uses, as every earlier version did. */
export const DEFAULT_KEYS = keyspace();
