/** The data folder of a server of several accounts: the owner's alone, also when a release before left it open. */
import { expect, test } from "bun:test";
import { mkdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { openServerFolder } from "../../src/store/sqlite/server-folder.ts";
import { fixedClock } from "../../src/base/clock.ts";
import { T0, tempDir } from "../helpers.ts";

test("the top folder and accounts/, made 0755 before, are narrowed to 0700 at start; a new one is made so", () => {
  const tmp = tempDir();
  try {
    const old = join(tmp.dir, "old");
    mkdirSync(join(old, "accounts"), { recursive: true, mode: 0o755 });
    const fresh = join(tmp.dir, "fresh");
    for (const dir of [old, fresh]) {
      const f = openServerFolder(dir, { clock: fixedClock(T0), extraKeys: [], firstKey: true });
      f.close();
      for (const d of [dir, join(dir, "accounts")]) expect(statSync(d).mode & 0o777).toBe(0o700);
    }
  } finally {
    tmp.cleanup();
  }
});
