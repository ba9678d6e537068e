/**
 * Retry answers shared by the instances of a cluster (issue 15). The platform resends a message it
 * got no answer to, and behind a load balancer the resend may land on another instance: the first
 * answer is kept once, cluster-wide, and every arrival anywhere gets it byte for byte. Every
 * instance that answers the message logs it (the one whose answer was kept may have been killed
 * before its log batch was written); the log's unique msg_key keeps it once.
 *
 * Two paths. Most answers are decided at once: rendered here, then offered (`offer`): one script,
 * batched with every offer of the same event-loop turn, binds the callback's signature (timestamp,
 * nonce) to the message — as the instance's own ledger does, so a captured URL cannot carry another
 * message at another instance — and keeps this answer unless one is there already. An answer that
 * waits on a regex rule or a search (`answer`) claims the message first, so that a resend elsewhere
 * waits for it instead of running the work again. The claim is short (claimMs) and renewed while
 * the answer is computed: an instance killed mid-answer gives the message up within claimMs, and a
 * resend elsewhere computes it (the message log's unique msg_key keeps it logged once).
 *
 * Redis away: RedisDown, and the handler answers from the instance's own memory (per-instance
 * dedupe), which health reports.
 */
import { inBackground, REFUSE, viaRedis } from "../../cluster/fallback.ts";
import { DEFAULT_KEYS, type Keyspace } from "../../cluster/keyspace.ts";
import type { RedisLink } from "../../store/redis/link.ts";
import { WxError } from "./crypto.ts";
import { SUCCESS } from "./message.ts";

const CLAIM = `
local s = redis.call('GET', KEYS[2])
if s and s ~= ARGV[1] then return {'reused'} end
if not s then redis.call('SET', KEYS[2], ARGV[1], 'PX', ARGV[2]) end
local a = redis.call('GET', KEYS[1])
if a then return {'have', a} end
redis.call('SET', KEYS[1], ARGV[3], 'PX', ARGV[4])
return {'mine'}`;

/**
 * Answers offered in one batch (KEYS: answer and signature key per message; ARGV: the two TTLs, then
 * message key and answer per message). Per message: 'R' when its signature carried another message,
 * 'K' when this answer was kept, or the value already there (an answer "A…", or a claim "P…").
 */
const OFFER = `
local out = {}
for i = 1, #KEYS / 2 do
  local ak, sk, mk = KEYS[2 * i - 1], KEYS[2 * i], ARGV[2 * i + 1]
  local s = redis.call('GET', sk)
  if s and s ~= mk then
    out[i] = 'R'
  else
    if not s then redis.call('SET', sk, mk, 'PX', ARGV[1]) end
    local a = redis.call('GET', ak)
    if a then out[i] = a else
      redis.call('SET', ak, 'A' .. ARGV[2 * i + 2], 'PX', ARGV[2])
      out[i] = 'K'
    end
  end
end
return out`;

/** Messages offered in one batch at most (the script's arguments stay small). */
const MAX_BATCH = 256;

interface Offer {
  answerKey: string;
  signatureKey: string;
  key: string;
  out: string;
  resolve: (v: string) => void;
  reject: (e: unknown) => void;
}

