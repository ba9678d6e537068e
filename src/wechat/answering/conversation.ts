/**
 * Each follower's last turns (docs/answers.md "Follow-ups"): what they asked, when, and what they
 * were offered, so that their next message can be read with them (reading.ts). Bounded: at most
 * CONVERSATION.turns turns per follower, none older than CONVERSATION.windowMs, each within
 * CONVERSATION.turnBytes as stored (its texts cut to fit), for at most CONVERSATION.followers
 * followers in this instance's memory (the one heard from longest ago leaves first).
 *
 * A follower's turns are kept as one JSON string, in memory and, in a cluster, in Redis under a key
 * that expires with the window (SharedConversations): the next message may reach another
 * instance. Redis away: this instance's own memory, as the retry answers do (shared.ts); what each
 * side holds is merged by time when both answer.
 */
import { CONTEXT } from "../../ranking/question.ts";
import { viaRedis } from "../../cluster/fallback.ts";
import { DEFAULT_KEYS, type Keyspace } from "../../cluster/keyspace.ts";
import type { RedisLink } from "../../store/redis/link.ts";
import { utf8Prefix } from "../../base/utf8.ts";
import { afterMarks, codedMarkOf, newerMarks, parseMarks, type Coded, type Marks } from "./sent-apart.ts";
import type { Turn } from "./turn.ts";

export type { Turn } from "./turn.ts";

export const CONVERSATION = {
  /** A follow-up is read with the question before it for this long. */
  windowMs: 10 * 60_000,
  /** Turns held per follower: the question before, and the one it followed. */
  turns: 2,
  /** Followers held in this instance's memory. */
  followers: 10_000,
  /** A turn as stored (JSON), at most: its texts are cut to fit. */
  turnBytes: 2048,
  /**
   * Articles a turn remembers as offered, and shown: twenty of a tag's list, to be picked by place
   * (第十二个; eight had been kept, and 第9个 of a list of twelve got the not_found text — a ski
   * resort's walkthrough). A longer list's later entries are picked by the codes it shows them by.
   */
  offered: CONTEXT.excluded,
  shown: 20,
  /** A follower id longer than this (the platform's are 28 characters) is not followed. */
  openidChars: 64,
};

export interface Conversations {
  /** `openid`'s turns within the window, newest first, without message `key`'s own (a redelivery's). */
  recent(openid: string, key: string): Promise<Turn[]>;
  /** `turn` as the newest, before those recent() gave. */
  add(openid: string, turn: Turn, before: readonly Turn[]): Promise<void>;
  /**
   * The follower was answered since by a code, help or a rule: the list their newest turn
   * showed is no longer the last thing they saw, so a number they send next is no pick from it
   * (responder.ts). Their turns stay, to read a follow-up with. `code`: what a code sent, which is
   * their newest turn now — or, when their list showed it, that list's entry picked: the follower
   * read it from there, and "第二个" next picks from it too (a walkthrough's parent sent "11" from a
   * list, then 第二个, and got the fallback). sent-apart.ts.
   */
  unlist(openid: string, code?: Coded): Promise<void>;
}

/**
 * When a turn kept now stands: after the newest of `turns`, whatever the clock says. Turns are read
 * newest first, merged from every instance by time; one kept in the same millisecond as the turn it
 * follows (another instance, a fast loopback) had been read as the older, and its picks lost.
 */
export const turnTime = (turns: readonly Turn[], now: number): number => Math.max(now, (turns[0]?.at ?? -Infinity) + 1);

/** A message's dedupe key as a turn holds it: short whatever the key's length, the same at every instance. */
export const turnKey = (dedupeKey: string) => Bun.hash(dedupeKey).toString(36);

const bytes = (s: string) => Buffer.byteLength(s);

