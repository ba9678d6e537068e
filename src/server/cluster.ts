import { RedisLink } from "../store/redis/link.ts";
import type { ClusterPart } from "../store/backend.ts";

/** The cluster's Redis, connected: a cluster does not start without it (the error names it, password hidden). */
export async function connectRedis(url: string, log: (message: string) => void, info: (message: string) => void = log): Promise<RedisLink> {
  const link = new RedisLink(url, { log, info });
  try {
    await link.connect();
  } catch (e) {
    link.close();
    throw new Error(`cannot reach Redis at ${link.where}: ${(e as Error).message}`);
  }
  return link;
}

/** One of a cluster (--redis): its link, its id, and what health shows of the cluster. */
export function clusterOf(redis: RedisLink, db: ClusterPart) {
  const me = db.registry;
  return {
    link: redis,
    instance: me.id,
    status: () => ({
      instance: { id: me.id, host: me.host, pid: process.pid },
      instances_seen: 1 + me.seen.length,
      others: me.seen,
      redis: {
        ...(redis.up
          ? { state: "up", at: redis.where }
          : { state: redis.refusing ? "refusing" : "down", at: redis.where, since: new Date(redis.downSince as number).toISOString(), error: redis.lastError }),
        ...(redis.lastRefusal ? { last_refusal: { at: new Date(redis.lastRefusal.at).toISOString(), error: redis.lastRefusal.error } } : {}),
      },
      postgres: db.state(),
      cache_lag: db.cacheLag(),
    }),
  };
}

