import { expect, test } from "bun:test";
import { join, resolve } from "node:path";
import { BIN, buildIfMissing } from "../binary-server.ts";

const ROOT = resolve(import.meta.dir, "../..");

// The short version of ./scripts/crash-test (the full one is 50 trials per store: see docs/reliability.md).
for (const store of ["sqlite", "postgres"]) {
  test(`${store}: kill -9 during init imports and restores leaves the old state or the new one, whole, served and writable; during a flood the log loses only the last moments`, async () => {
    buildIfMissing();
    const p = Bun.spawn([process.execPath, join(ROOT, "scripts/crash-test.ts"), "--store", store, "--trials", "4", "--articles", "5000", "--log-trials", "2", "--bin", BIN], {
      cwd: ROOT,
      stdout: "pipe",
      stderr: "pipe",
    });
    const [code, out, err] = await Promise.all([p.exited, new Response(p.stdout).text(), new Response(p.stderr).text()]);
    const report = JSON.parse(out.trim().split("\n").pop() as string);
    expect({ code, failures: report.failures, err: code === 0 ? "" : err }).toEqual({ code: 0, failures: 0, err: "" });
    expect(report.store).toBe(store);
    expect(report.old_state + report.new_state).toBe(4);
    expect(report.log_trials).toBe(2);
    expect(report.acked).toBeGreaterThan(50);
  }, 120_000);
}
