import { staticPlugin } from "@elysiajs/static";
import { Elysia } from "elysia";
import { systemClock } from "../base/clock.ts";
import { assembleAccount } from "../account/account.ts";
import { DEFAULT_KEYS, keyspace } from "../cluster/keyspace.ts";
import { accountSettings } from "../account/settings.ts";
import type { Account } from "../account/account.ts";
import { AccountSet } from "./account-set.ts";
import { RegexThread } from "../wechat/answering/regex-thread.ts";
import { accountChooser, serverWide } from "./accounts.ts";
import { accountsList } from "./accounts-list.ts";
import { deleteCli, getCli, postCli, putCli } from "./admin.ts";
import { adminDoor, preAuthBytes, type Handler } from "./admin-door.ts";
import { getToken } from "./token.ts";
import { getAsk } from "./ask.ts";
import { deleteMenu, getMenu, postMenu, putMenu } from "./menu.ts";
import { postReply } from "./reply.ts";
import { postTeach } from "./teach.ts";
import { getSynonyms } from "./synonyms.ts";
import { getRules } from "./rules.ts";
import { getReport } from "./report/route.ts";
import type { AppContext } from "./context.ts";
import { errorResponse, ok, refusal } from "./respond.ts";
import { deleteRevert, getRevert, matterOf, postRevert, putRevert } from "./revert.ts";
import { accountMedia, isSafeMediaPath, MEDIA_NAME, mediaFreshness } from "./media.ts";
import { pathOf } from "./request-target.ts";
import { DEFAULTS, type AppOptions } from "./app-options.ts";
import { RefusalLog } from "../wechat/door/refusals.ts";
import { ACCOUNT_NAME } from "../base/account-name.ts";

/** A store the single-account options must give. */
function need<T>(value: T | undefined, name: string): T {
  if (value === undefined) throw new Error(`createApp needs ${name} (or accounts)`);
  return value;
}

/**
 * The app: the account, the admin API's door and its routes, the callback's route and the media
 * folder — composed from their factories, each made once.
 */
