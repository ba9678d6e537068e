import type { Clock } from "../base/clock.ts";
import { TokenKeeper } from "../wechat/platform/token.ts";
import { RedisTokenShare } from "../wechat/platform/shared-token.ts";
import type { ClusterMember } from "./cluster-member.ts";
import type { PlatformSettings } from "./settings.ts";

/** The account's platform API and its access token: shared by the instances of a cluster, none without --wx-secret. */
export function platformClient(settings: PlatformSettings | null, deps: { clock: Clock; log: (msg: string) => void; cluster: ClusterMember | null }): TokenKeeper | null {
  if (!settings) return null;
  return new TokenKeeper({
    ...settings,
    clock: deps.clock,
    log: deps.log,
    ...(deps.cluster ? { shared: new RedisTokenShare(deps.cluster.link, deps.cluster.instance, settings.appid) } : {}),
  });
}
