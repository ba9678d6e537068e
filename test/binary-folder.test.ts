/** What dist/replyd leaves in its data folder: the lock and the pid the owner's alone, no lock journal, the pid gone after a clean stop. */
import { afterEach, beforeAll, expect, test } from "bun:test";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { buildIfMissing, runCleanups, spawnServer, type Cleanups } from "./binary-server.ts";
import { tempDir } from "./helpers.ts";

beforeAll(buildIfMissing);
const cleanups: Cleanups = [];
afterEach(() => runCleanups(cleanups));

test("serve.lock and serve.pid are 0600, the lock keeps no journal, and a clean stop removes serve.pid", async () => {
  const tmp = tempDir("replyd-folder-");
  cleanups.push(tmp.cleanup);
  const data = join(tmp.dir, "data");
  const s = await spawnServer(["--data", data, "--host", "127.0.0.1", "--port", "0"], { cwd: tmp.dir, cleanups, ms: 15_000 });
  expect(statSync(join(data, "serve.lock")).mode & 0o777).toBe(0o600);
  expect(statSync(join(data, "serve.pid")).mode & 0o777).toBe(0o600);
  expect(readdirSync(data).filter((f) => f.startsWith("serve.lock-"))).toEqual([]);
  expect(await s.stop()).toBe(0);
  expect(existsSync(join(data, "serve.pid"))).toBe(false);
  expect(existsSync(join(data, "serve.lock"))).toBe(true);
});
