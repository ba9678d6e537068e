import { Elysia } from "elysia";
import { systemClock, type Clock } from "../clock.ts";
import type { KeyRing } from "../store/keys.ts";
import type { Store } from "../store/store.ts";
import { deleteCli, getCli, postCli, putCli } from "./admin.ts";
import { authenticate, type SignedRequest } from "./auth.ts";
import type { AppContext } from "./context.ts";
import { FailureLimiter, type LimiterOptions } from "./limiter.ts";
import { NonceCache } from "./nonces.ts";
import { errorResponse, json, ok } from "./respond.ts";
import { deleteRevert, getRevert, matterOf, postRevert, putRevert } from "./revert.ts";

export interface AppOptions {
  store: Store;
  keys: KeyRing;
  clock?: Clock;
  /** Accepted |server time − ts|, in ms. */
  windowMs?: number;
  /** Largest accepted upload, in bytes. */
  maxUpload?: number;
  limiter?: Partial<LimiterOptions>;
  /** The client's address for failure counting; the listening server passes the socket's. */
  clientAddress?: (request: Request) => string;
  logError?: (msg: string) => void;
}

export const DEFAULTS = {
  windowMs: 5000,
  maxUpload: 64 * 1024 * 1024,
  limiter: { maxFailures: 10, periodMs: 60_000, lockMs: 60_000 },
} as const;

type Handler = (ctx: AppContext, req: SignedRequest, request: Request, params: Record<string, string>) => unknown;

export function createApp(opts: AppOptions) {
  const clock = opts.clock ?? systemClock;
  const windowMs = opts.windowMs ?? DEFAULTS.windowMs;
  const maxUpload = opts.maxUpload ?? DEFAULTS.maxUpload;
  const logError = opts.logError ?? ((msg) => console.error(JSON.stringify({ t: new Date().toISOString(), level: "error", msg })));
  const startedAt = clock.now();
  const ctx: AppContext = { store: opts.store, clock, startedAt, windowMs };
  const auth = {
    keys: opts.keys,
    clock,
    windowMs,
    maxUpload,
    nonces: new NonceCache(),
    limiter: new FailureLimiter({ ...DEFAULTS.limiter, ...opts.limiter }),
    notBefore: startedAt,
  };
  // Taken when the request line arrives, before any body is read: the timestamp check uses it.
  const arrivals = new WeakMap<Request, number>();

  const signed =
    (handler: Handler) =>
    async ({ request, params }: { request: Request; params: Record<string, string> }) => {
      try {
        const arrivedAt = arrivals.get(request) ?? clock.now();
        const req = await authenticate(request, arrivedAt, opts.clientAddress?.(request) ?? "local", auth);
        const data = await handler(ctx, req, request, params);
        return data instanceof Response ? data : ok(data);
      } catch (e) {
        return errorResponse(e, logError);
      }
    };
  const withMatter =
    (fn: (ctx: AppContext, matter: ReturnType<typeof matterOf>, req: SignedRequest) => unknown): Handler =>
    (c, req, _request, params) =>
      fn(c, matterOf(decodeURIComponent(params.matter ?? "")), req);

  // Admin routes read their own body (parse: "none") so that nothing is parsed or validated before the signature is checked.
  const none = { parse: "none" } as const;
  return new Elysia()
    .onRequest(({ request }) => {
      arrivals.set(request, clock.now());
    })
    .onError(({ code, error }) => {
      if (code === "NOT_FOUND") return json(404, { ok: false, error: { code: "not_found", message: "no such route" } });
      return errorResponse(error, logError);
    })
    .get("/healthz", () => ok({ status: "ok" }))
    .get("/api/cli", signed(getCli), none)
    .post("/api/cli", signed(postCli), none)
    .put("/api/cli", signed(putCli), none)
    .delete("/api/cli", signed(deleteCli), none)
    .get("/api/cli/revert/:matter", signed(withMatter(getRevert)), none)
    .post("/api/cli/revert/:matter", signed(withMatter(postRevert)), none)
    .put("/api/cli/revert/:matter", signed(withMatter(putRevert)), none)
    .delete("/api/cli/revert/:matter", signed(withMatter(deleteRevert)), none);
}

export type App = ReturnType<typeof createApp>;
