import type { Keyspace } from "../cluster/keyspace.ts";
import type { RedisLink } from "../store/redis/link.ts";

/** One instance of a cluster (serve --redis), as an account's parts share their state through it. */
export interface ClusterMember {
  link: RedisLink;
  /** This instance's id in the cluster's registry. */
  instance: string;
  /** The account's Redis names: the default account's (every earlier version's) or `keyspace(NAME)`'s. */
  keys: Keyspace;
}
