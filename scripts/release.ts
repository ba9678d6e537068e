/**
 * replyd for every machine operators use (docs/install.md), from this one: Bun compiles the same
 * source for each target, fetching the target's runtime from the npm registry the first time.
 * Each binary names its version, target and commit (`replyd --version`); each darwin binary is
 * signed again ad hoc (scripts/macho.ts) and checked; SHA256SUMS lists them all; NOTICES.md (the
 * notices of the data the binary carries) goes beside them.
 *
 *   bun scripts/release.ts [--targets linux-x64,darwin-arm64,…] [--out-dir dist/release]
 *   bun scripts/release.ts --host --out dist/replyd      this machine only (scripts/build)
 */
import { createHash } from "node:crypto";
import { copyFileSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import pkg from "../package.json" with { type: "json" };
import { checkSignature, signAdHoc } from "./macho.ts";

export const TARGETS = ["linux-x64", "linux-arm64", "darwin-x64", "darwin-arm64", "windows-x64"] as const;
export type Target = (typeof TARGETS)[number];

/** The program and the workers it starts: each an entry point the binary carries (new Worker() finds them by path). */
const ENTRIES = ["src/main.ts", "src/store/model/search-worker.ts", "src/store/sqlite/log-worker.ts", "src/wechat/answering/regex-worker.ts"];
const ROOT = resolve(import.meta.dir, "..");

export const hostTarget = (): string => `${process.platform === "win32" ? "windows" : process.platform}-${process.arch}`;

/** The commit built from, short, with "+" when the tree holds changes; "unknown" outside a git checkout. */
export function commitOf(root = ROOT): string {
  const git = (...args: string[]) => Bun.spawnSync(["git", "-C", root, ...args], { stderr: "ignore" });
  const head = git("rev-parse", "--short=12", "HEAD");
  if (head.exitCode !== 0) return "unknown";
  const dirty = git("status", "--porcelain", "--untracked-files=no").stdout.toString().trim() !== "";
  return head.stdout.toString().trim() + (dirty ? "+" : "");
}

export const fileName = (target: string, version = pkg.version) => `replyd-${version}-${target}${target.startsWith("windows") ? ".exe" : ""}`;

/** Compiles replyd for `target` into `out` (signed and checked when it is a darwin binary). */
export function build(target: string, out: string, commit = commitOf()): void {
  if (!(TARGETS as readonly string[]).includes(target)) throw new Error(`unknown target ${target}; known: ${TARGETS.join(", ")}`);
  // Bun gives a Windows binary's name ".exe" when it does not end with it.
  const tmp = out.endsWith(".exe") ? `${out.slice(0, -4)}.tmp.exe` : `${out}.tmp`;
  // Whitespace/syntax minification only: identifier renaming breaks Elysia's compiled handlers.
  const args = [
    "build",
    ...ENTRIES,
    "--compile",
    "--minify-whitespace",
    "--minify-syntax",
    // Always named: the runtime Bun takes for its own machine could be another variant of it (baseline, musl).
    `--target=bun-${target}`,
    "--define",
    `REPLYD_BUILD_TARGET=${JSON.stringify(target)}`,
    "--define",
    `REPLYD_BUILD_COMMIT=${JSON.stringify(commit)}`,
    "--outfile",
    tmp,
  ];
  const r = Bun.spawnSync([process.execPath, ...args], { cwd: ROOT, stdout: "inherit", stderr: "inherit" });
  if (r.exitCode !== 0) throw new Error(`bun build for ${target} failed (exit ${r.exitCode})`);
  if (target.startsWith("darwin")) {
    const signed = signAdHoc(readFileSync(tmp), "replyd");
    const check = checkSignature(signed);
    if (check.problem || !check.adhoc) throw new Error(`the ${target} signature does not check: ${check.problem ?? "not ad hoc"}`);
    writeFileSync(tmp, signed, { mode: 0o755 });
  }
  renameSync(tmp, out);
}

const sha256 = (path: string) => createHash("sha256").update(readFileSync(path)).digest("hex");

/** Every target into `dir`, SHA256SUMS (as sha256sum writes and `sha256sum -c` reads it) and NOTICES.md. */
export function release(dir: string, targets: readonly string[] = TARGETS): string[] {
  mkdirSync(dir, { recursive: true });
  const commit = commitOf();
  const names: string[] = [];
  for (const t of targets) {
    const name = fileName(t);
    console.error(`replyd: building ${name}`);
    build(t, join(dir, name), commit);
    names.push(name);
  }
  writeFileSync(join(dir, "SHA256SUMS"), names.map((n) => `${sha256(join(dir, n))}  ${n}\n`).join(""));
  copyFileSync(join(ROOT, "NOTICES.md"), join(dir, "NOTICES.md"));
  return names;
}

if (import.meta.main) {
  const argv = process.argv.slice(2);
  const value = (flag: string) => {
    const i = argv.indexOf(flag);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  try {
    if (argv.includes("--host")) {
      const out = resolve(value("--out") ?? join(ROOT, "dist", "replyd"));
      mkdirSync(dirname(out), { recursive: true });
      build(hostTarget(), out);
    } else {
      const targets = value("--targets")?.split(",") ?? [...TARGETS];
      const dir = resolve(value("--out-dir") ?? join(ROOT, "dist", "release"));
      rmSync(join(dir, "SHA256SUMS"), { force: true });
      for (const n of release(dir, targets)) console.log(join(basename(dir), n));
      console.log(join(basename(dir), "SHA256SUMS"));
      console.log(join(basename(dir), "NOTICES.md"));
    }
  } catch (e) {
    console.error(`replyd: ${(e as Error).message}`);
    process.exit(1);
  }
}
