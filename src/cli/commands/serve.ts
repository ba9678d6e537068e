import { resolve } from "node:path";
import type { ServeOptions } from "../../server/serve-options.ts";
import { startServer, StartupError } from "../../server/serve.ts";
import { checkServeOptions, environmentKeyNotice, SettingsError, type CheckedSettings } from "../../server/serve-checks.ts";
import type { CommandContext } from "../context.ts";
import { CLIError } from "../errors.ts";
import { SERVE_SETTINGS, type Setting } from "../setting-defs.ts";
import { accountShown, describeSettings, resolveSettings, settingsShown, type ResolvedAccount, type ResolvedSettings } from "../settings.ts";
import type { AiOptions, CallbackFlags } from "../../account/settings.ts";
import { defineCommand } from "../command.ts";
import { formatBytes } from "../args.ts";
import { signalReload } from "./serve-reload.ts";

type AccountValues = ResolvedAccount["values"];

/** The callback's and the platform's settings of an account (the server's own, without [accounts]). */
const wechatOf = (v: AccountValues, path: string): CallbackFlags => ({
  token: v["wx-token"],
  aesKey: v["wx-aeskey"],
  appid: v["wx-appid"],
  path,
  mode: v["wx-mode"] as "safe" | "compatible",
  secret: v["wx-secret"],
  api: v["wx-api"],
  ...(v["wx-id"] !== undefined ? { id: v["wx-id"] } : {}),
});

/** The model's settings, passed on when any is set, so that the checks see one set without the others. */
const aiOf = (v: AccountValues): { ai?: AiOptions } =>
  v["ai-url"] !== undefined || v["ai-model"] !== undefined || v["ai-key"] !== undefined
    ? {
        ai: {
          endpoint: { base: v["ai-url"] ?? "", model: v["ai-model"] ?? "", timeoutMs: v["ai-timeout"] * 1000, ...(v["ai-key"] ? { key: v["ai-key"] } : {}) },
          caps: { perFollower: v["ai-per-follower"], perMinute: v["ai-per-minute"], daily: v["ai-daily"], concurrency: v["ai-concurrency"] },
        },
      }
    : {};

/** The server's options from the resolved settings. */
function serveOptions(r: ResolvedSettings, io: CommandContext["io"]): ServeOptions {
  const v = r.values;
  return {
    dataDir: resolve(io.cwd, v.data),
    db: v.db,
    redis: v.redis,
    host: v.host,
    port: v.port,
    windowMs: v.window * 1000,
    keep: v.keep,
    maxUpload: v["max-upload"],
    maxAuthFailures: v["max-auth-failures"],
    trustProxy: v["trust-proxy"],
    wechat: wechatOf(v, v["wx-path"]),
    // The callback of each at <wx-path>/NAME.
    ...(r.accounts ? { accounts: r.accounts.map((a) => ({ name: a.name, wechat: wechatOf(a.values, `${v["wx-path"].replace(/\/+$/, "")}/${a.name}`), ...aiOf(a.values) })) } : {}),
    publicUrl: v["public-url"],
    maxMedia: v["max-media"],
    logDays: v["log-days"],
    replyLimit: v["reply-limit"],
    ...aiOf(v),
    env: io.env,
  };
}

/** A refusal of the settings exits 2, as a usage error, from serve and --check-config alike. */
const settingsRefused = (e: unknown): never => {
  throw e instanceof SettingsError ? new CLIError("usage", e.message, 2) : e;
};

