/**
 * Followers with a generated answer waiting for their next message (docs/wechat.md §5): a set
 * looked up on every follower message, so that nobody else's pays more than a lookup in it; the
 * answer itself waits in the store (store/generated-log.ts), which hands it out once. In a
 * cluster, additions and removals are told to every instance through Redis.
 */
import { inBackground } from "../../cluster/fallback.ts";
import { DEFAULT_KEYS, type Keyspace } from "../../cluster/keyspace.ts";
import type { RedisLink } from "../../store/redis/link.ts";
import { PENDING_MS } from "../../store/generated-log.ts";

export class PendingFollowers {
  /** openid → until when its answer may wait. */
  private readonly followers = new Map<string, number>();
  private link: RedisLink | null = null;

  constructor(private readonly keys: Keyspace = DEFAULT_KEYS) {}

  /** Shares additions and removals with the other instances; theirs arrive here. */
  async share(link: RedisLink): Promise<void> {
    this.link = link;
    await link.subscribe(this.keys.pendingChannel, (message) => {
      const openid = message.slice(1);
      if (message.startsWith("+")) this.note(openid);
      else this.followers.delete(openid);
    });
  }

  /** Known to have an answer waiting (from the store, or another instance). */
  note(openid: string): void {
    this.followers.set(openid, Date.now() + PENDING_MS);
  }

  add(openid: string): void {
    this.note(openid);
    this.tell(`+${openid}`);
  }

  remove(openid: string): void {
    this.followers.delete(openid);
    this.tell(`-${openid}`);
  }

  /** Redis away: the notice is lost; another instance learns of the waiting answer from the store when it starts (late-answers.ts). */
  private tell(message: string): void {
    const link = this.link;
    if (link) inBackground(() => link.publish(this.keys.pendingChannel, message));
  }

  has(openid: string): boolean {
    if (!this.followers.size) return false;
    const until = this.followers.get(openid);
    if (until === undefined) return false;
    if (until > Date.now()) return true;
    this.followers.delete(openid);
    return false;
  }

  get size(): number {
    return this.followers.size;
  }
}
