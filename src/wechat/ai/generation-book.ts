/**
 * The deliveries of a message whose answer a model is writing (docs/wechat.md §5): the platform
 * delivers a message up to three times, 5 s apart, and takes the answer from whichever delivery
 * it is still waiting on. The book counts the deliveries, remembers when the first arrived and the
 * retrieval reply that goes out if the model is not done in time, and keeps the first answer given
 * (the model's, or the retrieval reply) — once, whichever delivery or instance gives it.
 *
 * One instance keeps it in memory. A cluster keeps it in Redis beside the retry answers
 * (wechat/door/shared-retries.ts), under the same key: "G" while a model writes, then "A<answer>" as for any
 * message; the owner renews a lease while it waits on the model, and a delivery that finds the
 * lease gone (the owner died) gives the retrieval reply.
 */
import { inBackground } from "../../cluster/fallback.ts";
import type { Keyspace } from "../../cluster/keyspace.ts";
import type { RedisLink } from "../../store/redis/link.ts";
import type { SharedAnswers } from "../door/shared-retries.ts";

export interface Opened {
  /** This delivery's number, from 1. */
  n: number;
  /** When the first delivery arrived (epoch ms). */
  firstAt: number;
  /** The retrieval reply, rendered: what goes out when the model is not done in time. */
  fallback: string;
}

/** What a delivery waiting for the answer got: the answer, nothing by its time, or word that the owner is gone. */
export type Waited = { answer: string } | { timedOut: true } | { lapsed: true };

export interface GenerationBook {
  /** Whether the book can be used now (a cluster's: Redis answers). */
  readonly up: boolean;
  /** The first delivery: opens the message's generation, owned here; false when one is open already, or the message is answered. */
  open(key: string, firstAt: number, fallback: string): Promise<boolean>;
  /** A later delivery: counted; null when no generation is open for `key` (or it ended long ago). */
  arrive(key: string): Promise<(Opened & { answer: string | null }) | null>;
  /** Keeps `out` as the answer unless one is kept: the answer kept, and whether it is `out`. */
  keep(key: string, out: string): Promise<{ kept: boolean; answer: string }>;
  /** The kept answer, once there is one, until `untilMs` (epoch) or `signal`. */
  wait(key: string, untilMs: number, signal?: AbortSignal): Promise<Waited>;
  /** The owner is still at work (a cluster's lease); stop() when it is done. */
  hold(key: string): { stop(): void };
  /** Shutting down: every wait ends now, and later ones at once, as if the owner were gone. */
  release(): void;
}

interface LocalEntry extends Opened {
  answer: string | null;
  waiters: Set<() => void>;
  expires: number;
}

/** How long a generation is remembered after it opened: past the platform's last delivery. */
export const BOOK_TTL_MS = 60_000;

export class LocalBook implements GenerationBook {
  readonly up = true;
  private readonly entries = new Map<string, LocalEntry>();
  private released = false;

  constructor(private readonly now: () => number = Date.now) {}

  private sweep(): void {
    const now = this.now();
    for (const [k, e] of this.entries) if (e.expires <= now && !e.waiters.size) this.entries.delete(k);
  }

  async open(key: string, firstAt: number, fallback: string): Promise<boolean> {
    this.sweep();
    if (this.entries.has(key)) return false;
    this.entries.set(key, { n: 1, firstAt, fallback, answer: null, waiters: new Set(), expires: this.now() + BOOK_TTL_MS });
    return true;
  }

  async arrive(key: string): Promise<(Opened & { answer: string | null }) | null> {
    const e = this.entries.get(key);
    if (!e) return null;
    e.n++;
    return { n: e.n, firstAt: e.firstAt, fallback: e.fallback, answer: e.answer };
  }

  async keep(key: string, out: string): Promise<{ kept: boolean; answer: string }> {
    const e = this.entries.get(key);
    if (!e) return { kept: true, answer: out };
    if (e.answer !== null) return { kept: false, answer: e.answer };
    e.answer = out;
    for (const w of e.waiters) w();
    return { kept: true, answer: out };
  }

  release(): void {
    this.released = true;
    for (const e of this.entries.values()) for (const w of e.waiters) w();
  }

  wait(key: string, untilMs: number, signal?: AbortSignal): Promise<Waited> {
    const e = this.entries.get(key);
    if (!e || this.released) return Promise.resolve({ lapsed: true });
    if (e.answer !== null) return Promise.resolve({ answer: e.answer });
    if (signal?.aborted) return Promise.resolve({ timedOut: true });
    return new Promise((resolve) => {
      const done = (w: Waited) => {
        clearTimeout(timer);
        e.waiters.delete(wake);
        signal?.removeEventListener("abort", aborted);
        resolve(w);
      };
      const wake = () => done(e.answer === null ? { lapsed: true } : { answer: e.answer });
      const aborted = () => done({ timedOut: true });
      const timer = setTimeout(aborted, Math.max(0, untilMs - this.now()));
      e.waiters.add(wake);
      signal?.addEventListener("abort", aborted, { once: true });
    });
  }

