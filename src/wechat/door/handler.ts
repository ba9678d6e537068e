import type { Clock } from "../../base/clock.ts";
import { CODE } from "../../base/errors.ts";
import type { FollowerLog } from "../../store/follower-log.ts";
import { verifyWxSignature, WxCrypto, WxError, wxSignature } from "./crypto.ts";
import { dedupeKey, SUCCESS, toInbound } from "./message.ts";
import type { Responder } from "../answering/responder.ts";
import { SignatureLedger } from "./ledger.ts";
import { queryOf } from "./query.ts";
import { RetryCache } from "./retries.ts";
import type { SharedAnswers } from "./shared-retries.ts";
import { Answering } from "../answering/answering.ts";
import type { GeneratedAnswers } from "../ai/generated-answers.ts";
import { viaRedis } from "../../cluster/fallback.ts";
import { RefusalLog } from "./refusals.ts";
import { cdata, parseXml, XmlError } from "./xml.ts";
import { bodyBytes, tooLarge, utf8 } from "./body.ts";

export interface WechatOptions {
  token?: string;
  aesKey?: string;
  appid?: string;
  /**
   * With an EncodingAESKey: "safe" (default) accepts only encrypted messages; "compatible" accepts
   * plaintext too, which lets anyone holding one captured callback URL post a message (weaker).
   */
  mode: "safe" | "compatible";
  /** The account's original id (gh_…, --wx-id): a message whose ToUserName is any other is refused. */
  id?: string;
  /** Largest accepted body. */
  maxBody: number;
  /** Answer "success" rather than nothing when the reply is not ready by then (the platform waits 5 s). */
  deadlineMs: number;
  /** Accepted |server time − timestamp|. */
  skewMs: number;
}

export const WECHAT_DEFAULTS = { mode: "safe", maxBody: 64 * 1024, deadlineMs: 4500, skewMs: 5 * 60_000 } as const;

// Shared Headers: a Response copies them, which is cheaper than building them from an object each time.
const TEXT = new Headers({ "content-type": "text/plain; charset=utf-8" });
const XML = new Headers({ "content-type": "application/xml; charset=utf-8" });
// The 200 answers' init objects, shared too: Response reads them and keeps nothing of them.
const TEXT_200 = { headers: TEXT };
const XML_200 = { headers: XML };

const plain = (status: number, body = "") => new Response(body, { status, headers: TEXT });
/** The messaging callback (DESIGN §5): URL verification, signed plain and safe-mode messages. */
export class WechatHandler {
  private readonly crypto: WxCrypto | null;
  private readonly retries: RetryCache;
  private readonly ledger: SignatureLedger;
  /** Messages received and not yet answered (a reloaded account is drained before it is closed). */
  private receiving = 0;
  private readonly refusals: RefusalLog;
  private readonly answering: Answering;

  constructor(
    private readonly opts: WechatOptions,
    /** The message log (the store's, or the database's). */
    messages: Pick<FollowerLog, "add">,
    responder: Pick<Responder, "respond">,
    private readonly clock: Clock,
    private readonly log: (msg: string) => void,
    /** The cluster's retry answers (serve --redis); without it, this instance's memory only. */
    readonly shared: SharedAnswers | null = null,
    /** Generated answers (serve --ai-url); null: the retrieval reply is the answer. */
    readonly generator: GeneratedAnswers | null = null,
    /**
     * The handler this one replaces (an account changed by a reload): its retry answers and seen
     * signatures are this one's, so a resend of a message the old one is answering gets that answer,
     * and a replayed request stays refused, rather than being answered a second time.
     */
    predecessor: WechatHandler | null = null,
  ) {
    this.crypto = opts.aesKey ? new WxCrypto(opts.aesKey, opts.appid ?? "") : null;
    this.retries = predecessor?.retries ?? new RetryCache();
    this.ledger = predecessor?.ledger ?? new SignatureLedger(opts.skewMs);
    this.refusals = new RefusalLog(log, () => clock.monotonic());
    this.answering = new Answering({ messages, responder, clock, log, deadlineMs: opts.deadlineMs, seal: (xml) => this.seal(xml), shared, generator });
  }

