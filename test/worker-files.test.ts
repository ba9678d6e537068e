/**
 * The worker threads' files refuse to run on the main thread (src/base/worker-only.ts): each sets
 * `self.onmessage` at its top level, which on the main thread would keep the process alive forever.
 * Each is imported in a process of its own, which must end at once with an error naming the file —
 * not hang.
 */
import { expect, test } from "bun:test";
import { join } from "node:path";

const ROOT = join(import.meta.dir, "..");
const WORKER_FILES = ["src/store/model/search-worker.ts", "src/store/sqlite/log-worker.ts", "src/wechat/answering/regex-worker.ts"];

for (const file of WORKER_FILES) {
  test(`${file} imported on the main thread: the process exits non-zero with an error naming the file, instead of staying alive`, async () => {
    const p = Bun.spawn([process.execPath, "-e", `import ${JSON.stringify(join(ROOT, file))};`], { cwd: ROOT, stdout: "pipe", stderr: "pipe" });
    try {
      // It ends within a second when refused; a loaded machine gets 30 s. Without the guard it never ends.
      const ended = await Promise.race([p.exited, Bun.sleep(30_000).then(() => "still running after 30 s")]);
      p.kill();
      const err = await new Response(p.stderr).text();
      expect(typeof ended === "number" && ended !== 0 ? "exited non-zero" : ended).toBe("exited non-zero");
      expect(err).toContain(`error: ${file} must be started as a Worker (new Worker(...)), not imported`);
    } finally {
      p.kill();
    }
  }, 60_000);
}
