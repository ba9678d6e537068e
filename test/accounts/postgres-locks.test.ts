/**
 * The locks that guard an account's data on PostgreSQL are the account's (issue 36 B): a write to
 * shop holding its write lock does not hold up blog's writes, and still holds up shop's.
 */
import { afterEach, expect } from "bun:test";
import { accountPool, scopedWriteLock } from "../../src/store/postgres/account-schema.ts";
import { LOCKS } from "../../src/store/postgres/connect.ts";
import { article, databaseTest } from "../helpers.ts";
import { twoAccounts } from "./harness.ts";

let t: Awaited<ReturnType<typeof twoAccounts>> | null = null;
afterEach(async () => {
  await t?.close();
  t = null;
});

databaseTest("shop's write lock held: blog's import is done meanwhile, shop's waits for it", async () => {
  t = await twoAccounts();
  const shopPool = accountPool(t.db as string, "shop");
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  let held!: () => void;
  const holding = new Promise<void>((r) => (held = r));
  const tx = shopPool.begin(async (tx) => {
    await tx.unsafe(`SELECT pg_advisory_xact_lock(${scopedWriteLock(LOCKS.write)})`);
    held();
    await released;
  });
  try {
    await holding;
    let shopDone = false;
    const shop = t.load("shop", [article(1, { title: "Shop returns" })]).then((r) => ((shopDone = true), r));
    // Blog's import completes while shop's lock is held (it would wait forever on a shared lock).
    // (Bounded far above an import's time on a loaded machine: on a shared lock it would never end.)
    const blog = await Promise.race([t.load("blog", [article(2, { title: "Blog post" })]), Bun.sleep(20_000).then(() => ({ status: "still waiting" }))]);
    expect(blog.status).toBe(200);
    expect(shopDone).toBe(false);
    release();
    expect((await shop).status).toBe(200);
  } finally {
    release();
    await tx;
    await shopPool.close();
  }
});