/** Runs the server until SIGTERM or SIGINT, then drains in-flight requests and resolves. */
export async function serve(c: CommandContext): Promise<void> {
  const settings = resolveSettings(c.argv, c.io.env, c.io.cwd);
  for (const warning of settings.warnings) c.io.err(`replyd: warning: ${warning}`);
  const opts = serveOptions(settings, c.io);
  if (c.flags.checkConfig) {
    // The checks serve runs before it opens anything, the same function: what passes here, serve starts with.
    let checked: CheckedSettings;
    try {
      checked = checkServeOptions(opts);
    } catch (e) {
      return settingsRefused(e);
    }
    const accounts = settings.accounts?.map((a, i) => ({ name: a.name, path: opts.accounts?.[i]?.wechat.path, settings: accountShown(a) })) ?? null;
    for (const warning of checked.warnings) c.io.err(`replyd: warning: ${warning}`);
    if (c.json) c.io.out(JSON.stringify({ ok: true, settings: settingsShown(settings), accounts, warnings: [...settings.warnings, ...checked.warnings], environment_key: checked.environmentKey?.appkey ?? null }, null, 2));
    else c.io.out(describeSettings(settings));
    if (checked.environmentKey && !c.json) c.io.err(environmentKeyNotice(checked.environmentKey.appkey));
    return;
  }
  if (c.flags.reload) {
    try {
      for (const warning of checkServeOptions(opts).warnings) c.io.err(`replyd: warning: ${warning}`);
    } catch (e) {
      return settingsRefused(e);
    }
    return signalReload(c, opts.dataDir);
  }
  let server;
  try {
    server = await startServer(opts);
  } catch (e) {
    if (e instanceof SettingsError) return settingsRefused(e);
    if (e instanceof StartupError) throw new CLIError("startup", e.message);
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "EADDRINUSE") throw new CLIError("startup", `port ${opts.port} on ${opts.host} is already in use`);
    throw e;
  }
  const reload = () => void server.reload(() => serveOptions(resolveSettings(c.argv, c.io.env, c.io.cwd), c.io));
  const { lost } = await new Promise<{ lost: number }>((done) => {
    const stop = () => {
      process.off("SIGTERM", stop);
      process.off("SIGINT", stop);
      server.stop().then(done, () => done({ lost: 0 }));
    };
    process.on("SIGTERM", stop);
    process.on("SIGINT", stop);
    // The config file read again, its accounts applied (server/reload.ts); a file that no longer
    // parses is refused there and logged, and the server goes on as it was.
    process.on("SIGHUP", reload);
  });
  process.off("SIGHUP", reload);
  // Never exit 0 having dropped messages that followers were answered for.
  if (lost) throw new CLIError("messages_lost", `${lost} follower messages were answered but could not be logged or kept (${opts.db ? "the database could not be reached" : "the disk is full"})`);
}

export const serveCommand = defineCommand({
  usage: "serve",
  summary: "run the server",
  description:
    "Runs the server until SIGTERM or SIGINT; SIGHUP (or serve --reload) makes it read its config file's [accounts] again. Its settings come from the flags, the environment, a config file (--config) and the defaults, in that order (docs/operations.md); --check-config prints them. On first start without keys it makes one admin key and prints it once. A model's key (--ai-url) is read from REPLYD_AI_KEY or ai-key in the config file, never from a flag.",
  examples: ["replyd serve", "REPLYD_WX_SECRET=… replyd serve --config /etc/replyd.toml", "replyd serve --db postgres://replyd@db/replyd --redis redis://cache:6379", "replyd serve --config /etc/replyd.toml --check-config", "replyd serve --config /etc/replyd.toml --data /var/lib/replyd --reload"],
  // Its options are its settings (setting-defs.ts), declared there once.
  options: [
    { flags: "--config <file>", help: "read settings from this TOML file (env REPLYD_CONFIG): flag > environment > file > default" },
    { flags: "--reload", help: "tell the server running on this --data to read its config file again (SIGHUP): accounts added, changed or removed without a restart; prints what changed, or why nothing did (exit 1)" },
    { flags: "--check-config", help: "run the checks serve runs on its settings (exit 2 as serve would), print them (secrets hidden) and where each came from, then exit" },
    ...(Object.values(SERVE_SETTINGS) as Setting[]).filter((s) => !s.noFlag).map((s) => ({
      flags: s.boolean ? `--${s.name}` : `--${s.name} <value>`,
      help: `${s.help}${s.env ? ` (env ${s.env})` : ""}`,
      ...(s.default !== undefined && !s.boolean ? { default: s.bytes ? formatBytes(Number(s.default)) : (s.default as string | number) } : {}),
    })),
  ],
  local: true,
  run: serve,
});
