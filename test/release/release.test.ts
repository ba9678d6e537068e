/**
 * scripts/release from this machine (issue 35 A): a binary for each machine operators use, named
 * and summed; each says its version, target and commit; linux-arm64 runs the client against a
 * server under qemu's user mode; each darwin binary is a Mach-O of its architecture with an ad-hoc
 * signature whose page hashes match; the Windows one's PE headers (Debian 12's wine 8.0 lacks the
 * bcryptprimitives.dll Bun's Windows runtime imports, so it cannot run there).
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import pkg from "../../package.json" with { type: "json" };
import { checkSignature } from "../../scripts/macho.ts";
import { build, commitOf, fileName, release, TARGETS } from "../../scripts/release.ts";
import { runCleanups, spawnServer, type Cleanups } from "../binary-server.ts";
import { tempDir } from "../helpers.ts";
import { readPe } from "./pe.ts";

const ROOT = resolve(import.meta.dir, "../..");
let tmp: ReturnType<typeof tempDir>;
let dir = "";
const path = (target: string) => join(dir, fileName(target));

beforeAll(() => {
  tmp = tempDir("replyd-release-");
  dir = join(tmp.dir, "release");
  release(dir);
}, 300_000);
afterAll(() => tmp?.cleanup());

test("a binary for each target, named replyd-VERSION-TARGET, SHA256SUMS that sha256sum -c takes, and the notices of the data they carry", () => {
  expect(readdirSync(dir).sort()).toEqual([...TARGETS.map((t) => fileName(t)), "NOTICES.md", "SHA256SUMS"].sort());
  expect(readFileSync(join(dir, "NOTICES.md"), "utf8")).toContain("WordNet 3.0 Copyright 2006 by Princeton University");
  expect(fileName("windows-x64")).toBe(`replyd-${pkg.version}-windows-x64.exe`);
  const lines = readFileSync(join(dir, "SHA256SUMS"), "utf8").trimEnd().split("\n");
  expect(lines).toHaveLength(TARGETS.length);
  for (const line of lines) {
    const [sum, name] = line.split("  ") as [string, string];
    expect(createHash("sha256").update(readFileSync(join(dir, name))).digest("hex")).toBe(sum);
  }
  const checked = Bun.spawnSync(["sha256sum", "-c", "SHA256SUMS"], { cwd: dir });
  expect(checked.exitCode).toBe(0);
});

test("the linux-x64 binary names its version, its target and the commit it was built from", () => {
  const r = Bun.spawnSync([path("linux-x64"), "--version", "--json"]);
  expect(JSON.parse(r.stdout.toString())).toEqual({ version: pkg.version, target: "linux-x64", commit: commitOf(), bun: Bun.version });
  const text = Bun.spawnSync([path("linux-x64"), "--version"]).stdout.toString().trim();
  expect(text).toBe(`replyd ${pkg.version} (linux-x64, commit ${commitOf()}; Bun ${Bun.version})`);
});

test("the linux-x64 binary carries the notices: replyd notices prints NOTICES.md run from anywhere", () => {
  const r = Bun.spawnSync([path("linux-x64"), "notices"], { cwd: tmp.dir });
  expect(r.exitCode).toBe(0);
  expect(r.stdout.toString().trimEnd()).toBe(readFileSync(join(ROOT, "NOTICES.md"), "utf8").trimEnd());
});

const QEMU = "/usr/bin/qemu-aarch64";
const ARM_LIBS = "/usr/aarch64-linux-gnu";

test("the linux-arm64 binary, under qemu's user mode, names its target and runs the client against a server", async () => {
  expect(existsSync(QEMU) && existsSync(ARM_LIBS)).toBe(true);
  const arm = (args: string[], env: Record<string, string> = {}) =>
    Bun.spawn([QEMU, "-L", ARM_LIBS, path("linux-arm64"), ...args], { env: { PATH: process.env.PATH ?? "", ...env }, stdout: "pipe", stderr: "pipe" });
  const v = arm(["--version", "--json"]);
  expect(JSON.parse(await new Response(v.stdout).text())).toMatchObject({ target: "linux-arm64", commit: commitOf() });
  // The x64 server this machine runs (the release's own), the arm64 client through qemu.
  const env = { REPLYD_APPKEY: "ops", REPLYD_SECRET: "0123456789abcdef0123" };
  const cleanups: Cleanups = [];
  try {
    const server = await spawnServer(["--data", join(tmp.dir, "data"), "--host", "127.0.0.1", "--port", "0"], { bin: path("linux-x64"), cwd: tmp.dir, cleanups, env, ms: 15_000 });
    const h = arm(["health", "--json"], { ...env, REPLYD_URL: server.url });
    const [body, code] = await Promise.all([new Response(h.stdout).text(), h.exited]);
    expect(code).toBe(0);
    expect(JSON.parse(body)).toMatchObject({ status: "ok", version: pkg.version });
  } finally {
    await runCleanups(cleanups);
  }
}, 120_000);

for (const [target, cpu] of [["darwin-arm64", "arm64"], ["darwin-x64", "x64"]] as const)
  test(`${target} is a Mach-O for ${cpu} with an ad-hoc signature whose page hashes all match`, () => {
    const check = checkSignature(readFileSync(path(target)));
    expect(check).toMatchObject({ cpu, adhoc: true, ident: "replyd", mismatched: 0, problem: null });
    expect(check.pages).toBeGreaterThan(20_000);
  });

test("Bun's own darwin-x64 output does not check (why every darwin binary is signed again)", () => {
  const raw = join(tmp.dir, "raw-darwin-x64");
  // Built as scripts/release builds it, but without the signing step.
  Bun.spawnSync([process.execPath, "build", join(ROOT, "src/main.ts"), "--compile", "--target=bun-darwin-x64", "--outfile", raw], { cwd: ROOT });
  expect(checkSignature(readFileSync(raw)).problem).not.toBeNull();
});

test("the windows-x64 binary is a PE32+ console program for x86-64 whose sections lie within the file", () => {
  const f = readFileSync(path("windows-x64"));
  const pe = readPe(f);
  expect({ machine: pe.machine, optionalMagic: pe.optionalMagic, subsystem: pe.subsystem }).toEqual({ machine: 0x8664, optionalMagic: 0x20b, subsystem: 3 });
  expect(pe.entryPoint).toBeGreaterThan(0);
  for (const s of pe.sections) expect(s.rawOffset + s.rawSize).toBeLessThanOrEqual(f.length);
  expect(pe.imports).toContain("kernel32.dll");
});

test("a build for a target it does not know is refused", () => {
  expect(() => build("plan9-x64", join(tmp.dir, "nope"))).toThrow("unknown target plan9-x64; known: linux-x64, linux-arm64, darwin-x64, darwin-arm64, windows-x64");
});
