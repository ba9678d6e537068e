import { expect, test } from "bun:test";
import { join, resolve } from "node:path";

const ROOT = resolve(import.meta.dir, "../..");

// A 3-second version of ./scripts/soak (the documented run is 60 s): mixed load, zero errors,
// and every request in flight at SIGTERM answered.
test("soak: mixed traffic without errors, bulk work mid-run, SIGTERM cuts nothing", async () => {
  const which = Bun.spawnSync(["sh", "-c", "command -v wrk"]);
  if (which.exitCode !== 0) throw new Error("the soak needs wrk: apt-get install wrk (./scripts/test installs it when it can)");
  const p = Bun.spawn([process.execPath, join(ROOT, "scripts/soak.ts"), "--duration", "3", "--connections", "8"], { cwd: ROOT, stdout: "pipe", stderr: "pipe" });
  const [code, out, err] = await Promise.all([p.exited, new Response(p.stdout).text(), new Response(p.stderr).text()]);
  const report = JSON.parse(out.trim().split("\n").pop() as string);
  expect({ code, err: code === 0 ? "" : err }).toEqual({ code: 0, err: "" });
  expect(report.callback.requests).toBeGreaterThan(100);
  expect(report.callback).toMatchObject({ non2xx: 0, socket_errors: 0 });
  expect(report.admin_reads.errors).toBe(0);
  expect(report.sigterm).toEqual({ in_flight: 20, answered_200: 20, exit_code: 0 });
}, 120_000);
