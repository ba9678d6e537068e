/**
 * The ad-hoc signer on its own (scripts/macho.ts): it writes what Apple's linker writes — signing
 * Bun's arm64 runtime again gives its own linker signature back byte for byte — and the check finds
 * a single changed byte.
 */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { checkSignature, MachOError, signAdHoc } from "../../scripts/macho.ts";
import { tempDir } from "../helpers.ts";

const ROOT = resolve(import.meta.dir, "../..");

/** Bun's darwin-arm64 output as it comes, linker-signed ad hoc (ident "a.out"). */
function bunArm64(): Buffer {
  const t = tempDir("replyd-macho-");
  try {
    const out = join(t.dir, "arm64");
    const r = Bun.spawnSync([process.execPath, "build", join(ROOT, "src/version.ts"), "--compile", "--target=bun-darwin-arm64", "--outfile", out], { cwd: ROOT });
    if (r.exitCode !== 0) throw new Error(r.stderr.toString());
    return readFileSync(out);
  } finally {
    t.cleanup();
  }
}

test("signing Bun's arm64 output again, as a.out, gives the linker's own signature back byte for byte", () => {
  const f = bunArm64();
  expect(checkSignature(f)).toMatchObject({ cpu: "arm64", adhoc: true, ident: "a.out", problem: null });
  expect(signAdHoc(f, "a.out").equals(f)).toBe(true);
}, 60_000);

test("one byte changed in a page after signing: that page no longer matches", () => {
  const signed = signAdHoc(bunArm64(), "replyd");
  expect(checkSignature(signed).problem).toBeNull();
  signed[5 * 4096 + 17] = (signed[5 * 4096 + 17] as number) ^ 1;
  expect(checkSignature(signed)).toMatchObject({ mismatched: 1, problem: expect.stringContaining("1 of") });
}, 60_000);

test("a file with bytes after its signature is refused, not cut", () => {
  const f = bunArm64();
  expect(() => signAdHoc(Buffer.concat([f, Buffer.from("trailing")]), "replyd")).toThrow("bytes follow the code signature");
}, 60_000);

test("what is not a 64-bit Mach-O is refused", () => {
  expect(() => signAdHoc(Buffer.from("#!/bin/sh\n"), "x")).toThrow(MachOError);
});
