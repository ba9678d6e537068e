/**
 * The key store `replyd keys` manages (store/key-store.ts), one suite run against each: keys.json
 * in a data folder and the database's admin_keys table. Each refusal is checked on both.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { KeyStoreError, type KeyStore } from "../../src/store/key-store.ts";
import { generateKey } from "../../src/store/keys.ts";
import { openKeyStore } from "../../src/store/open.ts";
import { startServer } from "../../src/server/serve.ts";
import { ADMIN, ADMIN_ENV, serveOpts, tempDir } from "../helpers.ts";
import { testDatabase } from "../pg.ts";

const tmp = tempDir("replyd-key-store-");
const dropped: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const drop of dropped) await drop();
  tmp.cleanup();
});

interface Target {
  name: string;
  /** A new, empty place for keys, and how to open its store, and to serve from it. */
  fresh(): Promise<{ open(adding: boolean): Promise<KeyStore>; serve: Partial<Parameters<typeof serveOpts>[1]> & { dataDir: string } }>;
}

let n = 0;
const TARGETS: Target[] = [
  {
    name: "keys.json in a data folder",
    async fresh() {
      const dir = join(tmp.dir, `data${++n}`);
      mkdirSync(dir);
      return { open: (adding) => openKeyStore({ dir, adding }), serve: { dataDir: dir } };
    },
  },
  {
    name: "the database's admin_keys",
    async fresh() {
      const db = await testDatabase();
      dropped.push(db.drop);
      const dir = join(tmp.dir, `unused${++n}`);
      return { open: () => openKeyStore({ db: db.url }), serve: { dataDir: dir, db: db.url } };
    },
  },
];

const refusal = async (p: Promise<unknown>) => {
  try {
    await p;
  } catch (e) {
    return e instanceof KeyStoreError ? e.code : `not a KeyStoreError: ${(e as Error).message}`;
  }
  return "no refusal";
};

for (const target of TARGETS)
  describe(target.name, () => {
    test("added keys are listed oldest first with their scope and note, and removed; the secret is kept for the servers", async () => {
      const place = await target.fresh();
      const store = await place.open(true);
      try {
        const a = generateKey("admin", new Date("2026-11-26T01:00:00.000Z"), "laptop");
        const r = generateKey("read", new Date("2026-11-26T01:00:01.000Z"));
        await store.add(a);
        await store.add(r);
        expect(await store.stored()).toEqual([a, r]);
        await store.remove(a.appkey);
        expect((await store.stored()).map((k) => k.appkey)).toEqual([r.appkey]);
      } finally {
        await store.close();
      }
    });

    test("a key bound to one account keeps its account (replyd keys add --account), one without it has none", async () => {
      const place = await target.fresh();
      const store = await place.open(true);
      try {
        const bound = generateKey("read", new Date("2026-11-26T01:00:00.000Z"), undefined, "shop");
        const every = generateKey("admin", new Date("2026-11-26T01:00:01.000Z"));
        await store.add(bound);
        await store.add(every);
        expect(await store.stored()).toEqual([bound, every]);
        expect((await store.stored())[0]?.account).toBe("shop");
      } finally {
        await store.close();
      }
    });

    test("removing a key that is not stored is refused not_found, and changes nothing", async () => {
      const place = await target.fresh();
      const store = await place.open(true);
      try {
        const k = generateKey("admin", new Date());
        await store.add(k);
        expect(await refusal(store.remove("rk_000000000000"))).toBe("not_found");
        expect((await store.stored()).map((x) => x.appkey)).toEqual([k.appkey]);
      } finally {
        await store.close();
      }
    });

    test("a key a running server takes from its environment is listed and cannot be removed (key_from_environment)", async () => {
      const place = await target.fresh();
      const server = await startServer(serveOpts(place.serve.dataDir, { ...place.serve, env: ADMIN_ENV }));
      const store = await place.open(false);
      try {
        expect((await store.servedFromEnvironment()).map((k) => k.appkey)).toEqual([ADMIN.appkey]);
        expect(await refusal(store.remove(ADMIN.appkey))).toBe("key_from_environment");
      } finally {
        await store.close();
        await server.stop();
      }
    });
  });

test("a data folder that does not exist, or holds no keys.json, is said not to be one (only an addition makes keys.json)", async () => {
  expect(await refusal(openKeyStore({ dir: join(tmp.dir, "missing"), adding: true }))).toBe("no_data");
  const empty = join(tmp.dir, "empty");
  mkdirSync(empty);
  expect(await refusal(openKeyStore({ dir: empty, adding: false }))).toBe("no_data");
  const adding = await openKeyStore({ dir: empty, adding: true });
  expect(await adding.stored()).toEqual([]);
});

test("a database that cannot be reached is refused database_unavailable, without its password", async () => {
  const closed = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const port = closed.port;
  closed.stop(true);
  let message = "";
  try {
    await openKeyStore({ db: `postgres://u:hunter2secret@127.0.0.1:${port}/x` });
  } catch (e) {
    expect((e as KeyStoreError).code).toBe("database_unavailable");
    message = (e as Error).message;
  }
  expect(message).toContain("cannot use the database");
  expect(message).not.toContain("hunter2secret");
});