/** `t` within the bounds: its lists cut, then its texts, the longer first, until it fits turnBytes. */
export function bounded(t: Turn): Turn {
  const texts = [t.text, ...t.earlier.slice(0, CONVERSATION.turns)];
  const out = () => ({ ...t, key: t.key.slice(0, 16), text: texts[0] as string, earlier: texts.slice(1), offered: t.offered.slice(-CONVERSATION.offered), shown: t.shown.slice(0, CONVERSATION.shown), ...(t.picked ? { picked: t.picked.slice(-CONVERSATION.shown) } : {}) });
  let turn = out();
  while (bytes(JSON.stringify(turn)) > CONVERSATION.turnBytes) {
    let longest = 0;
    texts.forEach((x, i) => bytes(x) > bytes(texts[longest] as string) && (longest = i));
    const cut = texts[longest] as string;
    if (!cut) break;
    texts[longest] = utf8Prefix(cut, Math.floor(bytes(cut) * 0.8));
    turn = out();
  }
  return turn;
}

const isTurn = (x: unknown): x is Turn => {
  const t = x as Turn;
  const ids = (v: unknown) => Array.isArray(v) && v.every((i) => typeof i === "string");
  return typeof t === "object" && t !== null && typeof t.key === "string" && typeof t.at === "number" && typeof t.text === "string" && ids(t.earlier) && ids(t.offered) && ids(t.shown) && (t.picked === undefined || ids(t.picked)) && (t.coded === undefined || t.coded === true) && (t.read === undefined || typeof t.read === "string");
};

/** Turns as stored; anything else (another version's, a damaged value) reads as none. */
export function parseTurns(json: string | null | undefined): Turn[] {
  if (!json) return [];
  try {
    const v = JSON.parse(json) as unknown;
    return Array.isArray(v) ? v.filter(isTurn) : [];
  } catch {
    return [];
  }
}

/** Newest first, each message once, those within the window and not `key`'s, at most CONVERSATION.turns. */
function current(turns: readonly Turn[], key: string, now: number): Turn[] {
  const seen = new Set<string>([key]);
  return [...turns]
    .filter((t) => t.at > now - CONVERSATION.windowMs && t.at <= now + CONVERSATION.windowMs)
    .sort((a, b) => b.at - a.at)
    .filter((t) => !seen.has(t.key) && seen.add(t.key))
    .slice(0, CONVERSATION.turns);
}

/** This instance's memory. */
export class LocalConversations implements Conversations {
  /**
   * openid → its turns as stored, and the marks of the last code and the last help or rule
   * answered since (sent-apart.ts), applied when the turns are read: a code's reply, the commonest,
   * costs a small write, not a parse and a write of the turns. The follower heard from longest ago first (Map order).
   */
  private readonly held = new Map<string, { turns: string | null; marks: Marks }>();

  constructor(private readonly now: () => number = Date.now) {}

  get size(): number {
    return this.held.size;
  }

  async recent(openid: string, key: string): Promise<Turn[]> {
    const { turns, marks } = this.raw(openid);
    const now = this.now();
    // All past the window: the follower leaves now rather than when the count needs room.
    const last = Math.max(...turns.map((t) => t.at), marks.coded?.at ?? 0, marks.unlisted ?? 0);
    if (last <= now - CONVERSATION.windowMs) this.held.delete(openid);
    return marked(turns, marks, key, now);
  }

  /** `openid`'s turns as stored, every one, and the marks beside them, not applied. */
  raw(openid: string): { turns: Turn[]; marks: Marks } {
    const held = this.held.get(openid);
    return held === undefined ? { turns: [], marks: {} } : { turns: parseTurns(held.turns), marks: held.marks };
  }

  /** Keeps the turns (`before` as recent() read them: the marks applied); what is kept, as stored (null: this follower is not followed). */
  keep(openid: string, turn: Turn, before: readonly Turn[]): string | null {
    if (openid.length > CONVERSATION.openidChars) return null;
    const json = JSON.stringify([bounded(turn), ...current(before, turn.key, this.now())].slice(0, CONVERSATION.turns));
    this.hold(openid, { turns: json, marks: {} });
    return json;
  }

