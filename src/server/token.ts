import { ReplydError } from "../base/errors.ts";
import { onPlatform, platformOf } from "./platform.ts";
import type { SignedRequest } from "./auth.ts";
import type { AppContext } from "./context.ts";
import { Fields } from "./fields.ts";

/**
 * GET /api/cli/token: the account's current access token, for the operator's other systems (the
 * token keeper, DESIGN §8). Keys of scope `token` (which can do nothing else) and `admin` may ask.
 */
export async function getToken(ctx: AppContext, req: SignedRequest) {
  new Fields(req.fields).only([]);
  if (req.key.scope === "read") throw new ReplydError("forbidden", `the key "${req.key.appkey}" is read-only; the access token needs a token or admin key`);
  const platform = platformOf(ctx);
  const t = await onPlatform("the access token could not be had", () => platform.token());
  return { access_token: t.token, expires_in: t.expiresInS };
}
