import { staticPlugin } from "@elysiajs/static";
import { Elysia } from "elysia";
import { statSync } from "node:fs";
import { join } from "node:path";
import { systemClock, type Clock } from "../clock.ts";
import type { AdminKey, Keys } from "../store/keys.ts";
import type { ReadModel, Writer } from "../store/backend.ts";
import { deleteCli, getCli, postCli, putCli } from "./admin.ts";
import { getToken } from "./token.ts";
import { getAsk } from "./ask.ts";
import { deleteMenu, getMenu, postMenu, putMenu } from "./menu.ts";
import { postReply } from "./reply.ts";
import { postTeach } from "./teach.ts";
import { getSynonyms } from "./synonyms.ts";
import type { TokenKeeper } from "../wechat/token.ts";
import { authenticate, type SignedRequest } from "./auth.ts";
import type { AppContext } from "./context.ts";
import { closeFiles, DoorBudget, FORM_BODY_SLACK } from "./form.ts";
import { FailureLimiter, SharedLimiter, type LimiterOptions } from "./limiter.ts";
import { NonceCache, SharedNonces } from "./nonces.ts";
import { RedisDown, type RedisLink } from "../store/redis/link.ts";
import { SharedAnswers } from "../wechat/shared.ts";
import { errorResponse, json, ok, refusal, signAnswer } from "./respond.ts";
import { badRequest } from "../errors.ts";
import { deleteRevert, getRevert, matterOf, postRevert, putRevert } from "./revert.ts";
import { isSafeMediaPath, MEDIA_NAME } from "./media.ts";
import { pathOf } from "./request-target.ts";
import { WECHAT_DEFAULTS, WechatHandler, type WechatOptions } from "../wechat/handler.ts";
import { RegexMatcher } from "../wechat/regex.ts";
import { Responder } from "../wechat/responder.ts";
import { LocalConversations, SharedConversations } from "../wechat/conversation.ts";
import type { ModelEndpoint } from "../model-client.ts";
import { Generator, type DeliveryTimes } from "../wechat/generator.ts";
import { LocalCaps, SharedCaps, type CapLimits } from "../wechat/model-caps.ts";
import { PendingFollowers } from "../wechat/pending.ts";
import { RedisBook } from "../wechat/generation-book.ts";

export interface AppOptions {
  /** The backend (store/backend.ts): what routes and the responder read, and what every write goes through. */
  read: ReadModel;
  write: Writer;
  keys: Keys;
  clock?: Clock;
  /** Accepted |server time − ts|, in ms. */
  windowMs?: number;
  /** Largest accepted upload, in bytes. */
  maxUpload?: number;
  /** Where uploads are spooled while they arrive (default: the data folder). */
  spoolDir?: string;
  /** Bytes all unauthenticated requests may hold together (default: 4 largest uploads). */
  preAuthBytes?: number;
  limiter?: Partial<LimiterOptions>;
  /** The client's address for failure counting; the listening server passes the socket's. */
  clientAddress?: (request: Request) => string;
  logError?: (msg: string) => void;
  /** The messaging callback; without a token it answers 503. */
  wechat?: Partial<WechatOptions> & { path?: string };
  /** Replaces the reply logic (tests inject a slow one to exercise the deadline). */
  responder?: Pick<Responder, "respond">;
  /** Public address used in media URLs; default: the listening address (http://localhost without one). */
  publicUrl?: string;
  /** Largest media (image) upload, in bytes. */
  maxMedia?: number;
  /** The platform API and its access token (--wx-secret). */
  platform?: TokenKeeper;
  /**
   * One of a cluster (serve --redis): admin nonces, lock-outs and retry answers shared through
   * Redis; `status` is what health shows of the cluster.
   */
  cluster?: { link: RedisLink; instance: string; status: () => Record<string, unknown> };
  /** Generated answers from an OpenAI-compatible model (serve --ai-url; docs/answers.md). */
  ai?: AiOptions;
  /** The appkey of the admin key taken from serve's environment (REPLYD_APPKEY): health names it. */
  environmentKey?: string;
}

export interface AiOptions {
  endpoint: ModelEndpoint;
  caps: CapLimits;
  /** The window's timings (tests shorten them). */
  times?: Partial<DeliveryTimes>;
  fetch?: typeof fetch;
}

export const DEFAULTS = {
  windowMs: 5000,
  maxUpload: 64 * 1024 * 1024,
  limiter: { maxFailures: 10, periodMs: 60_000, lockMs: 60_000, maxEntries: 10_000 },
  /** How many largest uploads the door may be receiving at once, unauthenticated. */
  preAuthUploads: 4,
  maxMedia: 10 * 1024 * 1024,
  wxPath: "/wechat",
} as const;

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

type Handler = (ctx: AppContext, req: SignedRequest, request: Request) => unknown;

/**
 * The generator and what it counts with: the caps from the calls of the last 24 hours (in Redis
 * for a cluster), the followers with an answer waiting, the cluster's book beside its retry answers.
 */
