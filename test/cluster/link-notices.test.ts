/** What the log says of the link to Redis (src/store/redis/link-notices.ts): each change once, a Redis at its limit once. */
import { expect, test } from "bun:test";
import { LinkNotices } from "../../src/store/redis/link-notices.ts";

function notices(flapMs = 60) {
  const said: string[] = [];
  let now = 1_000_000;
  const n = new LinkNotices("127.0.0.1:6379", (m) => said.push(`error: ${m}`), (m) => said.push(`info: ${m}`), flapMs, () => now);
  return { n, said, pass: (ms: number) => (now += ms) };
}

test("away and back, refusing and back: each change said once, the return as information", () => {
  const { n, said, pass } = notices();
  n.unreachable("Connection closed");
  pass(5_000);
  n.up();
  pass(5_000);
  n.refusing("OOM command not allowed");
  n.up();
  expect(said).toEqual([
    "error: Redis at 127.0.0.1:6379 is unreachable (Connection closed); trying again",
    "info: Redis at 127.0.0.1:6379 answers again",
    "error: Redis at 127.0.0.1:6379 refuses commands (OOM command not allowed); followers are answered by each instance alone until it takes them again",
    "info: Redis at 127.0.0.1:6379 answers again",
  ]);
  expect(n.backoff).toBe(1);
});

test("at its limit — taking a probe, refusing the next command — said once, probes spaced out, the return said once it has held", async () => {
  const { n, said, pass } = notices(60);
  n.refusing("OOM");
  n.up();
  for (let i = 0; i < 20; i++) {
    pass(9);
    n.refusing("OOM");
    n.up();
  }
  expect(said).toHaveLength(3);
  expect(said[2]).toStartWith("error: Redis at 127.0.0.1:6379 refuses commands again 9 ms after taking them (OOM): it is at a limit");
  expect(n.backoff).toBe(16);
  // Held past flapMs (real time: the notice waits on a timer): said, and the probes at their pace again.
  await Bun.sleep(120);
  expect(said.at(-1)).toBe("info: Redis at 127.0.0.1:6379 answers again, and has taken commands for 0.06 s");
  expect(said).toHaveLength(4);
  expect(n.backoff).toBe(1);
  n.close();
});

test("a refusal long after taking commands is a new one, said as such", () => {
  const { n, said, pass } = notices(60);
  n.up();
  pass(61);
  n.refusing("READONLY");
  expect(said.at(-1)).toStartWith("error: Redis at 127.0.0.1:6379 refuses commands (READONLY);");
});
