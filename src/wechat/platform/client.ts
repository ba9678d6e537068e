/**
 * The platform's API called with the account's token (token-keeper.ts). A call the platform refuses
 * for an invalid token (40001, 40014, 42001: another system forced a refresh, say) is refreshed once
 * and retried once; a refusal that says the link itself is broken shows in health.
 */
import { PlatformError, readJson } from "./response.ts";
import { TokenKeeper } from "./token-keeper.ts";

export { adviceFor, PlatformError } from "./response.ts";

const INVALID_TOKEN = new Set([40001, 40014, 42001]);
/** Refusals that say the link itself is broken (health shows them); others refuse one call on a working link. */
const LINK_ERRORS = new Set([40164, 40125, 40013, 41004, 48001, -1, -2, ...INVALID_TOKEN]);

/** The platform's API: every call goes out with the token the keeper holds. */
export class PlatformClient extends TokenKeeper {
  /**
   * Calls a platform API with the token: GET without `body`, POST JSON with it. An invalid-token
   * refusal is refreshed once (normal mode, then forced if that changed nothing) and retried once.
   */
  async call<T extends object>(path: string, body?: unknown): Promise<T> {
    const attempt = async (token: string) => {
      const url = `${this.api}${path}${path.includes("?") ? "&" : "?"}access_token=${encodeURIComponent(token)}`;
      try {
        const res = await this.fetch(url, {
          method: body === undefined ? "GET" : "POST",
          ...(body === undefined ? {} : { headers: { "content-type": "application/json" }, body: JSON.stringify(body) }),
          signal: AbortSignal.timeout(10_000),
          redirect: "manual",
        });
        return (await readJson(res)) as T & { errcode?: number; errmsg?: string };
      } catch (e) {
        // Never the URL: it carries the token.
        const err = new Error(`the platform could not be reached: ${(e as Error).message}`.replaceAll(token, "…"));
        this.note(err);
        throw err;
      }
    };
    const first = await this.token();
    let answer = await attempt(first.token);
    if (typeof answer.errcode === "number" && INVALID_TOKEN.has(answer.errcode)) {
      let fresh = await this.refresh(false, first.token);
      if (fresh.token === first.token) fresh = await this.refresh(true, first.token);
      answer = await attempt(fresh.token);
    }
    if (typeof answer.errcode === "number" && answer.errcode !== 0) {
      const err = new PlatformError(answer.errcode, String(answer.errmsg ?? ""));
      if (LINK_ERRORS.has(answer.errcode)) this.note(err);
      else this.ok();
      throw err;
    }
    this.ok();
    return answer;
  }
}
