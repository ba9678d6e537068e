/**
 * What the cluster suites share: one Redis and one temp folder per file, and after each test its
 * instances stopped, its database dropped and Redis emptied — no nonce, count or answer of the
 * test before.
 */
import { afterAll, afterEach, beforeAll } from "bun:test";
import { RedisClient } from "bun";
import type { RunningServer } from "../../src/server/serve.ts";
import { tempDir } from "../helpers.ts";
import { startRedis, type Redis } from "../redis.ts";

export interface ClusterSuite {
  redis: Redis;
  tmp: ReturnType<typeof tempDir>;
  /** The instances a test started: stopped after it. */
  running: RunningServer[];
  /** The test's database: dropped after it. */
  db: { url: string; drop(): Promise<void> } | null;
}

export function clusterSuite(prefix: string): ClusterSuite {
  const suite = { running: [], db: null } as unknown as ClusterSuite;
  beforeAll(async () => {
    suite.redis = await startRedis();
    suite.tmp = tempDir(prefix);
  });
  afterAll(() => {
    suite.redis?.stop();
    suite.tmp?.cleanup();
  });
  afterEach(async () => {
    for (const s of suite.running.splice(0)) await s.stop();
    await suite.db?.drop().catch(() => {});
    const c = new RedisClient(suite.redis.url);
    await c.send("FLUSHALL", []);
    c.close();
  });
  return suite;
}
