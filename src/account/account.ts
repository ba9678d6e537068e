/**
 * An account: one official account's callback and everything that answers it, built by small
 * factories from one AccountSettings (docs/architecture.md "The account as the unit"). The server
 * composes accounts; nothing here knows of routes, keys or the listening socket.
 */
import type { Clock } from "../base/clock.ts";
import type { ClusterPart } from "../store/backend.ts";
import type { ReadModel } from "../store/read-model.ts";
import type { Writer } from "../store/writer.ts";
import type { RegexMatcher } from "../wechat/answering/regex.ts";
import type { RegexThread } from "../wechat/answering/regex-thread.ts";
import type { Responder } from "../wechat/answering/responder.ts";
import { SharedConversations, type Conversations } from "../wechat/answering/conversation.ts";
import type { GeneratedAnswers } from "../wechat/ai/generated-answers.ts";
import { WECHAT_DEFAULTS, WechatHandler } from "../wechat/door/handler.ts";
import { SHARED_ANSWER_DEFAULTS, SharedAnswers } from "../wechat/door/shared-retries.ts";
import type { PlatformClient } from "../wechat/platform/client.ts";
import { aiAnswers } from "./ai.ts";
import { answering } from "./answering.ts";
import type { ClusterMember } from "./cluster-member.ts";
import { platformClient } from "./platform.ts";
import type { AccountSettings } from "./settings.ts";

export interface Account {
  readonly name: string;
  /** Where the platform posts its messages. */
  readonly path: string;
  /** What the callback and listings read (on PostgreSQL: the local copy); nothing writes through it. */
  readonly read: ReadModel;
  /** Every write, backups and the message log: the store of record's. */
  readonly write: Writer;
  /** Its own part of a cluster's database (several accounts on PostgreSQL): health's state and lag. */
  readonly databasePart: ClusterPart | null;
  /** The folder its cover pictures are served from. */
  readonly mediaDir: string;
  readonly regex: RegexMatcher;
  /** The operator's rules as the callback applies them (which menu keys are answered). */
  readonly rules: Pick<Responder, "ruleFor" | "rulesMatching">;
  /** What a follower's text gets: the callback's, and `replyd ask`'s (after a message: its aside, a conversation of its own). */
  readonly responder: Pick<Responder, "respond" | "aside">;
  /** The platform API (--wx-secret): null when not configured. */
  readonly platform: PlatformClient | null;
  /** Generated answers (--ai-url): null when no model is configured. */
  readonly generator: GeneratedAnswers | null;
  /** The callback's door and answering. */
  readonly callback: WechatHandler;
  /** The followers' last turns (handed to the account that replaces this one on a reload). */
  readonly conversations: Conversations;
  /** What health shows of the account's shared state in a cluster; null for a single instance. */
  clusterStatus(): Record<string, unknown> | null;
  /** Asks the platform for the first token, so health knows the link and other instances find one ready. */
  start(): void;
  /**
   * Deliveries held for a model are answered now with the retrieval reply (a stopping server), the
   * calls in flight given up; resolves once their messages and calls are logged, before the store closes.
   */
  release(): Promise<void>;
  /** Stops the token's renewal; the store is the server's to close. */
  close(): void;
}

export interface AccountDeps {
  clock: Clock;
  log: (msg: string) => void;
  /** What goes wrong as designed (a model's answer refused, a cap reached): logged at "warn" (default: log). */
  warn?: (msg: string) => void;
  cluster: ClusterMember | null;
  /** Replaces the reply logic (tests inject a slow one to exercise the deadline). */
  responder?: Pick<Responder, "respond">;
  /** Replaces the platform client (tests point it at a fake platform). */
  platform?: PlatformClient | null;
  /** The regex thread the process's accounts share; without it, the account starts its own. */
  regexThread?: RegexThread;
  /**
   * The account this one replaces (its settings changed by a reload, its store the same): its retry
   * answers, seen signatures and followers' turns carry over, so a message in flight is answered once.
   */
  predecessor?: Account;
}

/**
 * `store.cluster`: the account's own part of a cluster's database (its copy's state and lag), when it
 * has one of its own — health shows it for the account rather than the process's first account's.
 */
export async function assembleAccount(store: { read: ReadModel; write: Writer; cluster?: ClusterPart | null }, settings: AccountSettings, deps: AccountDeps): Promise<Account> {
  const { clock, log, cluster } = deps;
  const { read, write } = store;
  const { regex, conversations, responder } = answering(read, { clock, log, cluster, forModel: Boolean(settings.ai),
    ...(deps.regexThread ? { regexThread: deps.regexThread } : {}),
    ...(deps.predecessor ? { conversations: deps.predecessor.conversations } : {}),
  });
  const platform = deps.platform !== undefined ? deps.platform : platformClient(settings.platform, { clock, log, cluster });
  const shared = cluster ? new SharedAnswers(cluster.link, cluster.instance, SHARED_ANSWER_DEFAULTS, cluster.keys) : null;
  const generator = settings.ai ? await aiAnswers(settings.ai, { write, clock, log, warn: deps.warn ?? log, shared, platform, keys: cluster?.keys ?? null }) : null;
  // An injected reply logic answers followers; `replyd ask --after` reads the account's own in a conversation aside.
  const injected = deps.responder;
  const answers: Pick<Responder, "respond" | "aside"> = injected ? { respond: (m, inConversation) => injected.respond(m, inConversation), aside: () => responder.aside() } : responder;
  const callback = new WechatHandler({ ...WECHAT_DEFAULTS, ...settings.callback }, write.log, answers, clock, log, shared, generator, deps.predecessor?.callback ?? null);
  const sharedTurns = conversations instanceof SharedConversations ? conversations : null;
  return {
    name: settings.name,
    path: settings.path,
    read,
    write,
    databasePart: store.cluster ?? null,
    mediaDir: read.mediaDir,
    regex,
    rules: responder,
    responder: answers,
    platform,
    generator,
    callback,
    conversations,
    clusterStatus: () =>
      cluster
        ? {
            dedupe: callback.shared?.up ? "cluster" : "this instance only (Redis is away)",
            answered_alone: callback.answeredAlone,
            answers: callback.shared?.counts,
            // Followers' turns read or kept in this instance's memory alone because Redis was away.
            conversations_alone: sharedTurns?.alone ?? 0,
            ...(store.cluster ? { postgres: store.cluster.state(), cache_lag: store.cluster.cacheLag() } : {}),
          }
        : null,
    start: () => void platform?.token().catch(() => {}),
    release: async () => generator?.stop(),
    close: () => platform?.stop(),
  };
}