  /** Messages answered with this instance's own dedupe because the cluster's Redis was away. */
  get answeredAlone(): number {
    return this.answering.answeredAlone;
  }

  private disabled(): Response {
    this.refusals.note("no_token");
    return plain(503, "callback not configured");
  }

  /** A refusal answered, its reason logged (refusals.ts). */
  private refused(e: WxError): Response {
    this.refusals.note(e.code, e.code === CODE.stale_timestamp ? e.message : undefined);
    return plain(e.status, e.status === 413 ? "too large" : "");
  }

  private checkTimestamp(timestamp: string | undefined): void {
    if (!timestamp || !/^\d{1,12}$/.test(timestamp)) throw new WxError("unsigned", "timestamp missing");
    const off = this.clock.now() - Number(timestamp) * 1000;
    if (Math.abs(off) > this.opts.skewMs)
      throw new WxError("stale_timestamp", `the request's timestamp is ${Math.round(Math.abs(off) / 1000)} s ${off > 0 ? "behind" : "ahead of"} this server's clock (${this.opts.skewMs / 1000} s allowed)`);
  }

  /** A wx-token is set: without one every request is answered 503 (health says so). */
  get configured(): boolean {
    return Boolean(this.opts.token);
  }

  /**
   * What messages the callback takes: plaintext (no EncodingAESKey), safe (encrypted only) or
   * compatible (both) — health says it: an operator switching the console to safe mode could not
   * tell from a laptop which the server was in (a grocery's walkthrough).
   */
  get encryption(): "plaintext" | "safe" | "compatible" {
    return this.crypto ? this.opts.mode : "plaintext";
  }

  /** GET: the platform's server URL verification. */
  verify(request: Request): Response {
    if (!this.opts.token) return this.disabled();
    const q = queryOf(request.url);
    const timestamp = q.timestamp;
    const nonce = q.nonce ?? "";
    const echostr = q.echostr;
    if (!timestamp || !echostr) return this.refused(new WxError("unsigned", "a URL verification without timestamp or echostr"));
    if (!verifyWxSignature(wxSignature(this.opts.token, timestamp, nonce), q.signature)) return this.refused(new WxError("bad_signature", "in the URL verification"));
    try {
      this.checkTimestamp(timestamp);
    } catch (e) {
      return this.refused(e as WxError);
    }
    return plain(200, echostr);
  }

  /**
   * POST: a follower's message or event. Bad input gets 4xx; a failure of ours gets "success", never
   * an error page. The checks run cheapest first, and nothing is decrypted or parsed before the
   * query's signature (token, timestamp, nonce) has passed: the platform sends it in every mode.
   */
  receive(request: Request): Promise<Response> {
    this.receiving++;
    const answered = this.receiveCounted(request);
    void answered.finally(() => this.receiving--);
    return answered;
  }

  /**
   * Settles once no message is being received or answered here (a deadline's "success" included:
   * its answer is still computed and logged). A reload drains the account it replaces or removes
   * before closing it, so a message in flight is answered and logged exactly once.
   */
  async drained(): Promise<void> {
    while (this.receiving > 0 || this.retries.computing > 0) await Bun.sleep(10);
  }

