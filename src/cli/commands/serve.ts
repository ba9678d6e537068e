import { resolve } from "node:path";
import { DEFAULTS } from "../../server/app.ts";
import { startServer, StartupError } from "../../server/serve.ts";
import { dbOption, numberOption, sizeOption } from "../args.ts";
import type { CommandContext } from "../context.ts";
import { CLIError } from "../errors.ts";

/** Runs the server until SIGTERM or SIGINT, then drains in-flight requests and resolves. */
export async function serve(c: CommandContext): Promise<void> {
  const argv = c.argv;
  const opts = {
    dataDir: resolve(c.io.cwd, c.str("--data") ?? c.io.env.REPLYD_DATA ?? "replyd-data"),
    db: dbOption(c.str("--db") ?? c.io.env.REPLYD_DB, c.io.env),
    redis: c.str("--redis") ?? c.io.env.REPLYD_REDIS,
    host: c.str("--host") ?? "0.0.0.0",
    port: numberOption(argv, "--port", 8080, 0, 65535),
    windowMs: numberOption(argv, "--window", DEFAULTS.windowMs / 1000, 0.05, 3600) * 1000,
    keep: numberOption(argv, "--keep", 30, 1, 10_000),
    maxUpload: sizeOption(argv, "--max-upload", DEFAULTS.maxUpload),
    maxAuthFailures: numberOption(argv, "--max-auth-failures", DEFAULTS.limiter.maxFailures, 1, 1_000_000),
    trustProxy: Boolean(c.flags.trustProxy),
    wechat: {
      token: c.str("--wx-token") ?? c.io.env.REPLYD_WX_TOKEN,
      aesKey: c.str("--wx-aeskey") ?? c.io.env.REPLYD_WX_AESKEY,
      appid: c.str("--wx-appid") ?? c.io.env.REPLYD_WX_APPID,
      path: c.str("--wx-path") ?? DEFAULTS.wxPath,
      mode: (c.str("--wx-mode") ?? c.io.env.REPLYD_WX_MODE ?? "safe") as "safe" | "compatible",
      secret: c.str("--wx-secret") ?? c.io.env.REPLYD_WX_SECRET,
      api: (c.str("--wx-api") ?? c.io.env.REPLYD_WX_API ?? "https://api.weixin.qq.com").replace(/\/+$/, ""),
    },
    publicUrl: c.str("--public-url") ?? c.io.env.REPLYD_PUBLIC_URL,
    maxMedia: sizeOption(argv, "--max-media", DEFAULTS.maxMedia),
    logDays: numberOption(argv, "--log-days", 30, 1, 3650),
    replyLimit: numberOption(argv, "--reply-limit", 5, 1, 1000),
    env: c.io.env,
  };
  const wx = opts.wechat;
  if (wx.path && !/^\/[A-Za-z0-9._~\/-]*$/.test(wx.path)) throw new CLIError("usage", "--wx-path must be a path like /wechat", 2);
  if (wx.token !== undefined && !/^[A-Za-z0-9]{3,32}$/.test(wx.token)) throw new CLIError("usage", "--wx-token must be 3–32 letters or digits (as the platform requires)", 2);
  if (wx.aesKey !== undefined && !/^[A-Za-z0-9+/]{43}$/.test(wx.aesKey)) throw new CLIError("usage", "--wx-aeskey must be the 43-character EncodingAESKey", 2);
  if (wx.aesKey && !wx.appid) throw new CLIError("usage", "--wx-aeskey needs --wx-appid: encrypted messages carry the appid and are checked against it", 2);
  if (wx.mode !== "safe" && wx.mode !== "compatible") throw new CLIError("usage", "--wx-mode must be safe (encrypted messages only) or compatible (plaintext too)", 2);
  if (wx.mode === "compatible" && !wx.aesKey) throw new CLIError("usage", "--wx-mode compatible needs --wx-aeskey: without a key every message is plaintext", 2);
  if (wx.secret !== undefined && !/^[A-Za-z0-9]{16,64}$/.test(wx.secret)) throw new CLIError("usage", "--wx-secret must be the account's AppSecret (letters and digits)", 2);
  if (wx.secret && !wx.appid) throw new CLIError("usage", "--wx-secret needs --wx-appid: the access token is asked for with both", 2);
  if (!/^https?:\/\/[^/]+/.test(wx.api)) throw new CLIError("usage", "--wx-api must be an http(s) address", 2);
  if (opts.redis !== undefined && !/^rediss?:\/\/[^\s]+$/.test(opts.redis)) throw new CLIError("usage", "--redis must be a redis:// (or rediss://) URL, like redis://127.0.0.1:6379", 2);
  if (opts.publicUrl && !/^https?:\/\/[^/]+/.test(opts.publicUrl)) throw new CLIError("usage", "--public-url must be an http(s) address", 2);
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
