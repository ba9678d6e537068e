import { ReplydError } from "../errors.ts";
import { PlatformError } from "../wechat/token.ts";
import type { SignedRequest } from "./auth.ts";
import type { AppContext } from "./context.ts";
import { Fields } from "./fields.ts";

/**
 * GET /api/cli/token: the account's current access token, for the operator's other systems (the
 * token keeper, DESIGN §8). Keys of scope `token` (which can do nothing else) and `admin` may ask.
 */
export async function getToken(ctx: AppContext, req: SignedRequest) {
  new Fields(req.fields).only([]);
  if (req.key.scope === "read") throw new ReplydError("forbidden", 403, `the key "${req.key.appkey}" is read-only; the access token needs a token or admin key`);
  if (!ctx.platform) throw new ReplydError("platform_not_configured", 503, "the platform API is not configured: start replyd serve with --wx-secret and --wx-appid");
  try {
    const t = await ctx.platform.token();
    return { access_token: t.token, expires_in: t.expiresInS };
  } catch (e) {
    if (e instanceof PlatformError) throw new ReplydError("platform_error", 502, e.message, { errcode: e.errcode });
    throw new ReplydError("platform_unreachable", 502, (e as Error).message);
  }
}
