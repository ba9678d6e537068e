import type { Server } from "bun";
import { join } from "node:path";
import { systemClock, type Clock } from "../base/clock.ts";
import { BackendError, type Backend } from "../store/backend.ts";
import { openBackend } from "../store/open.ts";
import { createApp, DEFAULTS, type AiOptions } from "./app.ts";
import { checkRequest, pathOf } from "./request-target.ts";
import { LineSink } from "./logsink.ts";
import { refusal } from "./respond.ts";
import { TokenKeeper } from "../wechat/platform/token.ts";
import { RedisTokenShare } from "../wechat/platform/shared-token.ts";
import type { RedisLink } from "../store/redis/link.ts";
import { clusterOf, connectRedis } from "./cluster.ts";
import { endpointName } from "../llm/client.ts";
import { startLogPrune } from "./log-prune.ts";
import { checkServeOptions, environmentKeyNotice } from "./serve-checks.ts";

export interface ServeOptions {
  dataDir: string;
  /** postgres://…: everything kept in that database, nothing in dataDir (--db, REPLYD_DB). */
  db?: string;
  /** redis://…: one of a cluster of instances on `db` (--redis, REPLYD_REDIS). */
  redis?: string;
  host: string;
  port: number;
  windowMs: number;
  keep: number;
  maxUpload: number;
  maxAuthFailures: number;
  /** Take the client address from X-Forwarded-For (only behind a proxy you run). */
  trustProxy: boolean;
  /** The messaging callback: token, EncodingAESKey, appid, path. */
  wechat?: { token?: string; aesKey?: string; appid?: string; path?: string; mode?: "safe" | "compatible"; secret?: string | undefined; api?: string };
  /** Public address for media URLs (https://replyd.example.com). */
  publicUrl?: string;
  maxMedia?: number;
  /** Days of message log kept (and of the model calls' log): pruned at start and every hour. */
  logDays?: number;
  /** How often the logs are pruned after the start: an hour (tests make it short). */
  pruneEveryMs?: number;
  /** Replies the platform allows per follower interaction (5 in its documentation today). */
  replyLimit?: number;
  /** Generated answers from an OpenAI-compatible model (--ai-url, --ai-model, REPLYD_AI_KEY). */
  ai?: AiOptions;
  env: Record<string, string | undefined>;
  clock?: Clock;
  /** One JSON line per request. */
  log?: (line: string) => void;
  /** Human messages: the first-start key, warnings. */
  say?: (line: string) => void;
}

export interface RunningServer {
  url: string;
  port: number;
  /**
   * Stops accepting, lets in-flight requests finish, closes the store. Answers how many follower
   * messages could be neither logged nor kept (the caller exits non-zero when any were lost).
   */
  stop(): Promise<{ lost: number }>;
}

export class StartupError extends Error {}

/**
 * The client's address: the socket's, or behind a proxy you run (--trust-proxy) the rightmost
 * X-Forwarded-For entry, the one that proxy appended. Entries to its left are written by the client
 * and prove nothing (as nginx's realip and Express's "trust proxy" read it).
 */
export function clientAddress(socket: string, forwardedFor: string | null): string {
  if (!forwardedFor) return socket;
  const last = forwardedFor.slice(forwardedFor.lastIndexOf(",") + 1).trim();
  return last || socket;
}

