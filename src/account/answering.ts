import type { Clock } from "../base/clock.ts";
import type { ReadModel } from "../store/read-model.ts";
import { LocalConversations, SharedConversations, type Conversations } from "../wechat/answering/conversation.ts";
import { RegexMatcher } from "../wechat/answering/regex.ts";
import type { RegexThread } from "../wechat/answering/regex-thread.ts";
import { Responder } from "../wechat/answering/responder.ts";
import type { ClusterMember } from "./cluster-member.ts";

/**
 * How the account's followers are answered: its rules' regexes (a worker with a deadline: its own,
 * or `regexThread`, shared by the accounts of a process), the
 * followers' last turns (in Redis for a cluster, this instance's memory beside it), and the reply
 * logic over the account's read model.
 */
export function answering(read: ReadModel, deps: { clock: Clock; log: (msg: string) => void; cluster: ClusterMember | null; forModel: boolean; regexThread?: RegexThread; conversations?: Conversations }) {
  const { clock, log, cluster } = deps;
  const now = () => clock.now();
  const regex = new RegexMatcher(100, log, now, deps.regexThread);
  // A reloaded account keeps its followers' last turns: a follow-up after the reload still reads them.
  const turns = new LocalConversations(now);
  const conversations: Conversations = deps.conversations ?? (cluster ? new SharedConversations(cluster.link, turns, now, cluster.keys) : turns);
  const responder = new Responder(read, regex, { forModel: deps.forModel, conversations, now, log });
  return { regex, conversations, responder };
}
