import type { RedisLink } from "../store/redis/link.ts";
import type { TokenShare } from "./token.ts";

/**
 * The access token kept in Redis for the cluster (issue 15): one instance at a time holds the
 * refresher's turn (SET NX with an expiry, so a killed holder frees it), asks the platform, and
 * writes the token where the others read it. The token lives in Redis until it expires: it is as
 * secret there as in the process, so Redis must be on a private network (docs/operations.md).
 */
export class RedisTokenShare implements TokenShare {
  private readonly key: string;
  private readonly lockKey: string;

  constructor(
    private readonly link: RedisLink,
    private readonly instance: string,
    appid: string,
  ) {
    this.key = `replyd:token:${appid}`;
    this.lockKey = `replyd:token-turn:${appid}`;
  }

  async read(): Promise<{ token: string; expiresAt: number } | null> {
    const v = await this.link.send<string | null>("GET", [this.key]);
    if (!v) return null;
    try {
      const t = JSON.parse(v) as { token?: unknown; expiresAt?: unknown };
      return typeof t.token === "string" && typeof t.expiresAt === "number" ? { token: t.token, expiresAt: t.expiresAt } : null;
    } catch {
      return null;
    }
  }

  async lock(ms: number): Promise<boolean> {
    return (await this.link.send<string | null>("SET", [this.lockKey, this.instance, "PX", String(ms), "NX"])) === "OK";
  }

  async write(t: { token: string; expiresAt: number }): Promise<void> {
    const ttl = Math.max(1000, Math.floor(t.expiresAt - Date.now()));
    await this.link.send("SET", [this.key, JSON.stringify(t), "PX", String(ttl)]);
    await this.release();
  }

  async release(): Promise<void> {
    await this.link.eval(`if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`, [this.lockKey], [this.instance]);
  }
}
