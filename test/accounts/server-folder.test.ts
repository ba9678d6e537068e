/** The data folder of a server of several accounts: the owner's alone, also when a release before left it open; never opened as one account's. */
import { expect, test } from "bun:test";
import { existsSync, mkdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { openServerFolder } from "../../src/store/sqlite/server-folder.ts";
import { openAccountsServer, openBackend } from "../../src/store/open.ts";
import { BackendError } from "../../src/store/backend.ts";
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

test("a server of several accounts opened as one account (its config file forgotten) is refused, naming the accounts, and nothing is made", async () => {
  const tmp = tempDir();
  try {
    const opts = { clock: fixedClock(T0), keep: 5, extraKeys: [], firstKey: false, logError: () => {} };
    const server = await openAccountsServer(tmp.dir, opts);
    for (const name of ["shop", "blog"]) await (await server.openAccount(name, opts)).close();
    await server.close();
    const error = await openBackend(tmp.dir, opts).catch((e) => e);
    expect(error).toBeInstanceOf(BackendError);
    expect(error.message).toContain(`the data folder ${tmp.dir} holds the data of the accounts blog, shop (accounts/NAME/) and none of its own`);
    expect(error.message).toContain("start it with --config");
    expect(existsSync(join(tmp.dir, "replyd.db"))).toBe(false);
    // A folder with data of its own at the top too is opened as it always was (the server of several accounts warns of it).
    const single = join(tmp.dir, "single");
    await (await openBackend(single, opts)).close();
    mkdirSync(join(single, "accounts", "shop"), { recursive: true });
    writeFileSync(join(single, "accounts", "shop", "replyd.db"), "");
    await (await openBackend(single, opts)).close();
    // An empty accounts/ folder, or one whose folders hold no database, refuses nothing.
    const empty = join(tmp.dir, "empty");
    mkdirSync(join(empty, "accounts", "shop"), { recursive: true });
    await (await openBackend(empty, opts)).close();
  } finally {
    tmp.cleanup();
  }
});
