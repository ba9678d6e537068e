import type { Clock } from "../base/clock.ts";
import type { Keyspace } from "../cluster/keyspace.ts";
import type { Writer } from "../store/writer.ts";
import { LocalCaps, SharedCaps } from "../wechat/ai/caps.ts";
import { RedisBook } from "../wechat/ai/generation-book.ts";
import { GeneratedAnswers } from "../wechat/ai/generated-answers.ts";
import { PendingFollowers } from "../wechat/ai/pending.ts";
import type { SharedAnswers } from "../wechat/door/shared-retries.ts";
import type { PlatformClient } from "../wechat/platform/client.ts";
import type { AiOptions } from "./settings.ts";

/**
 * The account's generated answers and what they count with: the caps from the calls of the last 24
 * hours (in Redis for a cluster), the followers with an answer waiting, the cluster's book beside its
 * retry answers.
 */
export async function aiAnswers(
  ai: AiOptions,
  deps: { write: Writer; clock: Clock; log: (msg: string) => void; warn?: (msg: string) => void; shared: SharedAnswers | null; platform: PlatformClient | null; keys: Keyspace | null },
): Promise<GeneratedAnswers> {
  const { write, clock, log, shared, platform } = deps;
  const since = new Date(clock.now() - 24 * 3_600_000).toISOString();
  const history = await write.generated.calls(since).catch((e) => {
    log(`the model calls of the last 24 hours could not be read (the caps count from none): ${(e as Error).message}`);
    return [];
  });
  const local = new LocalCaps(ai.caps, history.map((h) => ({ openid: h.openid, atMs: Date.parse(h.at) })));
  const pending = new PendingFollowers(deps.keys ?? undefined);
  if (shared) await pending.share(shared.link);
  const generator = new GeneratedAnswers({
    endpoint: ai.endpoint,
    // A call lasts at most its time-out: a place leased in Redis is free a little after it, whatever becomes of the instance.
    caps: shared ? new SharedCaps(shared.link, local, ai.endpoint.timeoutMs + 10_000, deps.keys ?? undefined) : local,
    write,
    clock,
    log,
    ...(deps.warn ? { warn: deps.warn } : {}),
    shared: shared ? new RedisBook(shared) : null,
    pending,
    platform: () => platform,
    ...(ai.times ? { times: ai.times } : {}),
    ...(ai.fetch ? { fetch: ai.fetch } : {}),
  });
  await generator.load().catch((e) => log(`the answers waiting for followers' next messages could not be read: ${(e as Error).message}`));
  return generator;
}
