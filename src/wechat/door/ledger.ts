/**
 * In plaintext mode the platform signs only token, timestamp and nonce: the body is not signed, and
 * query strings end up in proxy access logs. The ledger makes one signature carry one message: the
 * first message (sender + MsgId, or the event's key) seen with a timestamp + nonce is remembered,
 * a resend of that same message passes (the platform's retries), any other message under the same
 * signature is refused.
 *
 * Entries are kept while their timestamp can pass the callback's clock check (±skew), in typed
 * arrays (no garbage-collector cost), at most `capacity` of them. When the ledger is full before its
 * oldest entry has aged out, that entry leaves and `floor` rises to its timestamp: a signature that
 * old or older is refused from then on, since the ledger could no longer tell what it carried. At
 * 512k entries that happens only above ~1,700 messages a second sustained for the whole 5-minute
 * skew window; the accepted age then shrinks to what the ledger holds (the platform's retries come
 * within ~15 s, which it covers up to ~35,000 messages a second).
 *
 * Hashes are keyed with a random seed per process (xxHash32 twice, 64 bits): a stranger cannot craft
 * a second message that the ledger mistakes for the first.
 */

import { RingIndex } from "./ringindex.ts";

const seed = () => crypto.getRandomValues(new Uint32Array(1))[0] as number;

export class SignatureLedger {
  private readonly index: RingIndex;
  private readonly keyCheck: Uint32Array;
  private readonly messageLow: Uint32Array;
  private readonly messageHigh: Uint32Array;
  /** Each entry's signed timestamp, in seconds. */
  private readonly timestamps: Float64Array;
  private readonly seeds = [seed(), seed(), seed(), seed()] as const;
  /** Signatures with a timestamp at or below this (seconds) are refused: their entries had to leave. */
  floor = -Infinity;
  private lookupCheck = 0;

  constructor(
    private readonly skewMs: number,
    readonly capacity = 512 * 1024,
  ) {
    this.index = new RingIndex(capacity);
    this.keyCheck = new Uint32Array(capacity);
    this.messageLow = new Uint32Array(capacity);
    this.messageHigh = new Uint32Array(capacity);
    this.timestamps = new Float64Array(capacity);
  }

  /**
   * Records that `timestamp` + `nonce` carried `message`; false when it already carried another
   * message, or is too old for the ledger to know.
   */
  admit(timestamp: string, nonce: string, message: string, nowMs: number): boolean {
    const index = this.index;
    const oldest = nowMs / 1000 - this.skewMs / 1000;
    while (index.count > 0 && (this.timestamps[index.head] as number) < oldest) index.dropOldest();
    const ts = Number(timestamp);
    const signature = `${timestamp}:${nonce}`;
    const [s0, s1, s2, s3] = this.seeds;
    const hash = Bun.hash.xxHash32(signature, s0);
    this.lookupCheck = Bun.hash.xxHash32(signature, s1);
    const low = Bun.hash.xxHash32(message, s2);
    const high = Bun.hash.xxHash32(message, s3);
    const known = index.find(hash, this.sameSignature);
    if (known >= 0) return this.messageLow[known] === low && this.messageHigh[known] === high;
    if (ts <= this.floor) return false;
    if (index.count === index.capacity) {
      this.floor = Math.max(this.floor, this.timestamps[index.head] as number);
      index.dropOldest();
      if (ts <= this.floor) return false;
    }
    const e = index.add(hash);
    this.keyCheck[e] = this.lookupCheck;
    this.messageLow[e] = low;
    this.messageHigh[e] = high;
    this.timestamps[e] = ts;
    return true;
  }

  get size(): number {
    return this.index.count;
  }

  private readonly sameSignature = (e: number): boolean => this.keyCheck[e] === this.lookupCheck;
}