  async add(openid: string, turn: Turn, before: readonly Turn[]): Promise<void> {
    this.keep(openid, turn, before);
  }

  async unlist(openid: string, code?: Coded): Promise<void> {
    if (openid.length > CONVERSATION.openidChars) return;
    const held = this.held.get(openid);
    // Nobody's turns, and no code to read a follow-up with: nothing to keep.
    if (held === undefined && !code) return;
    const at = this.now();
    this.hold(openid, { turns: held?.turns ?? null, marks: code ? { ...held?.marks, coded: { at, code } } : { ...held?.marks, unlisted: at } });
  }

  /** `openid`'s as the newest heard from, the one heard from longest ago leaving past CONVERSATION.followers. */
  private hold(openid: string, value: { turns: string | null; marks: Marks }): void {
    this.held.delete(openid);
    this.held.set(openid, value);
    for (const oldest of this.held.keys()) {
      if (this.held.size <= CONVERSATION.followers) break;
      this.held.delete(oldest);
    }
  }
}

/** `turns` (read for message `key`) after `marks`: within the window, newest first, at most CONVERSATION.turns. */
const marked = (turns: Turn[], marks: Marks, key: string, now: number): Turn[] => current(afterMarks(current(turns, key, now), marks), key, now);

/** A cluster's: in Redis, read and written by every instance, with this instance's memory beside it for when Redis is away. */
export class SharedConversations implements Conversations {
  /** Reads and writes that found Redis away and used this instance's memory alone. */
  alone = 0;

  constructor(
    private readonly link: RedisLink,
    readonly local: LocalConversations,
    private readonly now: () => number = Date.now,
    private readonly keys: Keyspace = DEFAULT_KEYS,
  ) {}

  async recent(openid: string, key: string): Promise<Turn[]> {
    const mine = this.local.raw(openid);
    if (openid.length > CONVERSATION.openidChars) return this.local.recent(openid, key);
    const [theirs, marks] = await viaRedis(
      async () => {
        // Three keys, three commands (a Redis Cluster may keep them apart), sent together.
        const [json, unlisted, coded] = await Promise.all([this.keys.conversation(openid), this.keys.unlisted(openid), this.keys.coded(openid)].map((k) => this.link.send<string | null>("GET", [k])));
        return [parseTurns(json), parseMarks(unlisted, coded)] as [Turn[], Marks];
      },
      { local: (): [Turn[], Marks] => (this.alone++, [[], {}]) },
    );
    // A code, help or a rule answered since the newest turn (on any instance; this one's memory
    // knows what it answered when Redis was away): sent-apart.ts.
    return marked([...mine.turns, ...theirs], newerMarks(mine.marks, marks), key, this.now());
  }

  async add(openid: string, turn: Turn, before: readonly Turn[]): Promise<void> {
    const json = this.local.keep(openid, turn, before);
    if (json === null) return;
    // Kept in this instance's memory already (keep()): Redis away, that is all.
    await viaRedis(() => this.link.send("SET", [this.keys.conversation(openid), json, "PX", String(CONVERSATION.windowMs)]), { local: () => void this.alone++ });
  }

  /**
   * When, not what: one SET of the time, which recent() holds against the newest turn. Changing the
   * turns in Redis would be a read and a write, and a turn another instance kept between them lost.
   */
  async unlist(openid: string, code?: Coded): Promise<void> {
    // This instance's memory marks it too: Redis away later, what it answered still counts.
    await this.local.unlist(openid, code);
    if (openid.length > CONVERSATION.openidChars) return;
    const [key, value] = code ? [this.keys.coded(openid), codedMarkOf(this.now(), code)] : [this.keys.unlisted(openid), String(this.now())];
    await viaRedis(() => this.link.send("SET", [key, value, "PX", String(CONVERSATION.windowMs)]), { local: () => void this.alone++ });
  }
}
