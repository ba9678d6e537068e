import type { Server } from "bun";
import type { App } from "./app.ts";
import { checkRequest, pathOf } from "./request-target.ts";
import { refusal } from "./respond.ts";

export interface ListenerOptions {
  host: string;
  port: number;
  maxUpload: number;
  /** Take the client address from X-Forwarded-For (only behind a proxy you run). */
  trustProxy: boolean;
  /** One JSON line per request. */
  log: (line: string) => void;
  emit: (fields: Record<string, unknown>) => void;
}

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

/**
 * The listening socket: each account's callback routed straight to its handler (the hot path, no
 * router context per request), everything else through the request-target check to the app; one log
 * line per request. `addresses` is where the admin API's rate limit finds a request's client.
 */
export function listen(app: App, addresses: WeakMap<Request, string>, o: ListenerOptions) {
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
    clientAddress(srv.requestIP(request)?.address ?? "unknown", o.trustProxy ? request.headers.get("x-forwarded-for") : null);
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
      o.log(`{"t":"${now()}","method":"${request.method}","path":${path ?? JSON.stringify(pathOf(request.url))},"status":${status},"ms":${ms}${ip === null ? "" : `,"ip":${JSON.stringify(ip)}`}}`);
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
  type Route = (request: Request, srv: Server<undefined>) => Response | Promise<Response>;
  // Each account's callback at its path, its handlers made once, not a closure per request; made
  // again when a reload changes the accounts (reroute).
  const callbackRoutes = () => {
    const routes: Record<string, { GET: Route; POST: Route }> = {};
    for (const account of app.accounts) {
      const pathJson = JSON.stringify(account.path);
      const callback = account.callback;
      const verify = (request: Request) => callback.verify(request);
      const receive = (request: Request) => callback.receive(request);
      routes[account.path] = {
        GET: (request, srv) => served(request, srv, null, pathJson, verify),
        POST: (request, srv) => served(request, srv, null, pathJson, receive),
      };
    }
    return routes;
  };
  const badHost = (message: string) =>
    refusal("bad_host", message);
  const handle = (request: Request) => {
    const door = checkRequest(request);
    if (!door.ok) return badHost(door.message);
    if (door.request !== request) addresses.set(door.request, addresses.get(request) as string);
    return app.handle(door.request);
  };
  const options = {
    hostname: o.host,
    port: o.port,
    // Bun's own limit is a backstop for bodies without Content-Length; the app answers the rest with a JSON 413.
    maxRequestBodySize: o.maxUpload + 1024 * 1024,
    routes: callbackRoutes(),
    fetch: (request: Request, srv: Server<undefined>) => {
      const addr = clientOf(request, srv);
      addresses.set(request, addr); // the admin API's rate limit and logs read it
      return served(request, srv, addr, null, handle);
    },
    error(e: Error) {
      o.emit({ level: "error", msg: e.message });
      return refusal("internal", "internal error");
    },
  };
  const server: Server<undefined> = Bun.serve(options);

  const url = listeningUrl(o.host, server.port as number);
  return {
    url,
    port: server.port as number,
    /**
     * The callbacks' routes made again from app.accounts (a reload): requests in flight finish on
     * the handlers they reached; an account's path no longer routed falls to the app, which answers 404.
     */
    reroute() {
      server.reload({ ...options, routes: callbackRoutes() });
    },
    /** No new connections; settles once every request in flight is answered. */
    async stop() {
      await server.stop(false);
      while (inFlight > 0) await Bun.sleep(10);
    },
  };
}

/** The address to reach a server listening on `host` from this machine: every address is reached on loopback. */
export function listeningUrl(host: string, port: number): string {
  const shown = host === "0.0.0.0" || host === "::" ? "127.0.0.1" : host;
  return `http://${shown.includes(":") ? `[${shown}]` : shown}:${port}`;
}
