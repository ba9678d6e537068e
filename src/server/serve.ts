import { join } from "node:path";
import { systemClock } from "../base/clock.ts";
import { BackendError, type Backend } from "../store/backend.ts";
import { openAccountsServer, openBackend, type AccountsServer } from "../store/open.ts";
import { createApp } from "./app.ts";
import { DEFAULTS } from "./app-options.ts";
import { accountSettings } from "../account/settings.ts";
import { listen, listeningUrl } from "./listener.ts";
import { LineSink } from "./logsink.ts";
import type { RedisLink } from "../store/redis/link.ts";
import { clusterOf, connectRedis } from "./cluster.ts";
import { endpointName } from "../llm/client.ts";
import { startLogPrune } from "./log-prune.ts";
import { ServedAccounts } from "./served-accounts.ts";
import { checkServeOptions, environmentKeyNotice, firstKeyNotice } from "./serve-checks.ts";
import { refusedReload, reloadPlan, restartNeeded, writeReloadOutcome, type ReloadOutcome } from "./reload.ts";
import type { ServeOptions } from "./serve-options.ts";

export interface RunningServer {
  url: string;
  port: number;
  /**
   * Stops accepting, lets in-flight requests finish, closes the store. Answers how many follower
   * messages could be neither logged nor kept (the caller exits non-zero when any were lost).
   */
  stop(): Promise<{ lost: number }>;
  /**
   * Applies the accounts of `read()` (the config file read again, SIGHUP or `serve --reload`): adds,
   * rebuilds and removes accounts without a restart, each one it replaces or removes drained before
   * it is closed. Settings that no longer parse (read throws), or a change to a setting of the
   * server's own, are refused and change nothing. Logged, and written to RELOAD_FILE in the data
   * folder for `serve --reload` to report.
   */
  reload(read: () => ServeOptions): Promise<ReloadOutcome>;
}

export class StartupError extends Error {}

