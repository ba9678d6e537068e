import { DEFAULT_KEYS, type Keyspace } from "../../cluster/keyspace.ts";
import type { RedisLink } from "../../store/redis/link.ts";
import type { SharedToken, TokenShare } from "./token-keeper.ts";

/**
 * The access token kept in Redis for the cluster (issue 15): one instance at a time holds the
 * refresher's turn (SET NX with an expiry, so a killed holder frees it), asks the platform, and
 * writes the token where the others read it. The token lives in Redis until it expires: it is as
 * secret there as in the process, so Redis must be on a private network (docs/operations.md).
 * Its remaining life is the key's own expiry, read back with it: no instance's wall clock enters
 * into it, so one whose clock runs hours ahead cannot make another hand out an expired token.
 * Redis away: every call rejects with RedisDown, and the token keeper asks the platform itself (token-keeper.ts).
 */
const READ = `local v = redis.call('GET', KEYS[1]) if not v then return false end return {v, redis.call('PTTL', KEYS[1])}`;
export class RedisTokenShare implements TokenShare {
  private readonly key: string;
  private readonly lockKey: string;

  constructor(
    private readonly link: RedisLink,
    private readonly instance: string,
    appid: string,
    keys: Keyspace = DEFAULT_KEYS,
  ) {
    this.key = keys.stableToken(appid);
    this.lockKey = keys.tokenTurn(appid);
  }

  async read(): Promise<SharedToken | null> {
    const got = await this.link.eval<[string, number] | null>(READ, [this.key], []);
    if (!Array.isArray(got)) return null;
    const [token, leftMs] = got;
    return typeof token === "string" && token !== "" && typeof leftMs === "number" && leftMs > 0 ? { token, leftMs } : null;
  }

  async lock(ms: number): Promise<boolean> {
    return (await this.link.send<string | null>("SET", [this.lockKey, this.instance, "PX", String(ms), "NX"])) === "OK";
  }

  async write(t: SharedToken): Promise<void> {
    // Too little left to be worth sharing: the others ask for themselves.
    if (t.leftMs >= 1000) await this.link.send("SET", [this.key, t.token, "PX", String(Math.floor(t.leftMs))]);
    await this.release();
  }

  async release(): Promise<void> {
    await this.link.eval(`if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`, [this.lockKey], [this.instance]);
  }
}