  private async receiveCounted(request: Request): Promise<Response> {
    const token = this.opts.token;
    if (!token) return this.disabled();
    const arrived = this.clock.monotonic();
    try {
      const q = queryOf(request.url);
      const timestamp = q.timestamp ?? "";
      const nonce = q.nonce ?? "";
      if (!verifyWxSignature(wxSignature(token, timestamp, nonce), q.signature)) throw new WxError("bad_signature", "bad signature");
      this.checkTimestamp(timestamp);
      const encrypted = q.encrypt_type === "aes";
      if (encrypted && !this.crypto) {
        this.refusals.note("no_aeskey");
        return plain(503, "encryption not configured");
      }
      // With a key, a plaintext body is signed by nothing: only compatible mode takes one.
      if (!encrypted && this.crypto && this.opts.mode !== "compatible") throw new WxError("plaintext_refused", "safe mode takes encrypted messages only");
      const bytes = await bodyBytes(request, this.opts.maxBody);
      // A declared length is checked before reading; the bytes are checked too (a lying header).
      if (bytes.length > this.opts.maxBody) throw tooLarge();
      const body = utf8(bytes);

      let xml: string;
      if (encrypted) {
        const outer = parseXml(body);
        const enc = typeof outer.Encrypt === "string" ? outer.Encrypt.trim() : "";
        if (!enc) throw new XmlError("no Encrypt element");
        if (!verifyWxSignature(wxSignature(token, timestamp, nonce, enc), q.msg_signature))
          throw new WxError("bad_signature", "bad msg_signature");
        xml = (this.crypto as WxCrypto).decrypt(enc);
      } else xml = body;

      const message = toInbound(parseXml(xml));
      message.arrived = arrived;
      // The platform names the sender in the query too; a body that says otherwise was not its.
      if (q.openid !== undefined && q.openid !== message.from) throw new WxError("wrong_sender", "openid does not match FromUserName");
      // Another account's message (its callback URL given to the wrong account): never answered from this one's articles.
      if (this.opts.id !== undefined && message.to !== this.opts.id) throw new WxError("wrong_account", "ToUserName is not this account's --wx-id");
      const key = dedupeKey(message);
      // What one message is bound to. Where a plaintext body is taken (no key, compatible mode) the
      // query's signature covers no body: (timestamp, nonce) carries one message, and a captured URL
      // with another is refused. In safe mode the msg_signature covers the body already, so the
      // binding is to it too: two genuine messages whose random nonces meet within one second are
      // both answered (about once in hours at 1,000 messages a second).
      const bound = encrypted && this.opts.mode !== "compatible" ? `${nonce}.${q.msg_signature}` : nonce;
      // In a cluster the signature is bound in Redis with the claim (shared.ts), for every instance:
      // bound here first, a captured URL with another message would make this instance refuse the
      // platform's genuine resend. This instance's own ledger serves while Redis is away.
      if (!this.shared?.up && !this.ledger.admit(timestamp, bound, key, this.clock.now()))
        throw new WxError("signature_reused", "this signature carried another message");
      // A delivery of a message whose answer a model is writing: answered as the window allows (generated-answers.ts).
      const generator = this.generator;
      if (generator?.knows(key)) {
        const joined = await viaRedis(() => generator.join(key, Date.now(), request.signal), { local: () => null });
        if (joined) return new Response(joined.out, joined.out === SUCCESS ? TEXT_200 : XML_200);
      }
      const a = this.answering;
      const answer = this.retries.get(key, this.clock.now(), () =>
        this.shared ? a.shared(message, key, encrypted, timestamp, bound, request.signal) : a.answer(message, key, encrypted, undefined, request.signal),
      );
      const out = typeof answer === "string" ? answer : await answer;
      return new Response(out, out === SUCCESS ? TEXT_200 : XML_200);
    } catch (e) {
      if (e instanceof WxError) return this.refused(e);
      if (e instanceof XmlError) {
        this.refusals.note("bad_xml", e.message);
        return plain(400, "bad xml");
      }
      this.log(`wechat callback failed: ${(e as Error).message}`);
      return plain(200, SUCCESS);
    }
  }

  /** The encrypted reply envelope, signed with a fresh nonce. */
  private seal(xml: string): string {
    const encrypted = (this.crypto as WxCrypto).encrypt(xml);
    const timestamp = String(Math.floor(this.clock.now() / 1000));
    const nonce = Buffer.from(crypto.getRandomValues(new Uint8Array(8))).toString("hex");
    const signature = wxSignature(this.opts.token as string, timestamp, nonce, encrypted);
    return `<xml><Encrypt>${cdata(encrypted)}</Encrypt><MsgSignature>${cdata(signature)}</MsgSignature><TimeStamp>${timestamp}</TimeStamp><Nonce>${cdata(nonce)}</Nonce></xml>`;
  }
}