export async function startServer(opts: ServeOptions): Promise<RunningServer> {
  // Before anything is opened or connected: the checks `serve --check-config` runs.
  const { environmentKey, warnings } = checkServeOptions(opts);
  const clock = opts.clock ?? systemClock;
  const sink = opts.log ? null : new LineSink();
  const log = opts.log ?? ((line: string) => (sink as LineSink).line(line));
  /** One JSON log line for an event or an error (request lines are built by hand below: they are the hot path). */
  const emit = (fields: Record<string, unknown>) => log(JSON.stringify({ t: new Date().toISOString(), ...fields }));
  const say = opts.say ?? ((line) => process.stderr.write(line + "\n"));
  const warn = (list: readonly string[]) => list.forEach((msg) => emit({ level: "warn", msg }));
  warn(warnings);

  let link: RedisLink | null = null;
  if (opts.redis) {
    try {
      link = await connectRedis(opts.redis, (msg) => emit({ level: "error", msg }), (msg) => emit({ level: "info", msg }));
    } catch (e) {
      throw new StartupError((e as Error).message);
    }
  }
  const backendOptions = {
    clock,
    keep: opts.keep,
    ...(opts.replyLimit ? { replyLimit: opts.replyLimit } : {}),
    logError: (msg: string) => emit({ level: "error", msg }),
    logInfo: (msg: string) => emit({ level: "info", msg }),
  };
  // Several accounts: the server's keys (the top of --data, or the database's default schema), each account's data a folder or schema of its own.
  let server: AccountsServer | null = null;
  const backends: Backend[] = [];
  try {
    if (opts.accounts) {
      server = await openAccountsServer(opts.db ?? opts.dataDir, {
        ...backendOptions,
        extraKeys: [],
        ...(environmentKey ? { environmentKey } : {}),
        firstKey: true,
        ...(link ? { redis: link } : {}),
      });
      for (const a of opts.accounts) backends.push(await server.openAccount(a.name, { ...backendOptions, extraKeys: [], firstKey: false, ...(link ? { redis: link } : {}) }));
    } else
      backends.push(
        await openBackend(opts.db ?? opts.dataDir, {
          ...backendOptions,
          extraKeys: [],
          ...(environmentKey ? { environmentKey } : {}),
          firstKey: true,
          ...(link ? { redis: link } : {}),
        }),
      );
  } catch (e) {
    for (const b of backends) await b.close().catch(() => {});
    await server?.close().catch(() => {});
    link?.close();
    throw e instanceof BackendError ? new StartupError(e.message) : e;
  }
  const backend = backends[0] as Backend;
  const created = server ? server.created : backend.created;
  const keys = server ? server.keys : backend.keys;
  const addresses = new WeakMap<Request, string>();
  const cluster = link && backend.cluster ? clusterOf(link, backend.cluster) : undefined;
  const app = await createApp({
    ...(opts.accounts
      ? { accounts: opts.accounts.map((a, i) => ({ settings: accountSettings(a.wechat, a.ai, a.name), read: (backends[i] as Backend).read, write: (backends[i] as Backend).write, cluster: (backends[i] as Backend).cluster ?? null })) }
      : { read: backend.read, write: backend.write }),
    keys,
    clock,
    windowMs: opts.windowMs,
    maxUpload: opts.maxUpload,
    limiter: { ...DEFAULTS.limiter, maxFailures: opts.maxAuthFailures },
    clientAddress: (req) => addresses.get(req) ?? "unknown",
    logError: (msg) => emit({ level: "error", msg }),
    logWarn: (msg) => emit({ level: "warn", msg }),
    ...(opts.wechat ? { wechat: opts.wechat } : {}),
    ...(opts.publicUrl ? { publicUrl: opts.publicUrl } : {}),
    ...(opts.maxMedia ? { maxMedia: opts.maxMedia } : {}),
    ...(cluster ? { cluster } : {}),
    ...(opts.ai ? { ai: opts.ai } : {}),
    ...(environmentKey ? { environmentKey: environmentKey.appkey } : {}),
    ...(opts.responder ? { responder: opts.responder } : {}),
  });
  if (environmentKey) say(environmentKeyNotice(environmentKey.appkey));
  for (const account of app.accounts) account.start();
  if (opts.accounts) {
    for (const a of opts.accounts)
      if (!a.wechat.token) emit({ level: "warn", msg: `no wx-token in [accounts.${a.name}]: its callback (${a.wechat.path}) answers 503 until one is set` });
    const stray = await server?.stray();
    if (stray) emit({ level: "warn", msg: stray });
  } else if (!opts.wechat?.token) emit({ level: "warn", msg: "no --wx-token (REPLYD_WX_TOKEN): the messaging callback answers 503 until one is set" });

  const served = new ServedAccounts({
    app,
    backends,
    openStore: (name) => (server as AccountsServer).openAccount(name, { ...backendOptions, extraKeys: [], firstKey: false, ...(link ? { redis: link } : {}) }),
    startPrune: (account) =>
      startLogPrune({
        log: account.write.log,
        days: opts.logDays ?? 30,
        clock,
        ...(opts.pruneEveryMs ? { everyMs: opts.pruneEveryMs } : {}),
        warn: (warning) => app.warnClock(warning),
        emit: opts.accounts ? (fields) => emit({ account: account.name, ...fields }) : emit,
      }),
    reroute: () => listener.reroute(),
    emit,
    declared: Boolean(opts.accounts),
  });
  await served.startPrunes();
  let declared = opts.accounts ?? [];
  let reloading: Promise<unknown> = Promise.resolve();
  const applyReload = async (next: ServeOptions): Promise<ReloadOutcome> => {
    const why = restartNeeded(opts, next);
    if (why) return refusedReload(why);
    try {
      warn(checkServeOptions(next).warnings);
    } catch (e) {
      return refusedReload((e as Error).message);
    }
    const outcome = await served.apply(reloadPlan(declared, next.accounts ?? []));
    if (outcome.ok) declared = next.accounts ?? [];
    return outcome;
  };

  const keysWhere = server ? server.keysWhere : "db" in backend.where ? `the database at ${backend.where.db}` : `${join(opts.dataDir, "keys.json")} (mode 0600)`;
  const keyNotice = (url: string, first = opts.accounts ? "replyd accounts" : "replyd health") => created && say(firstKeyNotice(created, url, keysWhere, first));
  let listener: ReturnType<typeof listen>;
  try {
    listener = listen(app, addresses, { host: opts.host, port: opts.port, maxUpload: opts.maxUpload, trustProxy: opts.trustProxy, log, emit });
  } catch (e) {
    // The first start's key is stored already: shown even so, or its secret would never be (the
    // next start finds a key and makes none). A port in use is the common cause on a laptop.
    keyNotice(listeningUrl(opts.host, opts.port), "# this start could not listen there: once replyd serve runs, use the address it prints");
    await served.close().catch(() => 0);
    await server?.close().catch(() => {});
    link?.close();
    sink?.flush();
    throw e;
  }
  const url = listener.url;
  app.listeningAt(url);
  if (backend.cluster) {
    backend.cluster.registry.url = url;
    void backend.cluster.registry.beat().catch(() => {});
  }
  keyNotice(url);
  emit({
    event: "listening",
    url,
    ...(opts.accounts && !opts.db ? { data: opts.dataDir } : backend.where),
    ...(link ? { redis: link.where } : {}),
    keys: keys.size,
    // Named: an operator's shell variables are the client's too, and a key served from them is not revoked by `replyd keys rm`.
    ...(environmentKey ? { environment_key: environmentKey.appkey } : {}),
    ...(opts.accounts ? { accounts: app.accounts.map((a) => ({ name: a.name, wechat: a.path })) } : { wechat: app.account.path }),
    ...(opts.ai ? { ai: { endpoint: endpointName(opts.ai.endpoint.base), model: opts.ai.endpoint.model } } : {}),
  });

  let stopping: Promise<{ lost: number }> | null = null;
  return {
    url,
    port: listener.port,
    stop() {
      stopping ??= (async () => {
        // Deliveries held for a model are answered now with the retrieval reply, not after it; their
        // messages and the given-up calls are logged before the stores close.
        const released = Promise.all(app.accounts.map((account) => account.release()));
        await listener.stop();
        await released;
        await reloading;
        sink?.flush();
        const lost = await served.close();
        await server?.close();
        link?.close();
        sink?.flush();
        return { lost };
      })();
      return stopping;
    },
    reload(read) {
      const asked = Date.now();
      // One at a time: two signals in a row apply in turn, each against what the one before left.
      const outcome = reloading.then(async () => {
        if (stopping) return refusedReload("the server is stopping");
        let next: ServeOptions;
        try {
          next = read();
        } catch (e) {
          return refusedReload(`the settings could not be read: ${(e as Error).message}`);
        }
        return applyReload(next);
      });
      reloading = outcome.then(
        (o) => {
          const { ok, error, ...accounts } = o;
          emit(ok ? { event: "reloaded", ...accounts } : { level: "error", msg: `reload refused, nothing changed: ${error}` });
          writeReloadOutcome(opts.dataDir, { ...o, asked, pid: process.pid });
        },
        (e) => emit({ level: "error", msg: `reload failed: ${(e as Error).message}` }),
      );
      return outcome;
    },
  };
}