  hold(): { stop(): void } {
    return { stop() {} };
  }
}

/** The claim a first delivery made (shared.ts CLAIM, "P<instance>") becomes the generation; nothing else does. */
const OPEN = `
local v = redis.call('GET', KEYS[1])
if v and v ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], 'G', 'PX', ARGV[4])
redis.call('DEL', KEYS[2])
redis.call('HSET', KEYS[2], 'n', 1, 'first', ARGV[2], 'fallback', ARGV[3])
redis.call('PEXPIRE', KEYS[2], ARGV[4])
redis.call('SET', KEYS[3], '1', 'PX', ARGV[5])
return 1`;

const ARRIVE = `
local v = redis.call('GET', KEYS[1])
if not v then return false end
local kind = string.sub(v, 1, 1)
if kind ~= 'G' and kind ~= 'A' then return false end
if redis.call('EXISTS', KEYS[2]) == 0 then return false end
local n = redis.call('HINCRBY', KEYS[2], 'n', 1)
local g = redis.call('HMGET', KEYS[2], 'first', 'fallback')
return {n, g[1], g[2], v}`;

const KEEP = `
local v = redis.call('GET', KEYS[1])
if v and string.sub(v, 1, 1) == 'A' then return {0, string.sub(v, 2)} end
redis.call('SET', KEYS[1], 'A' .. ARGV[1], 'PX', ARGV[2])
return {1, ARGV[1]}`;

const POLL = `return {redis.call('GET', KEYS[1]), redis.call('EXISTS', KEYS[2])}`;

export interface SharedBookOptions {
  /** How long a lease lasts unless renewed: the longest a dead owner holds its deliveries. */
  leaseMs: number;
  pollMs: number;
}

export class RedisBook implements GenerationBook {
  private released = false;
  private readonly link: RedisLink;
  /** The retry answers' claim for this instance ("P<instance>") and their keys: a generation lives under the same key. */
  private readonly claimValue: string;
  private readonly names: Keyspace;

  constructor(
    answers: Pick<SharedAnswers, "link" | "claimValue" | "keys">,
    private readonly opts: SharedBookOptions = { leaseMs: 1500, pollMs: 50 },
  ) {
    this.link = answers.link;
    this.claimValue = answers.claimValue;
    this.names = answers.keys;
  }

  get up(): boolean {
    return this.link.up;
  }

  private keys(key: string): [string, string, string] {
    return [this.names.answer(key), this.names.generation(key), this.names.lease(key)];
  }

  async open(key: string, firstAt: number, fallback: string): Promise<boolean> {
    const got = await this.link.eval<number>(OPEN, this.keys(key), [this.claimValue, String(firstAt), fallback, String(BOOK_TTL_MS), String(this.opts.leaseMs)]);
    return Number(got) === 1;
  }

  async arrive(key: string): Promise<(Opened & { answer: string | null }) | null> {
    const [main, gen] = this.keys(key);
    const got = await this.link.eval<[number, string, string, string] | null>(ARRIVE, [main, gen], []);
    if (!got) return null;
    const [n, first, fallback, v] = got;
    return { n: Number(n), firstAt: Number(first), fallback, answer: v.startsWith("A") ? v.slice(1) : null };
  }

  async keep(key: string, out: string): Promise<{ kept: boolean; answer: string }> {
    const [kept, answer] = await this.link.eval<[number, string]>(KEEP, [this.names.answer(key)], [out, String(BOOK_TTL_MS)]);
    return { kept: Number(kept) === 1, answer };
  }

  release(): void {
    this.released = true;
  }

  async wait(key: string, untilMs: number, signal?: AbortSignal): Promise<Waited> {
    const [main, , lease] = this.keys(key);
    for (;;) {
      if (this.released) return { lapsed: true };
      const [v, alive] = await this.link.eval<[string | null, number]>(POLL, [main, lease], []);
      if (v?.startsWith("A")) return { answer: v.slice(1) };
      if (v !== "G" || Number(alive) === 0) return { lapsed: true };
      const left = untilMs - Date.now();
      if (left <= 0 || signal?.aborted) return { timedOut: true };
      await Bun.sleep(Math.min(this.opts.pollMs, left));
    }
  }

  hold(key: string): { stop(): void } {
    const [, , lease] = this.keys(key);
    // Redis away: the lease ends by itself.
    const timer = setInterval(() => inBackground(() => this.link.send("SET", [lease, "1", "PX", String(this.opts.leaseMs)])), this.opts.leaseMs / 3);
    return { stop: () => clearInterval(timer) };
  }
}