const RENEW = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end return 0`;

/**
 * The answer computed under a claim, kept unless the claim turned into something else meanwhile: a
 * generation (generation-book.ts), or another instance's answer after the claim lapsed.
 */
const SETTLE = `local v = redis.call('GET', KEYS[1]) if not v or v == ARGV[1] then redis.call('SET', KEYS[1], 'A' .. ARGV[2], 'PX', ARGV[3]) end return 0`;

/**
 * What answer(), offer() and wait() give when a model is writing the message's answer: the arrival
 * is one of its deliveries, handled by the generator (generated-answers.ts). A symbol, not a
 * string: the type makes every caller tell it from a rendered reply, and no reply can equal it.
 */
export const GENERATING: unique symbol = Symbol("generating");
export type Shared = string | typeof GENERATING;

export interface SharedAnswerOptions {
  /** How long a settled answer is kept (the platform resends within about 15 s). */
  ttlMs: number;
  /** How long a claim lasts unless renewed: the longest a dead instance holds a message. */
  claimMs: number;
  /** How often an arrival that found the message claimed looks for its answer. */
  pollMs: number;
  /** How long a signature stays bound to its message (the callback's timestamp window). */
  signatureMs: number;
}

export const SHARED_ANSWER_DEFAULTS: SharedAnswerOptions = { ttlMs: 30_000, claimMs: 1500, pollMs: 20, signatureMs: 5 * 60_000 };

export class SharedAnswers {
  /** This instance's claim on a message it computes ("P<instance>"). */
  readonly claimValue: string;
  /** Answers this instance took from another one's computation (health, tests). */
  counts = { computed: 0, shared: 0, waited: 0, takenOver: 0, offers: 0, offerBatches: 0 };

  constructor(
    readonly link: RedisLink,
    instance: string,
    private readonly opts: SharedAnswerOptions = SHARED_ANSWER_DEFAULTS,
    readonly keys: Keyspace = DEFAULT_KEYS,
  ) {
    this.claimValue = "P" + instance;
  }

  get up(): boolean {
    return this.link.up;
  }

  private batch: Offer[] = [];
  private scheduled = false;

  /**
   * An answer already rendered here (the usual case: no regex rule or search to wait for), offered
   * to the cluster: kept when no instance has one (answered through `keep()`, also when a claim it
   * finds lapses); or the answer another instance kept. Offers made in one turn of the event loop go to Redis as one
   * script call: under load, one round trip serves many messages.
   */
  async offer(key: string, timestamp: string, nonce: string, deadlineAt: number, out: string, keep: () => string): Promise<Shared> {
    const answerKey = this.keys.answer(key);
    const held = await new Promise<string>((resolve, reject) => {
      this.batch.push({ answerKey, signatureKey: this.keys.signature(timestamp, nonce), key, out, resolve, reject });
      if (this.batch.length >= MAX_BATCH) this.flush();
      else if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    });
    if (held === "K") {
      this.counts.computed++;
      return keep();
    }
    if (held === "R") throw new WxError("signature_reused", "this signature carried another message");
    if (held.startsWith("A")) {
      this.counts.shared++;
      return held.slice(1);
    }
    // Claimed by an instance still computing (a regex rule or search): its answer, or ours if it dies.
    return this.wait(answerKey, deadlineAt, keep);
  }

  private flush(): void {
    this.scheduled = false;
    const batch = this.batch;
    this.batch = [];
    if (!batch.length) return;
    this.counts.offers += batch.length;
    this.counts.offerBatches++;
    const keys: string[] = [];
    const args = [String(this.opts.signatureMs), String(this.opts.ttlMs)];
    for (const o of batch) {
      keys.push(o.answerKey, o.signatureKey);
      args.push(o.key, o.out);
    }
    // Redis away: every offer of the batch rejects with RedisDown, and the handler answers alone.
    viaRedis(() => this.link.eval<string[]>(OFFER, keys, args), REFUSE).then(
      (got) => batch.forEach((o, i) => o.resolve(String(got[i]))),
      (e) => batch.forEach((o) => o.reject(e)),
    );
  }

  /**
   * The first answer to message `key`, computing it here when no instance has: `compute` logs the
   * message and renders its reply. Throws WxError (401) for a signature that carried another
   * message, RedisDown when Redis is away before anything was claimed.
   */
  async answer(key: string, timestamp: string, nonce: string, deadlineAt: number, compute: () => string | Promise<string>): Promise<Shared> {
    const answerKey = this.keys.answer(key);
    const claim = [key, String(this.opts.signatureMs), this.claimValue, String(this.opts.claimMs)];
    const got = await viaRedis(() => this.link.eval<string[]>(CLAIM, [answerKey, this.keys.signature(timestamp, nonce)], claim), REFUSE);
    if (got[0] === "reused") throw new WxError("signature_reused", "this signature carried another message");
    if (got[0] === "mine") return this.compute(answerKey, compute);
    const held = got[1] as string;
    if (held.startsWith("A")) {
      this.counts.shared++;
      return held.slice(1);
    }
    if (held === "G") return GENERATING;
    return this.wait(answerKey, deadlineAt, compute);
  }

  private async compute(answerKey: string, compute: () => string | Promise<string>): Promise<string> {
    this.counts.computed++;
    // Redis away: the claim lapses by itself.
    const renew = setInterval(() => inBackground(() => this.link.eval(RENEW, [answerKey], [this.claimValue, String(this.opts.claimMs)])), this.opts.claimMs / 3);
    let out: string;
    try {
      out = await compute();
    } finally {
      clearInterval(renew);
    }
    // Not awaited: the follower's answer does not wait on Redis. A resend elsewhere meanwhile waits a poll.
    inBackground(() => this.link.eval(SETTLE, [answerKey], [this.claimValue, out, String(this.opts.ttlMs)]));
    return out;
  }

  /** Another instance holds the message: its answer, or the message itself once its claim lapses. */
  private async wait(answerKey: string, deadlineAt: number, compute: () => string | Promise<string>): Promise<Shared> {
    this.counts.waited++;
    while (Date.now() < deadlineAt) {
      await Bun.sleep(this.opts.pollMs);
      const step = await viaRedis<{ held: string | null } | "taken" | "alone">(
        async () => {
          const held = await this.link.send<string | null>("GET", [answerKey]);
          if (held === null && (await this.link.send<string | null>("SET", [answerKey, this.claimValue, "PX", String(this.opts.claimMs), "NX"])) === "OK") return "taken";
          return { held };
        },
        // Redis went away while waiting: the claimant may still answer, but nobody can tell us.
        { local: () => "alone" },
      );
      if (step === "alone") return compute();
      if (step === "taken") {
        this.counts.takenOver++;
        return this.compute(answerKey, compute);
      }
      const held = step.held;
      if (held?.startsWith("A")) {
        this.counts.shared++;
        return held.slice(1);
      }
      if (held === "G") return GENERATING;
    }
    // The claimant is slower than the platform waits: as for a reply not ready in time here.
    return SUCCESS;
  }
}
