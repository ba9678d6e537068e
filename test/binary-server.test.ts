/**
 * test/binary-server.ts, the one way the binary tests start dist/replyd serve: a start that fails
 * says why without the first key's secret, a refused start is not waited out, and the stop it puts
 * in the cleanups sends the signal asked for and reads the output to the end.
 */
import { afterEach, beforeAll, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { buildIfMissing, runCleanups, spawnServer, type Cleanups } from "./binary-server.ts";
import { tempDir } from "./helpers.ts";

beforeAll(buildIfMissing);
const cleanups: Cleanups = [];
afterEach(() => runCleanups(cleanups));

function folder(): string {
  const tmp = tempDir("replyd-binserver-");
  cleanups.push(tmp.cleanup);
  return tmp.dir;
}
const failure = async (started: Promise<unknown>) => {
  try {
    await started;
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error("the server started");
};

test("a serve that exits refusing its settings: the error names the exit code and stderr, thrown without waiting out the bound", async () => {
  const dir = folder();
  const at = Date.now();
  const message = await failure(spawnServer(["--data", "data", "--port", "70000"], { cwd: dir, cleanups, ms: 60_000 }));
  // A refusal takes milliseconds; half the bound leaves a loaded machine room and still shows it was not waited for.
  expect(Date.now() - at).toBeLessThan(30_000);
  expect(message).toContain("the server did not start: it exited (2)");
  expect(message).toContain("--port must be a number from 0 to 65535");
});

test("a start that never meets `until`: the error shows the first key's notice with its secret left out", async () => {
  const dir = folder();
  const message = await failure(spawnServer(["--data", "data", "--host", "127.0.0.1", "--port", "0"], { cwd: dir, cleanups, until: () => false, ms: 3000 }));
  const { keys } = JSON.parse(readFileSync(join(dir, "data", "keys.json"), "utf8")) as { keys: { secret: string }[] };
  expect(keys).toHaveLength(1);
  // First, and as a boolean: a failure here must not print the message that holds the secret.
  expect(message.includes(keys[0]?.secret as string)).toBe(false);
  expect(message).toContain("the server did not start within 3000 ms");
  expect(message).toContain('"event":"listening"');
  expect(message).toContain("REPLYD_SECRET=…");
});

test("the stop in the cleanups: SIGTERM by default (exit 0, the stopped line read), SIGKILL when stopWith says so", async () => {
  const dir = folder();
  const env = { REPLYD_APPKEY: "ops", REPLYD_SECRET: "0123456789abcdef0123" };
  const own: Cleanups = [];
  const termed = await spawnServer(["--data", "a", "--host", "127.0.0.1", "--port", "0"], { cwd: dir, env, cleanups: own });
  const killed = await spawnServer(["--data", "b", "--host", "127.0.0.1", "--port", "0"], { cwd: dir, env, cleanups: own, stopWith: "SIGKILL" });
  await runCleanups(own);
  expect(own).toEqual([]);
  expect({ code: termed.proc.exitCode, signal: termed.proc.signalCode }).toEqual({ code: 0, signal: null });
  expect(termed.out()).toContain('"event":"stopped"');
  expect(killed.proc.signalCode).toBe("SIGKILL");
  expect(killed.out()).not.toContain('"event":"stopped"');
});
