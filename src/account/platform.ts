import type { Clock } from "../base/clock.ts";
import { PlatformClient } from "../wechat/platform/client.ts";
import { RedisTokenShare } from "../wechat/platform/shared-token.ts";
import type { ClusterMember } from "./cluster-member.ts";
import type { PlatformSettings } from "./settings.ts";

/** The account's platform API and its access token: shared by the instances of a cluster, none without --wx-secret. */
export function platformClient(settings: PlatformSettings | null, deps: { clock: Clock; log: (msg: string) => void; cluster: ClusterMember | null }): PlatformClient | null {
  if (!settings) return null;
  return new PlatformClient({
    ...settings,
    clock: deps.clock,
    log: deps.log,
    ...(deps.cluster ? { shared: new RedisTokenShare(deps.cluster.link, deps.cluster.instance, settings.appid, deps.cluster.keys) } : {}),
  });
}
