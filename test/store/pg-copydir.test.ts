import { afterEach, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { makeCopyDir, sweepStaleCopies } from "../../src/store/postgres/copydir.ts";

const roots: string[] = [];
afterEach(() => {
  for (const r of roots.splice(0)) rmSync(r, { recursive: true, force: true });
});
const root = () => {
  const r = mkdtempSync(join(tmpdir(), "replyd-copyroot-"));
  roots.push(r);
  return r;
};
const copyOwnedBy = (r: string, name: string, owner: string) => {
  const dir = join(r, `replyd-copy-${name}`);
  mkdirSync(dir);
  writeFileSync(join(dir, "owner"), owner);
  writeFileSync(join(dir, "replyd.db"), "x");
  return dir;
};

test("a copy whose server has exited is removed; a running server's copy is kept", async () => {
  const r = root();
  const gone = Bun.spawn(["true"]);
  await gone.exited;
  const running = Bun.spawn(["sleep", "30"]);
  try {
    const dead = copyOwnedBy(r, "dead", String(gone.pid));
    const live = copyOwnedBy(r, "live", String(running.pid));
    expect(sweepStaleCopies(r)).toEqual([dead]);
    expect([existsSync(dead), existsSync(live)]).toEqual([false, true]);
  } finally {
    running.kill();
  }
});

test("a copy naming this process's own pid is a previous run's (a restarted container's pid 1) and is removed", () => {
  const r = root();
  const mine = copyOwnedBy(r, "mine", String(process.pid));
  expect(sweepStaleCopies(r)).toEqual([mine]);
});

test("a copy without an owner file is left alone for a minute (it is being made), then removed", () => {
  const r = root();
  const dir = join(r, "replyd-copy-unowned");
  mkdirSync(dir);
  const now = Date.now();
  expect(sweepStaleCopies(r, now)).toEqual([]);
  expect(sweepStaleCopies(r, now + 59_000)).toEqual([]);
  const old = new Date(now - 61_000);
  utimesSync(dir, old, old);
  expect(sweepStaleCopies(r, now)).toEqual([dir]);
});

test("folders not named as copies are never touched, and an unreadable owner is not a live one", () => {
  const r = root();
  const other = join(r, "replyd-data");
  mkdirSync(other);
  writeFileSync(join(other, "owner"), "1");
  const garbage = copyOwnedBy(r, "garbage", "not a pid");
  expect(sweepStaleCopies(r)).toEqual([garbage]);
  expect(existsSync(other)).toBe(true);
});

test("makeCopyDir names this process as the owner, so a sweep from another start keeps it", () => {
  const r = root();
  const dir = makeCopyDir(r);
  expect(Bun.file(join(dir, "owner")).size).toBeGreaterThan(0);
  // Seen from another process (its own pid differs), this one is alive.
  const p = Bun.spawnSync([process.execPath, "-e", `const { sweepStaleCopies } = await import(${JSON.stringify(join(import.meta.dir, "../../src/store/postgres/copydir.ts"))}); console.log(JSON.stringify(sweepStaleCopies(${JSON.stringify(r)})))`]);
  expect(p.stdout.toString().trim()).toBe("[]");
  expect(existsSync(dir)).toBe(true);
});
