import { ReplydError } from "../base/errors.ts";
import { PlatformError, type TokenKeeper } from "../wechat/platform/token.ts";
import type { AppContext } from "./context.ts";

/** The platform API, or a clear refusal when replyd serve was started without --wx-secret. */
export function platformOf(ctx: AppContext, hint = ""): TokenKeeper {
  if (!ctx.platform) throw new ReplydError("platform_not_configured", `the platform API is not configured: start replyd serve with --wx-secret and --wx-appid${hint}`);
  return ctx.platform;
}

/**
 * Runs one platform call; its refusals become one-line errors with the platform's code (and what
 * to do), never a stack trace. `what` says what was being done, `after` what it means for the data.
 */
export async function onPlatform<T>(what: string, call: () => Promise<T>, after = ""): Promise<T> {
  try {
    return await call();
  } catch (e) {
    if (e instanceof PlatformError) throw new ReplydError("platform_refused", `${what}: ${e.message}${after}`, { errcode: e.errcode });
    if (e instanceof ReplydError) throw e;
    throw new ReplydError("platform_unreachable", `${what}: ${(e as Error).message}${after}`);
  }
}