async function makeGenerator(ai: AiOptions, ctx: AppContext, log: (msg: string) => void, shared: SharedAnswers | null): Promise<Generator> {
  const since = new Date(ctx.clock.now() - 24 * 3_600_000).toISOString();
  const history = await ctx.write.generated.calls(since).catch((e) => {
    log(`the model calls of the last 24 hours could not be read (the caps count from none): ${(e as Error).message}`);
    return [];
  });
  const local = new LocalCaps(ai.caps, history.map((h) => ({ openid: h.openid, atMs: Date.parse(h.at) })));
  const pending = new PendingFollowers();
  if (shared) await pending.share(shared.link);
  const generator = new Generator({
    endpoint: ai.endpoint,
    // A call lasts at most its time-out: a place leased in Redis is free a little after it, whatever becomes of the instance.
    caps: shared ? new SharedCaps(shared.link, local, ai.endpoint.timeoutMs + 10_000) : local,
    write: ctx.write,
    clock: ctx.clock,
    log,
    shared: shared ? new RedisBook(shared) : null,
    pending,
    platform: () => ctx.platform,
    ...(ai.times ? { times: ai.times } : {}),
    ...(ai.fetch ? { fetch: ai.fetch } : {}),
  });
  await generator.load().catch((e) => log(`the answers waiting for followers' next messages could not be read: ${(e as Error).message}`));
  return generator;
}

