import { resolve } from "node:path";
import { startServer, StartupError } from "../../server/serve.ts";
import type { CommandContext } from "../context.ts";
import { CLIError } from "../errors.ts";
import { describeSettings, resolveSettings } from "../settings.ts";
import { defineCommand } from "../command.ts";
import { formatBytes } from "../args.ts";
import { SERVE_SETTINGS, type Setting } from "../settings.ts";

/** Runs the server until SIGTERM or SIGINT, then drains in-flight requests and resolves. */
export async function serve(c: CommandContext): Promise<void> {
  const settings = resolveSettings(c.argv, c.io.env, c.io.cwd);
  const v = settings.values;
  for (const warning of settings.warnings) c.io.err(`replyd: warning: ${warning}`);
  if (c.flags.checkConfig) return c.io.out(describeSettings(settings));
  const opts = {
    dataDir: resolve(c.io.cwd, v.data),
    db: v.db,
    redis: v.redis,
    host: v.host,
    port: v.port,
    windowMs: v.window * 1000,
    keep: v.keep,
    maxUpload: v["max-upload"],
    maxAuthFailures: v["max-auth-failures"],
    trustProxy: v["trust-proxy"],
    wechat: {
      token: v["wx-token"],
      aesKey: v["wx-aeskey"],
      appid: v["wx-appid"],
      path: v["wx-path"],
      mode: v["wx-mode"] as "safe" | "compatible",
      secret: v["wx-secret"],
      api: v["wx-api"],
    },
    publicUrl: v["public-url"],
    maxMedia: v["max-media"],
    logDays: v["log-days"],
    replyLimit: v["reply-limit"],
    ...(v["ai-url"] !== undefined || v["ai-model"] !== undefined
      ? {
          ai: {
            endpoint: { base: v["ai-url"] ?? "", model: v["ai-model"] ?? "", timeoutMs: v["ai-timeout"] * 1000, ...(v["ai-key"] ? { key: v["ai-key"] } : {}) },
            caps: { perFollower: v["ai-per-follower"], perMinute: v["ai-per-minute"], daily: v["ai-daily"], concurrency: v["ai-concurrency"] },
          },
        }
      : {}),
    env: c.io.env,
  };
  // What one setting needs of another.
  const wx = opts.wechat;
  if (wx.aesKey && !wx.appid) throw new CLIError("usage", "--wx-aeskey needs --wx-appid: encrypted messages carry the appid and are checked against it", 2);
  if (wx.mode === "compatible" && !wx.aesKey) throw new CLIError("usage", "--wx-mode compatible needs --wx-aeskey: without a key every message is plaintext", 2);
  if (wx.secret && !wx.appid) throw new CLIError("usage", "--wx-secret needs --wx-appid: the access token is asked for with both", 2);
  if ((v["ai-url"] === undefined) !== (v["ai-model"] === undefined))
    throw new CLIError("usage", v["ai-url"] === undefined ? "--ai-model needs --ai-url: the model's base address" : "--ai-url needs --ai-model: the name of the model to ask", 2);
  if (v["ai-key"] !== undefined && v["ai-url"] === undefined) throw new CLIError("usage", "REPLYD_AI_KEY is set but no --ai-url: the key goes with a model's address", 2);
  let server;
  try {
    server = await startServer(opts);
  } catch (e) {
    if (e instanceof StartupError) throw new CLIError("startup", e.message);
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "EADDRINUSE") throw new CLIError("startup", `port ${opts.port} on ${opts.host} is already in use`);
    throw e;
  }
  const { lost } = await new Promise<{ lost: number }>((done) => {
    const stop = () => {
      process.off("SIGTERM", stop);
      process.off("SIGINT", stop);
      server.stop().then(done, () => done({ lost: 0 }));
    };
    process.on("SIGTERM", stop);
    process.on("SIGINT", stop);
  });
  // Never exit 0 having dropped messages that followers were answered for.
  if (lost) throw new CLIError("messages_lost", `${lost} follower messages were answered but could not be logged or kept (${opts.db ? "the database could not be reached" : "the disk is full"})`);
}

export const serveCommand = defineCommand({
  usage: "serve",
  summary: "run the server",
  description:
    "Runs the server until SIGTERM or SIGINT. Its settings come from the flags, the environment, a config file (--config) and the defaults, in that order (docs/operations.md); --check-config prints them. On first start without keys it makes one admin key and prints it once. A model's key (--ai-url) is read from REPLYD_AI_KEY or ai-key in the config file, never from a flag.",
  examples: ["replyd serve", "REPLYD_WX_SECRET=… replyd serve --config /etc/replyd.toml", "replyd serve --db postgres://replyd@db/replyd --redis redis://cache:6379", "replyd serve --config /etc/replyd.toml --check-config"],
  // Its options are its settings (settings.ts), declared there once.
  options: [
    { flags: "--config <file>", help: "read settings from this TOML file (env REPLYD_CONFIG): flag > environment > file > default" },
    { flags: "--check-config", help: "print the settings in effect (secrets hidden) and where each came from, then exit" },
    ...(Object.values(SERVE_SETTINGS) as Setting[]).filter((s) => !s.noFlag).map((s) => ({
      flags: s.boolean ? `--${s.name}` : `--${s.name} <value>`,
      help: `${s.help}${s.env ? ` (env ${s.env})` : ""}`,
      ...(s.default !== undefined && !s.boolean ? { default: s.bytes ? formatBytes(Number(s.default)) : (s.default as string | number) } : {}),
    })),
  ],
  run: serve,
});
