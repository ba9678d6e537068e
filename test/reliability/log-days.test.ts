/**
 * --log-days kept by the clock through a listening server (issue 33 F): the message log and the
 * model calls' log are pruned when the server starts and then on a schedule (an hour; short here),
 * whether or not anything arrives. On each store (test/store/targets.ts STORES).
 */
import { afterEach, describe, expect, test } from "bun:test";
import { fixedClock } from "../../src/base/clock.ts";
import { startServer, type RunningServer } from "../../src/server/serve.ts";
import { openBackend } from "../../src/store/open.ts";
import type { NewGenerated } from "../../src/store/generated-log.ts";
import { ADMIN_ENV, body, serveOpts, signedRequest, T0, tempDir } from "../helpers.ts";
import { STORES, type StoreKind } from "../store/targets.ts";
import { testDatabase } from "../pg.ts";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const iso = (ms: number) => new Date(ms).toISOString();

const call = (msgKey: string, at: number): NewGenerated => ({
  at: iso(at),
  msg_key: msgKey,
  openid: "o_quiet",
  question: "还能退款吗",
  model: "m1",
  sources: [],
  output: "可以。",
  answer: null,
  cited: [],
  outcome: "refused:uncited",
  detail: null,
  ms: 800,
  tokens_prompt: 10,
  tokens_completion: 3,
  delivered_at: null,
});

let cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.reverse()) await c();
  cleanups = [];
});

/** A data folder or database holding one message and one model call at `at`, as a server left it. */
async function storeWith(kind: StoreKind, at: number): Promise<{ dir: string; db: string | undefined }> {
  const tmp = tempDir();
  const pg = kind === "postgres" ? await testDatabase() : null;
  cleanups.push(async () => {
    await pg?.drop();
    tmp.cleanup();
  });
  const backend = await openBackend(pg?.url ?? tmp.dir, { clock: fixedClock(at), keep: 5, extraKeys: [], firstKey: false, logError: (m) => console.error(m) });
  backend.write.log.add({ received_ms: at, msg_key: "m:quiet", from_user: "o_quiet", type: "text", event: null, content: "还能退款吗", answer: "fallback", unmatched: true });
  await backend.write.generated.add(call("m:quiet", at));
  await backend.close();
  return { dir: tmp.dir, db: pg?.url };
}

async function serve(where: { dir: string; db: string | undefined }, clock: ReturnType<typeof fixedClock>, lines: string[], pruneEveryMs?: number): Promise<RunningServer> {
  const server = await startServer(
    serveOpts(where.dir, { ...(where.db ? { db: where.db } : {}), env: ADMIN_ENV, clock, logDays: 1, ...(pruneEveryMs ? { pruneEveryMs } : {}), log: (l) => lines.push(l) }),
  );
  cleanups.push(async () => void (await server.stop()));
  return server;
}

/** What the inbox and the model calls' log hold, asked through the listening server. */
async function held(server: RunningServer, clock: ReturnType<typeof fixedClock>): Promise<{ messages: number; calls: number }> {
  const ask = async (inbox: string) => (await body(await fetch(signedRequest("GET", "/api/cli", { nowMs: clock.now(), base: server.url, fields: [["inbox", inbox]] })))).data.total as number;
  return { messages: await ask("all"), calls: await ask("ai") };
}

describe.each(STORES)("%s", (kind) => {
  test("a ten-day-old message and model call are gone once the server listens with --log-days 1, nothing else logged", async () => {
    const where = await storeWith(kind, T0 - 10 * DAY);
    const clock = fixedClock(T0);
    const lines: string[] = [];
    const server = await serve(where, clock, lines);
    expect(await held(server, clock)).toEqual({ messages: 0, calls: 0 });
    expect(lines.map((l) => JSON.parse(l)).find((l) => l.event === "log_pruned")).toMatchObject({ log_days: 1, messages: 1, model_calls: 1 });
  });

  test("an entry that ages past --log-days while the server is idle is gone after the next scheduled prune", async () => {
    const where = await storeWith(kind, T0 - 23 * HOUR);
    const clock = fixedClock(T0);
    const lines: string[] = [];
    const server = await serve(where, clock, lines, 50);
    // A day old at most: kept by the start's prune and by the scheduled ones after it.
    await Bun.sleep(300);
    expect(await held(server, clock)).toEqual({ messages: 1, calls: 1 });
    // Two hours pass with nothing arriving: the entry is now older than the day kept.
    clock.advance(2 * HOUR);
    let now = await held(server, clock);
    for (let i = 0; i < 200 && (now.messages || now.calls); i++) {
      await Bun.sleep(25);
      now = await held(server, clock);
    }
    expect(now).toEqual({ messages: 0, calls: 0 });
    expect(lines.filter((l) => l.includes('"log_pruned"')).length).toBe(1);
  });
});
