/**
 * A server listening on loopback in a throwaway folder, and the client run against it as an operator
 * runs it (an admin key from the environment): what the client tests that need a real socket share.
 */
import { join } from "node:path";
import { run } from "../../src/cli/index.ts";
import { startServer } from "../../src/server/serve.ts";
import { ADMIN, captureIO, tempDir } from "../helpers.ts";

type Options = Parameters<typeof startServer>[0];

export async function listening(over: Partial<Options> = {}) {
  const tmp = tempDir();
  const server = await startServer({
    dataDir: join(tmp.dir, "data"),
    host: "127.0.0.1",
    port: 0,
    windowMs: 5000,
    keep: 30,
    maxUpload: 256 * 1024,
    maxAuthFailures: 10,
    trustProxy: false,
    env: { REPLYD_APPKEY: ADMIN.appkey, REPLYD_SECRET: ADMIN.secret },
    log: () => {},
    say: () => {},
    ...over,
  });
  /** Runs a client command line against the listening server, in the test's folder. */
  const cli = async (...argv: string[]) => {
    const io = captureIO({ REPLYD_URL: server.url, REPLYD_APPKEY: ADMIN.appkey, REPLYD_SECRET: ADMIN.secret }, tmp.dir);
    const code = await run(argv, io);
    return { code, out: io.stdout.join("\n"), err: io.stderr.join("\n") };
  };
  return {
    server,
    dir: tmp.dir,
    cli,
    close: async () => {
      await server.stop();
      tmp.cleanup();
    },
  };
}