export async function startServer(opts: ServeOptions): Promise<RunningServer> {
  // Before anything is opened or connected: the checks `serve --check-config` runs.
  const { environmentKey } = checkServeOptions(opts);
  const clock = opts.clock ?? systemClock;
  const sink = opts.log ? null : new LineSink();
  const log = opts.log ?? ((line: string) => (sink as LineSink).line(line));
  /** One JSON log line for an event or an error (request lines are built by hand below: they are the hot path). */
  const emit = (fields: Record<string, unknown>) => log(JSON.stringify({ t: new Date().toISOString(), ...fields }));
  const say = opts.say ?? ((line) => process.stderr.write(line + "\n"));

  let link: RedisLink | null = null;
  if (opts.redis) {
    try {
      link = await connectRedis(opts.redis, (msg) => emit({ level: "error", msg }));
    } catch (e) {
      throw new StartupError((e as Error).message);
    }
  }
  let backend: Backend;
  try {
    backend = await openBackend(opts.db ?? opts.dataDir, {
      clock,
      keep: opts.keep,
      ...(opts.replyLimit ? { replyLimit: opts.replyLimit } : {}),
      extraKeys: [],
      ...(environmentKey ? { environmentKey } : {}),
      firstKey: true,
      logError: (msg) => emit({ level: "error", msg }),
      ...(link ? { redis: link } : {}),
    });
  } catch (e) {
    link?.close();
    throw e instanceof BackendError ? new StartupError(e.message) : e;
  }
  const { created, keys } = backend;

  const addresses = new WeakMap<Request, string>();
  const platform =
    opts.wechat?.secret && opts.wechat.appid
      ? new TokenKeeper({
          api: opts.wechat.api ?? "https://api.weixin.qq.com",
          appid: opts.wechat.appid,
          secret: opts.wechat.secret,
          clock,
          log: (msg) => emit({ level: "error", msg }),
          ...(link && backend.cluster ? { shared: new RedisTokenShare(link, backend.cluster.registry.id, opts.wechat.appid) } : {}),
        })
      : undefined;
  const cluster = link && backend.cluster ? clusterOf(link, backend.cluster) : undefined;
  const app = await createApp({
    read: backend.read,
    write: backend.write,
    keys,
    clock,
    windowMs: opts.windowMs,
    maxUpload: opts.maxUpload,
    limiter: { ...DEFAULTS.limiter, maxFailures: opts.maxAuthFailures },
    clientAddress: (req) => addresses.get(req) ?? "unknown",
    logError: (msg) => emit({ level: "error", msg }),
    ...(opts.wechat ? { wechat: opts.wechat } : {}),
    ...(opts.publicUrl ? { publicUrl: opts.publicUrl } : {}),
    ...(opts.maxMedia ? { maxMedia: opts.maxMedia } : {}),
    ...(platform ? { platform } : {}),
    ...(cluster ? { cluster } : {}),
    ...(opts.ai ? { ai: opts.ai } : {}),
    ...(environmentKey ? { environmentKey: environmentKey.appkey } : {}),
  });
  if (environmentKey) say(environmentKeyNotice(environmentKey.appkey));
  // The first token at start, so health knows the link and other systems find one ready.
  void platform?.token().catch(() => {});
  if (!opts.wechat?.token)
    emit({ level: "warn", msg: "no --wx-token (REPLYD_WX_TOKEN): the messaging callback answers 503 until one is set" });

  const pruning = await startLogPrune({
    log: app.ctx.write.log,
    days: opts.logDays ?? 30,
    clock,
    ...(opts.pruneEveryMs ? { everyMs: opts.pruneEveryMs } : {}),
    warn: (warning) => void (app.ctx.clockWarning = warning),
    emit,
  });

  let inFlight = 0;
  // Requests in the same millisecond share one timestamp string: at tens of thousands of requests a
  // second, formatting a date per line is a visible share of the callback's cost.
  let stampMs = 0;
  let stamp = "";
  const now = () => {
    const ms = Date.now();
    if (ms !== stampMs) {
      stampMs = ms;
      stamp = new Date(ms).toISOString();
    }
    return stamp;
  };
  const clientOf = (request: Request, srv: Server<undefined>) =>
    clientAddress(srv.requestIP(request)?.address ?? "unknown", opts.trustProxy ? request.headers.get("x-forwarded-for") : null);
  /**
   * Counts the request in flight and logs one line for it (path only: queries carry signatures).
   * `addr` null: a callback request, whose line carries the address only when it was refused. An
   * accepted callback is signed by the platform and comes from its servers; reading the address
   * is a system call per request, ≈ 3.5 % of the callback's throughput (docs/performance.md).
   */
  const served = (
    request: Request,
    srv: Server<undefined>,
    addr: string | null,
    /** The path as a JSON string when it is known in advance; null: from the request. */
    path: string | null,
    handle: (request: Request) => Response | Promise<Response>,
  ): Response | Promise<Response> => {
    const started = performance.now();
    inFlight++;
    const done = (status: number) => {
      inFlight--;
      const ms = Math.round((performance.now() - started) * 100) / 100;
      const ip = addr ?? (status >= 400 ? clientOf(request, srv) : null);
      log(`{"t":"${now()}","method":"${request.method}","path":${path ?? JSON.stringify(pathOf(request.url))},"status":${status},"ms":${ms}${ip === null ? "" : `,"ip":${JSON.stringify(ip)}`}}`);
    };
    const failed = (e: unknown): never => {
      done(500);
      throw e;
    };
    let result: Response | Promise<Response>;
    try {
      result = handle(request);
    } catch (e) {
      return failed(e);
    }
    // A plain .then, not an async wrapper: one promise fewer per request on the callback's hot path.
    if (result instanceof Promise)
      return result.then((response) => {
        done(response.status);
        return response;
      }, failed);
    done(result.status);
    return result;
  };
  const wxPath = app.wxPath;
  const wxPathJson = JSON.stringify(wxPath);
  // Made once, not a closure per request.
  const verify = (request: Request) => app.wechat.verify(request);
  const receive = (request: Request) => app.wechat.receive(request);
  const badHost = (message: string) =>
    refusal("bad_host", message);
  const handle = (request: Request) => {
    const door = checkRequest(request);
    if (!door.ok) return badHost(door.message);
    if (door.request !== request) addresses.set(door.request, addresses.get(request) as string);
    return app.handle(door.request);
  };
  const server: Server<undefined> = Bun.serve({
    hostname: opts.host,
    port: opts.port,
    // Bun's own limit is a backstop for bodies without Content-Length; the app answers the rest with a JSON 413.
    maxRequestBodySize: opts.maxUpload + 1024 * 1024,
    routes: {
      [wxPath]: {
        GET: (request: Request, srv: Server<undefined>) => served(request, srv, null, wxPathJson, verify),
        POST: (request: Request, srv: Server<undefined>) => served(request, srv, null, wxPathJson, receive),
      },
    },
    fetch: (request, srv) => {
      const addr = clientOf(request, srv);
      addresses.set(request, addr); // the admin API's rate limit and logs read it
      return served(request, srv, addr, null, handle);
    },
    error(e) {
      emit({ level: "error", msg: e.message });
      return refusal("internal", "internal error");
    },
  });

  const displayHost = opts.host === "0.0.0.0" || opts.host === "::" ? "127.0.0.1" : opts.host;
  const url = `http://${displayHost.includes(":") ? `[${displayHost}]` : displayHost}:${server.port}`;
  if (!opts.publicUrl) app.ctx.publicUrl = url;
  if (backend.cluster) {
    backend.cluster.registry.url = url;
    void backend.cluster.registry.beat().catch(() => {});
  }
  if (created) {
    say(
      [
        "db" in backend.where ? `replyd: created an admin key in the database at ${backend.where.db}.` : `replyd: created an admin key in ${join(opts.dataDir, "keys.json")} (mode 0600).`,
        `The secret is shown this once. On the machine you administer from, run:`,
        ``,
        `  export REPLYD_URL=${url} REPLYD_APPKEY=${created.appkey} REPLYD_SECRET=${created.secret}`,
        `  replyd health`,
        ``,
      ].join("\n"),
    );
  }
  emit({
    event: "listening",
    url,
    ...backend.where,
    ...(link ? { redis: link.where } : {}),
    keys: keys.size,
    // Named: an operator's shell variables are the client's too, and a key served from them is not revoked by `replyd keys rm`.
    ...(environmentKey ? { environment_key: environmentKey.appkey } : {}),
    wechat: wxPath,
    ...(opts.ai ? { ai: { endpoint: endpointName(opts.ai.endpoint.base), model: opts.ai.endpoint.model } } : {}),
  });

  let stopping: Promise<{ lost: number }> | null = null;
  return {
    url,
    port: server.port as number,
    stop() {
      stopping ??= (async () => {
        // Deliveries held for a model are answered now with the retrieval reply, not after it.
        app.wechat.generator?.stop();
        // stop(false): no new connections; the promise settles once in-flight requests are answered.
        await server.stop(false);
        while (inFlight > 0) await Bun.sleep(10);
        pruning.stop();
        platform?.stop();
        sink?.flush();
        const closed = await backend.close();
        link?.close();
        emit({ event: "stopped", ...(closed.database ? { database: closed.database } : {}), ...(closed.kept ? { messages_kept_in: closed.keptIn, messages_kept: closed.kept } : {}), ...(closed.lost ? { messages_lost: closed.lost } : {}) });
        sink?.flush();
        return { lost: closed.lost };
      })();
      return stopping;
    },
  };
}
