/**
 * The admin API's door, made once per app: every signed route passes through `signed`, which
 * authenticates (bounds before the signature, then the time window, then the nonce), refuses
 * repeated fields, runs the route and signs its answer — refusals included.
 */
import type { Clock } from "../base/clock.ts";
import { badRequest } from "../base/errors.ts";
import type { AdminKey, Keys } from "../store/keys.ts";
import { RedisDown } from "../cluster/redis-down.ts";
import type { RedisLink } from "../store/redis/link.ts";
import { authenticate, type AuthOptions, type SignedRequest } from "./auth.ts";
import type { AppContext } from "./context.ts";
import { closeFiles } from "./form.ts";
import { DoorBudget, FORM_BODY_SLACK } from "./form-bounds.ts";
import { FailureLimiter, SharedLimiter, type LimiterOptions } from "./limiter.ts";
import { NonceCache, SharedNonces } from "./nonces.ts";
import { errorResponse, ok, signResponse } from "./respond.ts";

export type Handler = (ctx: AppContext, req: SignedRequest, request: Request) => unknown;

export interface DoorOptions {
  keys: Keys;
  clock: Clock;
  windowMs: number;
  maxUpload: number;
  /** Bytes all unauthenticated requests may hold together. */
  preAuthBytes: number;
  limiter: LimiterOptions;
  spoolDir: string;
  /** The cluster's Redis: nonces and lock-outs shared through it. */
  link: RedisLink | null;
  clientAddress?: (request: Request) => string;
  logError: (msg: string) => void;
}

/**
 * The canonical string sorts repeated keys by value, so their order is not signed: a request with a
 * field sent twice could be reordered in transit and still verify. No route takes a repeated field.
 */
function rejectRepeatedFields(req: SignedRequest): void {
  const seen = new Set<string>();
  for (const [k] of req.fields) {
    if (seen.has(k)) throw badRequest(`"${k}" was sent more than once; send each field once (keywords: comma-separated)`, "repeated_field");
    seen.add(k);
  }
}

export function adminDoor(o: DoorOptions) {
  const { clock, link } = o;
  const startedMono = clock.monotonic();
  const nonces = new NonceCache();
  const limiter = new FailureLimiter(o.limiter);
  const auth: AuthOptions = {
    keys: o.keys,
    clock,
    windowMs: o.windowMs,
    maxUpload: o.maxUpload,
    nonces: link ? new SharedNonces(link) : nonces,
    limiter: link ? new SharedLimiter(link, limiter) : limiter,
    ...(link ? { shared: { up: () => link.up, down: () => new RedisDown(link.lastError ?? "not connected", link.refusing), fallback: nonces } } : {}),
    budget: new DoorBudget(o.preAuthBytes),
    // On the disk the data is on: the system's temp folder may be small, or in memory (tmpfs).
    spoolDir: o.spoolDir,
    notBefore: () => clock.now() - (clock.monotonic() - startedMono),
  };
  // Taken when the request line arrives, before any body is read: the timestamp check uses it.
  const arrivals = new WeakMap<Request, number>();
  return {
    /** Called as the request line arrives. */
    arrived: (request: Request) => void arrivals.set(request, clock.now()),
    /** A route acting on the account `choose` finds for the authenticated request (server/accounts.ts). */
    signed:
      (choose: (req: SignedRequest) => AppContext, handler: Handler) =>
      async ({ request }: { request: Request }) => {
        const verified: { key?: AdminKey; nonce?: string; path?: string } = {};
        let res: Response;
        let req: SignedRequest | null = null;
        try {
          const arrivedAt = arrivals.get(request) ?? clock.now();
          req = await authenticate(request, arrivedAt, o.clientAddress?.(request) ?? "local", auth, verified);
          rejectRepeatedFields(req);
          const data = await handler(choose(req), req, request);
          res = data instanceof Response ? data : ok(data);
        } catch (e) {
          res = errorResponse(e, o.logError);
        } finally {
          if (req) closeFiles(req.files);
        }
        // Bound to the request as it was signed: the same method, path and nonce authenticate checked.
        return verified.key ? signResponse(res, request.method, verified.path as string, verified.nonce as string, verified.key.secret) : res;
      },
  };
}

export const preAuthBytes = (uploads: number, maxUpload: number) => uploads * (maxUpload + FORM_BODY_SLACK);