export async function createApp(opts: AppOptions) {
  const clock = opts.clock ?? systemClock;
  const windowMs = opts.windowMs ?? DEFAULTS.windowMs;
  const maxUpload = opts.maxUpload ?? DEFAULTS.maxUpload;
  const logError = opts.logError ?? ((msg) => console.error(JSON.stringify({ t: new Date().toISOString(), level: "error", msg })));
  const logWarn = opts.logWarn ?? logError;
  const startedAt = clock.now();
  const door = adminDoor({
    keys: opts.keys,
    clock,
    windowMs,
    maxUpload,
    preAuthBytes: opts.preAuthBytes ?? preAuthBytes(DEFAULTS.preAuthUploads, maxUpload),
    limiter: { ...DEFAULTS.limiter, ...opts.limiter },
    spoolDir: opts.spoolDir ?? need((opts.read ?? opts.accounts?.[0]?.read)?.spoolDir, "spoolDir"),
    link: opts.cluster?.link ?? null,
    ...(opts.clientAddress ? { clientAddress: opts.clientAddress } : {}),
    logError,
  });
  const declared = opts.accounts ?? null;
  const stores = declared ?? [{ settings: accountSettings(opts.wechat, opts.ai), read: need(opts.read, "read"), write: need(opts.write, "write") }];
  // Several accounts run their regex rules on one thread, each with its own strikes and disabled rules.
  const regexThread = declared ? new RegexThread() : undefined;
  let listeningUrl = "http://localhost";
  let clockWarning: string | null = null;
  const cluster = opts.cluster;
  const set = new AccountSet({
    assemble: (store, settings, predecessor) =>
      assembleAccount(store, settings, {
        clock,
        log: declared ? (msg) => logError(`account ${settings.name}: ${msg}`) : logError,
        warn: declared ? (msg) => logWarn(`account ${settings.name}: ${msg}`) : logWarn,
        // A declared account's Redis names carry its name; the one account of a server without [accounts] keeps every earlier version's.
        cluster: opts.cluster ? { link: opts.cluster.link, instance: opts.cluster.instance, keys: declared ? keyspace(settings.name) : DEFAULT_KEYS } : null,
        ...(opts.responder ? { responder: opts.responder } : {}),
        ...(opts.platform !== undefined ? { platform: opts.platform } : {}),
        ...(regexThread ? { regexThread } : {}),
        ...(predecessor ? { predecessor } : {}),
      }),
    // One context per account, each made once, complete.
    contextOf: (account) => ({
      account: account.name,
      callbackPath: account.path,
      callbackConfigured: () => account.callback.configured,
      callbackEncryption: () => account.callback.encryption,
      mediaPrefix: declared ? `${account.name}/` : "",
      read: account.read,
      write: account.write,
      regex: account.regex,
      rules: account.rules,
      responder: account.responder,
      platform: account.platform,
      generator: account.generator,
      clock,
      startedAt,
      windowMs,
      maxMedia: opts.maxMedia ?? DEFAULTS.maxMedia,
      publicUrl: () => opts.publicUrl ?? listeningUrl,
      publicUrlGiven: opts.publicUrl !== undefined,
      clockWarning: () => clockWarning,
      cluster: cluster ? () => ({ ...cluster.status(), ...account.clusterStatus() }) : null,
      environmentKey: opts.environmentKey ?? null,
    }),
  });
  for (const { settings, ...store } of stores) await set.add(store, settings);
  const accounts = set.list;
  const contexts = set.contexts;
  const account = accounts[0];
  if (!account) throw new Error("createApp needs at least one account");
  const ctx = contexts.get(account.name) as AppContext;
  const choose = accountChooser(contexts, declared !== null);
  const signed = (handler: Handler) => door.signed(choose, handler);
  // The matter is compared as sent, never decoded: valid matters are plain words, and decoding
  // twice (the router already decodes its params) is how "%25" once became a 500.
  const withMatter =
    (fn: (ctx: AppContext, matter: ReturnType<typeof matterOf>, req: Parameters<Handler>[1]) => unknown): Handler =>
    (c, req, request) =>
      fn(c, matterOf(pathOf(request.url).slice("/api/cli/revert/".length)), req);

  // Several accounts' pictures are served by accountMedia, each from its own folder.
  const declaredMedia = declared ? set.media : null;
  const media = declaredMedia ? new Elysia() : await staticPlugin({
    assets: account.mediaDir,
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
      door.arrived(request);
      const path = pathOf(request.url);
      if (!path.startsWith("/media/")) return;
      // Checked before the static plugin joins the path onto the media folder.
      const readOnly = request.method === "GET" || request.method === "HEAD";
      if (!readOnly || !isSafeMediaPath(path)) return refusal("not_found", "no such file");
      if (declaredMedia) return (await accountMedia(request, path, declaredMedia)) ?? refusal("not_found", "no such file");
      // Kept in the database: fetched into the local folder the first time it is asked for here.
      const name = decodeURIComponent(path.slice("/media/".length));
      if (MEDIA_NAME.test(name)) await account.write.fetchMedia(name).catch(() => false);
    })
    .onAfterHandle(({ request, response }) => {
      const path = pathOf(request.url);
      if (!path.startsWith("/media/") || !(response instanceof Response) || response.status !== 200) return;
      return mediaFreshness(request, response, account.mediaDir, path);
    })
    .onError(({ code, error }) => {
      if (code === "NOT_FOUND") return refusal("not_found", "no such route");
      return errorResponse(error, logError);
    })
    .get("/healthz", () => ok({ status: "ok" }))
    .use(media)
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
    .get("/api/cli/rules", signed(getRules), none)
    .get("/api/cli/report", signed(getReport), none)
    .get("/api/cli/revert/:matter", signed(withMatter(getRevert)), none)
    .post("/api/cli/revert/:matter", signed(withMatter(postRevert)), none)
    .put("/api/cli/revert/:matter", signed(withMatter(putRevert)), none)
    .delete("/api/cli/revert/:matter", signed(withMatter(deleteRevert)), none)
    .get("/api/cli/accounts", door.signed((req) => (serverWide(req), ctx), () => accountsList(contexts)), none);
  // Each account's callback at its own path (listener.ts sends them straight to their handlers).
  // Several accounts' paths are looked up on each request: a reload adds and removes accounts.
  if (declared) {
    const base = account.path.slice(0, -`/${account.name}`.length);
    const callbackOf = (name: string) => set.get(name)?.callback;
    // Said in the log (a line per interval per reason): the console's URL still the single-account
    // server's /wechat, or an account not declared, is otherwise a 404 the operator never sees. Only
    // a name an account could have is noted (a scanner's /favicon.ico under a wx-path of "/" is not).
    const refused = new RefusalLog(logError, () => clock.monotonic());
    const gone = (name?: string) => {
      if (name === undefined) refused.note("bare_path", base);
      else if (ACCOUNT_NAME.test(name)) refused.note("no_account", `${base}/${name}`);
      return refusal("not_found", "no account answers at this path");
    };
    app
      .get(`${base}/:account`, ({ request, params }) => callbackOf(params.account)?.verify(request) ?? gone(params.account))
      .post(`${base}/:account`, ({ request, params }) => callbackOf(params.account)?.receive(request) ?? gone(params.account), none);
    if (base) app.get(base, () => gone()).post(base, () => gone(), none);
  } else {
    const cb = account.callback;
    app.get(account.path, ({ request }) => cb.verify(request)).post(account.path, ({ request }) => cb.receive(request), none);
  }
  // The listening server sends the callback straight to its handler (no per-request router context):
  // it is the hot path. app.handle() reaches the same handler through the routes above.
  return Object.assign(app, {
    /** The first (on a server without [accounts]: the one) account, and its context. */
    account,
    ctx,
    /** Every account, in the config file's order (a reload changes it in place). */
    accounts: accounts as readonly Account[],
    /** The served accounts, for a reload to add, replace and remove (account-set.ts). */
    accountSet: set,
    /** The address the server listens on, for media URLs when no --public-url was given. */
    listeningAt: (url: string) => void (listeningUrl = url),
    /** The clock disagrees with the newest stored data: health says so until the next check clears it. */
    warnClock: (warning: string | null) => void (clockWarning = warning),
  });
}

export type App = Awaited<ReturnType<typeof createApp>>;
