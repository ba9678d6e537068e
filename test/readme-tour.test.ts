/**
 * README's tour works as written on a fresh account (issue 35 D): every `$ replyd …` line from
 * "Bulk-load articles" to `replyd ask`, in order, through dist/replyd, with the files its
 * `$ cat FILE` blocks show. Lines that start a server (`serve`) are the server this test starts.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { BIN, buildIfMissing, keyPrinted, printedKey, runCleanups, spawnServer, type Cleanups } from "./binary-server.ts";
import { tempDir } from "./helpers.ts";

const ROOT = resolve(import.meta.dir, "..");
let tmp: ReturnType<typeof tempDir>;
let env: Record<string, string>;
const cleanups: Cleanups = [];

/** The tour's steps: files to write and commands to run, in the README's order. */
function tour(): ({ file: string; text: string } | { command: string })[] {
  const lines = readFileSync(join(ROOT, "README.md"), "utf8").split("\n");
  const from = lines.findIndex((l) => l.startsWith("Bulk-load articles"));
  const to = lines.findIndex((l, i) => i > from && /^\s{4}\$ replyd ask /.test(l));
  const steps: ({ file: string; text: string } | { command: string })[] = [];
  for (let i = from; i <= to; i++) {
    const line = lines[i] as string;
    const cat = /^ {4}\$ cat (\S+)$/.exec(line);
    if (cat) {
      const body: string[] = [];
      while (i + 1 <= to && /^ {4}(?!\$)/.test(lines[i + 1] as string)) body.push((lines[++i] as string).slice(4));
      steps.push({ file: cat[1] as string, text: `${body.join("\n")}\n` });
      continue;
    }
    const run = /^ {4}\$ (replyd .*)$/.exec(line);
    // A comment at the end of a line is the README's, not the shell's argument.
    if (run && !/^replyd serve\b/.test(run[1] as string)) steps.push({ command: (run[1] as string).replace(/\s+#\s.*$/, "") });
  }
  return steps;
}

beforeAll(async () => {
  buildIfMissing();
  tmp = tempDir("replyd-tour-");
  cleanups.push(tmp.cleanup);
  mkdirSync(join(tmp.dir, "bin"));
  symlinkSync(BIN, join(tmp.dir, "bin", "replyd"));
  const server = await spawnServer(["--data", join(tmp.dir, "data"), "--host", "127.0.0.1", "--port", "0"], { cwd: tmp.dir, cleanups, until: keyPrinted, ms: 15_000 });
  env = printedKey(server);
  // The cover picture the tour uploads: the smallest JPEG there is.
  writeFileSync(join(tmp.dir, "cover.jpg"), Buffer.from("ffd8ffe000104a46494600010100000100010000ffdb004300" + "01".repeat(64) + "ffc0000b080001000101011100ffc4001400010000000000000000000000000000000affda0008010100003f00d2cf20ffd9", "hex"));
});
afterAll(() => runCleanups(cleanups));

test("every step of README's tour, as written, succeeds on a fresh account", () => {
  const steps = tour();
  expect(steps.filter((s) => "command" in s).length).toBeGreaterThan(15);
  for (const step of steps) {
    if ("file" in step) {
      writeFileSync(join(tmp.dir, step.file), step.text);
      continue;
    }
    const r = Bun.spawnSync(["bash", "-c", step.command], { cwd: tmp.dir, env: { PATH: `${join(tmp.dir, "bin")}:${process.env.PATH ?? ""}`, HOME: tmp.dir, ...env } });
    expect({ command: step.command, code: r.exitCode, err: r.stderr.toString() }).toEqual({ command: step.command, code: 0, err: expect.any(String) });
  }
  // What the last step asked is answered with the article the tour added.
  const asked = Bun.spawnSync(["bash", "-c", 'replyd ask "还能退吗" --json'], { cwd: tmp.dir, env: { PATH: `${join(tmp.dir, "bin")}:${process.env.PATH ?? ""}`, HOME: tmp.dir, ...env } });
  expect(JSON.parse(asked.stdout.toString()).answer).toBe("answer:refund");
});