export async function createApp(opts: AppOptions) {
  const clock = opts.clock ?? systemClock;
  const windowMs = opts.windowMs ?? DEFAULTS.windowMs;
  const maxUpload = opts.maxUpload ?? DEFAULTS.maxUpload;
  const logError = opts.logError ?? ((msg) => console.error(JSON.stringify({ t: new Date().toISOString(), level: "error", msg })));
  const startedAt = clock.now();
  const startedMono = clock.monotonic();
  const regex = new RegexMatcher(100, logError, () => clock.now());
  // A follower's turns, for their next message (docs/answers.md "Follow-ups"): in Redis for a cluster, this instance's memory beside it.
  const now = () => clock.now();
  const turns = new LocalConversations(now);
  const conversations = opts.cluster ? new SharedConversations(opts.cluster.link, turns, now) : turns;
  const responder = new Responder(opts.read, regex, { forModel: Boolean(opts.ai), conversations, now, log: logError });
  const ctx: AppContext = {
    read: opts.read,
    write: opts.write,
    clock,
    startedAt,
    windowMs,
    maxMedia: opts.maxMedia ?? DEFAULTS.maxMedia,
    publicUrl: opts.publicUrl ?? "http://localhost",
    regex,
    clockWarning: null,
    platform: opts.platform ?? null,
    rules: responder,
    responder: opts.responder ?? responder,
    cluster: null,
    generator: null,
    environmentKey: opts.environmentKey ?? null,
  };
  const nonces = new NonceCache();
  const limiter = new FailureLimiter({ ...DEFAULTS.limiter, ...opts.limiter });
  const link = opts.cluster?.link;
  const auth = {
    keys: opts.keys,
    clock,
    windowMs,
    maxUpload,
    nonces: link ? new SharedNonces(link) : nonces,
    limiter: link ? new SharedLimiter(link, limiter) : limiter,
    ...(link ? { shared: { up: () => link.up, down: () => new RedisDown(link.lastError ?? "not connected"), fallback: nonces } } : {}),
    budget: new DoorBudget(opts.preAuthBytes ?? DEFAULTS.preAuthUploads * (maxUpload + FORM_BODY_SLACK)),
    // On the disk the data is on: the system's temp folder may be small, or in memory (tmpfs).
    spoolDir: opts.spoolDir ?? opts.read.spoolDir,
    notBefore: () => clock.now() - (clock.monotonic() - startedMono),
  };
  // Taken when the request line arrives, before any body is read: the timestamp check uses it.
  const arrivals = new WeakMap<Request, number>();

  // Every answer to a request whose signature passed is signed too, refusals included.
  const signed =
    (handler: Handler) =>
    async ({ request }: { request: Request }) => {
      const verified: { key?: AdminKey; nonce?: string; path?: string } = {};
      let res: Response;
      let req: SignedRequest | null = null;
      try {
        const arrivedAt = arrivals.get(request) ?? clock.now();
        req = await authenticate(request, arrivedAt, opts.clientAddress?.(request) ?? "local", auth, verified);
        rejectRepeatedFields(req);
        const data = await handler(ctx, req, request);
        res = data instanceof Response ? data : ok(data);
      } catch (e) {
        res = errorResponse(e, logError);
      } finally {
        if (req) closeFiles(req.files);
      }
      // Bound to the request as it was signed: the same method, path and nonce authenticate checked.
      return verified.key ? signAnswer(res, request.method, verified.path as string, verified.nonce as string, verified.key.secret) : res;
    };
  // The matter is compared as sent, never decoded: valid matters are plain words, and decoding
  // twice (the router already decodes its params) is how "%25" once became a 500.
  const withMatter =
    (fn: (ctx: AppContext, matter: ReturnType<typeof matterOf>, req: SignedRequest) => unknown): Handler =>
    (c, req, request) =>
      fn(c, matterOf(pathOf(request.url).slice("/api/cli/revert/".length)), req);

  const sharedAnswers = opts.cluster ? new SharedAnswers(opts.cluster.link, opts.cluster.instance) : null;
  const generator = opts.ai ? await makeGenerator(opts.ai, ctx, logError, sharedAnswers) : null;
  ctx.generator = generator;
  const wechat = new WechatHandler(
    { ...WECHAT_DEFAULTS, ...opts.wechat },
    ctx.write.log,
    (opts.responder ?? responder) as Responder,
    clock,
    logError,
    sharedAnswers,
    generator,
  );
  if (opts.cluster) {
    const status = opts.cluster.status;
    const shared = conversations instanceof SharedConversations ? conversations : null;
    ctx.cluster = () => ({
      ...status(),
      dedupe: wechat.shared?.up ? "cluster" : "this instance only (Redis is away)",
      answered_alone: wechat.answeredAlone,
      answers: wechat.shared?.counts,
      // Followers' turns read or kept in this instance's memory alone because Redis was away.
      conversations_alone: shared?.alone ?? 0,
    });
  }
  const wxPath = opts.wechat?.path ?? DEFAULTS.wxPath;
  const media = await staticPlugin({
    assets: opts.read.mediaDir,
    prefix: "/media",
    alwaysStatic: false,
    indexHTML: false,
    ignorePatterns: [],
    directive: "public",
    maxAge: 86400,
    silent: true,
  });

  // Admin routes read their own body (parse: "none") so that nothing is parsed or validated before the signature is checked.
  const none = { parse: "none" } as const;
  const app = new Elysia()
    .onRequest(async ({ request }) => {
      arrivals.set(request, clock.now());
      const path = pathOf(request.url);
      if (!path.startsWith("/media/")) return;
      // Checked before the static plugin joins the path onto the media folder.
      const readOnly = request.method === "GET" || request.method === "HEAD";
      if (!readOnly || !isSafeMediaPath(path)) return refusal("not_found", "no such file");
      // Kept in the database: fetched into the local folder the first time it is asked for here.
      const name = decodeURIComponent(path.slice("/media/".length));
      if (MEDIA_NAME.test(name)) await ctx.write.fetchMedia(name).catch(() => false);
    })
    .onAfterHandle(({ request, response }) => {
      const path = pathOf(request.url);
      if (!path.startsWith("/media/") || !(response instanceof Response) || response.status !== 200) return;
      let mtime: Date;
      try {
        mtime = statSync(join(opts.read.mediaDir, decodeURIComponent(path.slice("/media/".length)))).mtime;
      } catch {
        return;
      }
      const lastModified = mtime.toUTCString();
      response.headers.set("last-modified", lastModified);
      response.headers.set("x-content-type-options", "nosniff");
      // The static plugin answers repeat requests from its cache without looking at conditional headers.
      const etag = response.headers.get("etag");
      const ifNoneMatch = request.headers.get("if-none-match");
      const ifModifiedSince = Date.parse(request.headers.get("if-modified-since") ?? "");
      const fresh = ifNoneMatch
        ? etag !== null && ifNoneMatch.split(",").some((v) => v.trim() === etag || v.trim() === "*")
        : !Number.isNaN(ifModifiedSince) && Math.floor(mtime.getTime() / 1000) * 1000 <= ifModifiedSince;
      if (fresh) return new Response(null, { status: 304, headers: { ...(etag ? { etag } : {}), "last-modified": lastModified } });
    })
    .onError(({ code, error }) => {
      if (code === "NOT_FOUND") return refusal("not_found", "no such route");
      return errorResponse(error, logError);
    })
    .get("/healthz", () => ok({ status: "ok" }))
    .use(media)
    .get(wxPath, ({ request }) => wechat.verify(request))
    .post(wxPath, ({ request }) => wechat.receive(request), none)
    .get("/api/cli", signed(getCli), none)
    .post("/api/cli", signed(postCli), none)
    .put("/api/cli", signed(putCli), none)
    .delete("/api/cli", signed(deleteCli), none)
    .get("/api/cli/token", signed(getToken), none)
    .get("/api/cli/ask", signed(getAsk), none)
    .get("/api/cli/menu", signed(getMenu), none)
    .put("/api/cli/menu", signed(putMenu), none)
    .post("/api/cli/menu", signed(postMenu), none)
    .delete("/api/cli/menu", signed(deleteMenu), none)
    .post("/api/cli/reply", signed(postReply), none)
    .post("/api/cli/teach", signed(postTeach), none)
    .get("/api/cli/synonyms", signed(getSynonyms), none)
    .get("/api/cli/revert/:matter", signed(withMatter(getRevert)), none)
    .post("/api/cli/revert/:matter", signed(withMatter(postRevert)), none)
    .put("/api/cli/revert/:matter", signed(withMatter(putRevert)), none)
    .delete("/api/cli/revert/:matter", signed(withMatter(deleteRevert)), none);
  // The listening server sends the callback straight to its handler (no per-request router context):
  // it is the hot path. app.handle() reaches the same handler through the routes above.
  return Object.assign(app, { wechat, wxPath, ctx });
}

export type App = Awaited<ReturnType<typeof createApp>>;
