/** The platform API's answers: read bounded, its error codes explained to the operator. */

/** What to do about the platform's errors an operator can act on. */
const ADVICE: Record<string, string> = {
  "40164": "add this server's public IP address to the IP whitelist in the platform console",
  "40125": "the AppSecret is wrong: check --wx-secret",
  "40013": "the AppID is wrong: check --wx-appid",
  "41004": "the AppSecret is missing",
  "48001": "the account lacks the permission for this API (verify or upgrade it in the console)",
  "45009": "the daily quota of this API is spent; it resets at midnight (Beijing time)",
  "45011": "calls are too frequent; slow down",
  "-1": "the platform is busy; try again",
  "-2": "the answer is not what the platform documents: check any proxy between this server and --wx-api",
  "45015": "the follower's 48-hour reply window is closed, or they no longer follow the account",
  "45047": "the replies allowed since the follower's last message are spent; they can be answered again after they write",
  "40003": "the platform does not know this openid for this account",
  "43004": "the follower does not follow the account",
  "46003": "the account has no menu made through the API",
};
export const adviceFor = (errcode: number): string | undefined => ADVICE[String(errcode)];

/** The platform's answers are small JSON; anything larger is not one. */
const MAX_PLATFORM_ANSWER = 1 << 20;

/** Reads a platform answer as JSON, bounded; a proxy's error page becomes a clear error. */
export async function readJson(res: Response): Promise<Record<string, unknown>> {
  const declared = Number(res.headers.get("content-length") ?? 0);
  if (declared > MAX_PLATFORM_ANSWER) throw new Error(`the platform's answer is too large (${declared} bytes)`);
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of (res.body ?? new ReadableStream()) as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (size > MAX_PLATFORM_ANSWER) throw new Error("the platform's answer is too large");
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString("utf8");
  try {
    const v = JSON.parse(text) as unknown;
    if (typeof v === "object" && v !== null && !Array.isArray(v)) return v as Record<string, unknown>;
  } catch {}
  throw new Error(`the platform answered HTTP ${res.status} with something that is not its JSON`);
}
export class PlatformError extends Error {
  constructor(
    readonly errcode: number,
    readonly errmsg: string,
  ) {
    const advice = adviceFor(errcode);
    super(`the platform answered ${errcode}: ${errmsg.slice(0, 200)}${advice ? ` — ${advice}` : ""}`);
    this.name = "PlatformError";
  }
}


/** The token's documented lifetime: a longer claim is not believed (and a timer past 2³¹ ms fires at once). */
export const TOKEN_LIFE_MAX_S = 7200;

/** A token the platform gave, its life as replyd takes it, and what was odd about the answer. */
export interface TokenAnswer {
  token: string;
  lifeMs: number;
  odd?: string;
}

/**
 * The stable-token endpoint's answer checked: a token is taken only from an HTTP 200 answer with a
 * non-empty access_token and no error code. Its claimed life is believed up to the documented
 * 7,200 s; a claim that is no positive number (0, negative, missing, text) or above it is taken as
 * 7,200 s and said to be odd, for health.
 */
export function tokenFromAnswer(status: number, body: Record<string, unknown>): TokenAnswer {
  const errcode = body.errcode;
  const errmsg = typeof body.errmsg === "string" ? body.errmsg : "";
  if (errcode !== undefined && errcode !== 0) {
    if (typeof errcode === "number" && Number.isInteger(errcode)) throw new PlatformError(errcode, errmsg || "no token in the answer");
    throw new PlatformError(-2, `the platform's answer had an errcode that is not a number (${JSON.stringify(errcode).slice(0, 40)})${errmsg ? `: ${errmsg}` : ""}`);
  }
  const token = body.access_token;
  if (status !== 200) throw new PlatformError(-2, `the platform answered HTTP ${status}${typeof token === "string" ? " with a token, which is not taken" : ""}`);
  if (typeof token !== "string" || token === "") throw new PlatformError(-2, `the platform's answer holds no token (access_token ${token === "" ? "is empty" : token === undefined ? "is missing" : "is not text"})`);
  if (/[^\x21-\x7e]/.test(token) || token.length > 2048) throw new PlatformError(-2, "the platform's access_token holds characters a token cannot have, or is too long");
  const claimed = body.expires_in;
  if (typeof claimed !== "number" || !Number.isFinite(claimed) || claimed <= 0)
    return { token, lifeMs: TOKEN_LIFE_MAX_S * 1000, odd: `expires_in was ${JSON.stringify(claimed ?? null)?.slice(0, 40)}; taken as ${TOKEN_LIFE_MAX_S} s` };
  if (claimed > TOKEN_LIFE_MAX_S) return { token, lifeMs: TOKEN_LIFE_MAX_S * 1000, odd: `expires_in was ${claimed}, above the documented ${TOKEN_LIFE_MAX_S} s; taken as ${TOKEN_LIFE_MAX_S} s` };
  return { token, lifeMs: claimed * 1000 };
}
