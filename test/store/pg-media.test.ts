/** Media on PostgreSQL: kept in the database; the folder it is served from is a cache, filled again on demand. */
import { expect, test } from "bun:test";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { openTarget } from "./targets.ts";
import { CODE } from "../../src/base/errors.ts";

const PNG = Uint8Array.from(atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="), (c) => c.charCodeAt(0));

test("an image survives the loss of the local folder: fetched back from the database, byte for byte", async () => {
  const t = await openTarget("postgres");
  try {
    const stored = await t.storeMedia(PNG, 64 * 1024);
    expect(stored).toMatchObject({ type: "image/png", size: PNG.length, existed: false });
    expect((await t.storeMedia(PNG, 64 * 1024)).existed).toBe(true);
    const path = join(t.store.mediaDir, stored.name);
    rmSync(path);
    expect(await t.fetchMedia(stored.name)).toBe(true);
    expect(new Uint8Array(readFileSync(path))).toEqual(PNG);
    expect(await t.fetchMedia("0".repeat(32) + ".png")).toBe(false);
    await expect(t.storeMedia(new TextEncoder().encode("<script>"), 64 * 1024)).rejects.toMatchObject({ code: CODE.bad_media });
  } finally {
    await t.close();
  }
});
