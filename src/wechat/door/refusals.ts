/**
 * Why the callback refused a request, in the server's log: the operator setting up an account sees
 * "bad signature: is --wx-token the console's token?" instead of a silent 401. One line per reason
 * per interval at most, with how many more were refused meanwhile, so a flood of forged requests
 * costs a line every few seconds, not one each.
 */
const ADVICE: Record<string, string> = {
  bad_signature: "the signature does not match the wx-token (--wx-token, or the account's in the config file): is it the token set in the platform's console (Server configuration)?",
  stale_timestamp: "the timestamp is too far from this server's clock: check the clock (NTP)",
  unsigned: "no timestamp or signature in the query: not the platform's request",
  plaintext_refused: "a plaintext message arrived, and safe mode takes encrypted ones only: set the console to safe mode, or start with --wx-mode compatible",
  wrong_sender: "the query's openid is not the message's sender",
  wrong_account: "the message is to another account (its ToUserName is not this account's wx-id): is this callback URL set in the right account's console?",
  signature_reused: "this signature already carried another message (a captured URL sent again)",
  too_large: "the body is larger than a message can be",
  bad_xml: "the body is not a message the platform sends",
  bad_encoding: "the body is not UTF-8 text",
  bad_encryption: "the message could not be decrypted: is the wx-aeskey (--wx-aeskey, or the account's) the console's EncodingAESKey, and the wx-appid the account's AppID?",
  no_token: "no wx-token is set: start replyd serve with --wx-token (REPLYD_WX_TOKEN), or give the account its wx-token in the config file",
  no_aeskey: "an encrypted message arrived but no EncodingAESKey is set: set wx-aeskey and wx-appid (--wx-aeskey and --wx-appid, or the account's in the config file)",
  bare_path:
    "a callback at the wx-path itself: a server of several accounts answers each at wx-path/NAME (/wechat/shop) — is the console's URL still the one of the server before it took several accounts?",
  no_account: "no account of that name is declared: is the console's URL the account's, and the account in [accounts] (reloaded)?",
};

export class RefusalLog {
  private readonly last = new Map<string, { at: number; since: number }>();

  constructor(
    private readonly log: (message: string) => void,
    private readonly now: () => number,
    private readonly everyMs = 10_000,
  ) {}

  note(code: string, detail?: string): void {
    const now = this.now();
    const seen = this.last.get(code);
    if (seen && now - seen.at < this.everyMs) {
      seen.since++;
      return;
    }
    const more = seen?.since ? ` (${seen.since} more refused for this since the last line)` : "";
    this.last.set(code, { at: now, since: 0 });
    this.log(`wechat callback refused (${code}): ${ADVICE[code] ?? code}${detail ? ` — ${detail}` : ""}${more}`);
  }
}
