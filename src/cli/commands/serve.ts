import { resolve } from "node:path";
import { DEFAULTS } from "../../server/app.ts";
import { startServer, StartupError } from "../../server/serve.ts";
import { numberOption, sizeOption } from "../args.ts";
import type { CommandContext } from "../context.ts";
import { CLIError } from "../errors.ts";

/** Runs the server until SIGTERM or SIGINT, then drains in-flight requests and resolves. */
export async function serve(c: CommandContext): Promise<void> {
  const argv = c.argv;
  const opts = {
    dataDir: resolve(c.io.cwd, c.str("--data") ?? c.io.env.REPLYD_DATA ?? "replyd-data"),
    host: c.str("--host") ?? "0.0.0.0",
    port: numberOption(argv, "--port", 8080, 0, 65535),
    windowMs: numberOption(argv, "--window", DEFAULTS.windowMs / 1000, 0.05, 3600) * 1000,
    keep: numberOption(argv, "--keep", 30, 1, 10_000),
    maxUpload: sizeOption(argv, "--max-upload", DEFAULTS.maxUpload),
    maxAuthFailures: numberOption(argv, "--max-auth-failures", DEFAULTS.limiter.maxFailures, 1, 1_000_000),
    trustProxy: Boolean(c.flags.trustProxy),
    env: c.io.env,
  };
  let server;
  try {
    server = await startServer(opts);
  } catch (e) {
    if (e instanceof StartupError) throw new CLIError("startup", e.message);
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "EADDRINUSE") throw new CLIError("startup", `port ${opts.port} on ${opts.host} is already in use`);
    throw e;
  }
  await new Promise<void>((done) => {
    const stop = () => {
      process.off("SIGTERM", stop);
      process.off("SIGINT", stop);
      server.stop().then(done, done);
    };
    process.on("SIGTERM", stop);
    process.on("SIGINT", stop);
  });
}
