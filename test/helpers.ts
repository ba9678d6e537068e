import { test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fixedClock } from "../src/base/clock.ts";
import { createApp } from "../src/server/app.ts";
import type { AppOptions } from "../src/server/app-options.ts";
import { canonicalQuery, fileParamValue, formatTs, newNonce, signRequest, type Param } from "../src/sign.ts";
import type { AdminKey } from "../src/store/keys.ts";
import type { Backend } from "../src/store/backend.ts";
import { openBackend } from "../src/store/open.ts";
import { DataFolder, type DataFolderOptions } from "../src/store/sqlite/data-folder.ts";
import type { IO } from "../src/cli/io.ts";
import type { ServeOptions } from "../src/server/serve-options.ts";
import { closingClient, testDatabase } from "./pg.ts";

export const ADMIN: AdminKey = { appkey: "admin1", secret: "admin-secret-0123456789", scope: "admin" };
export const READER: AdminKey = { appkey: "reader1", secret: "reader-secret-0123456789", scope: "read" };
export const T0 = Date.parse("2026-11-21T10:00:00.000Z");
/** The server's environment that adds ADMIN as its key. */
export const ADMIN_ENV = { REPLYD_APPKEY: ADMIN.appkey, REPLYD_SECRET: ADMIN.secret };

/** startServer options: loopback, a free port, quiet, no keys from the environment; `extra` overrides any. */
export function serveOpts(dataDir: string, extra: Partial<ServeOptions> = {}): ServeOptions {
  return { dataDir, host: "127.0.0.1", port: 0, windowMs: 5000, keep: 30, maxUpload: 1 << 20, maxAuthFailures: 10, trustProxy: false, env: {}, log: () => {}, say: () => {}, ...extra };
}

export function tempDir(prefix = "replyd-test-"): { dir: string; cleanup(): void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A store in `dir` with the tests' fixed clock and retention; `extra` overrides either or adds options. */
export function openStore(dir: string, extra: Partial<DataFolderOptions> = {}): DataFolder {
  return DataFolder.open(dir, { clock: fixedClock(T0), keep: 5, ...extra });
}

/**
 * Which store the apps tests make keep their data in: SQLite (the default), or with
 * REPLYD_TEST_STORE=postgres a database of their own on a throwaway cluster, read through a local
 * copy in the temp folder — the same suites, run once per store by ./scripts/test.
 */
export const TEST_STORE: "sqlite" | "postgres" = process.env.REPLYD_TEST_STORE === "postgres" ? "postgres" : "sqlite";

/**
 * A test of the SQLite store's own files (backup files damaged on disk, a data folder turning
 * read-only, the log writer's locks): registered only when the apps keep their data in SQLite, as
 * on PostgreSQL those files do not exist. The database's own faults have tests of their own.
 */
export const dataFolderTest = (TEST_STORE === "sqlite" ? test : () => {}) as typeof test;
/** A test of what is PostgreSQL's own (its local read copy): registered only when the apps keep their data there. */
export const databaseTest = (TEST_STORE === "postgres" ? test : () => {}) as typeof test;

/**
 * A backend of TEST_STORE's kind, opened as a server opens one (store/open.ts): a data folder in
 * `dir`, or a database of its own; ADMIN and READER accepted beside any stored keys.
 */
export async function testBackend(dir: string, clock = fixedClock(T0)): Promise<Backend & { drop(): Promise<void> }> {
  const db = TEST_STORE === "postgres" ? await testDatabase() : null;
  const backend = await openBackend(db?.url ?? dir, {
    clock,
    keep: 5,
    extraKeys: [ADMIN, READER],
    firstKey: false,
    logError: (message) => console.error(message),
  });
  return Object.assign(backend, { drop: async () => void (await db?.drop()) });
}

/** An app on a temp data folder with an injected clock and two keys (its data in TEST_STORE). */
export async function testApp(opts: Partial<AppOptions> & { clock?: ReturnType<typeof fixedClock> } = {}) {
  const { dir, cleanup } = tempDir();
  const clock = opts.clock ?? fixedClock(T0);
  const backend = await testBackend(dir, clock);
  const appOpts: AppOptions = { read: backend.read, write: backend.write, keys: backend.keys, ...opts, clock };
  let app = await createApp(appOpts);
  // The read model (SQLite, or PostgreSQL's local copy) as the SQLite store it is, for tests that look inside.
  const store = backend.read as DataFolder;
  return {
    /** The read model's folder: the data folder, or the local copy's. */
    dir: store.dir,
    clock,
    store,
    backend,
    get app() {
      return app;
    },
    /** The app made again on the same data, with some options changed (as a restart with other settings would). */
    async rebuild(extra: Partial<AppOptions>) {
      app = await createApp({ ...appOpts, ...extra });
      return app;
    },
    /** The message log as the app keeps it (in TEST_STORE). */
    log: app.ctx.write.log,
    handle: (req: Request) => app.handle(req),
    /** A signed admin request a millisecond after the last (no nonce or time repeats), answered as status and body (and the response, for its headers or text). */
    async call(method: string, path: string, fields: Param[] = [], o: Omit<SignOpts, "fields" | "nowMs"> = {}) {
      clock.advance(1);
      const res = await app.handle(signedRequest(method, path, { fields, nowMs: clock.now(), ...o }));
      return { status: res.status, res, ...(await body(res.clone())) };
    },
    close() {
      closingClient(
        backend
          .close()
          .then(() => backend.drop())
          .finally(cleanup),
      );
    },
  };
}

export interface SignOpts {
  fields?: Param[];
  files?: { name: string; content: string | Uint8Array; filename?: string }[];
  key?: AdminKey;
  ts?: string;
  nowMs?: number;
  nonce?: string;
  base?: string;
  /** Changes the parameters after signing (attack simulations). */
  tamper?: (params: Param[]) => Param[];
  /** Sign as this method but send as `method`. */
  signMethod?: string;
  signPath?: string;
  /** Replace file contents after signing. */
  swapFiles?: Record<string, string>;
  /** Send a file part under another name than the one signed. */
  renameFiles?: Record<string, string>;
}

/** Builds a signed request exactly as DESIGN §4 says, with hooks to break it on purpose. */
export function signedRequest(method: string, path: string, o: SignOpts = {}): Request {
  const key = o.key ?? ADMIN;
  const params: Param[] = [...(o.fields ?? []), ["appkey", key.appkey], ["ts", o.ts ?? formatTs(o.nowMs ?? T0)], ["nonce", o.nonce ?? newNonce()]];
  const files = o.files ?? [];
  const bytes = (c: string | Uint8Array) => (typeof c === "string" ? new TextEncoder().encode(c) : c);
  const signed: Param[] = [...params, ...files.map((f) => [f.name, fileParamValue(bytes(f.content))] as Param)];
  const { sign } = signRequest({ method: o.signMethod ?? method, path: o.signPath ?? path, params: signed, secret: key.secret });
  let all: Param[] = [...params, ["sign", sign]];
  if (o.tamper) all = o.tamper(all);
  const url = (o.base ?? "http://localhost") + path;
  if (method === "GET" || method === "DELETE") return new Request(url + "?" + canonicalQuery(all), { method });
  if (!files.length)
    return new Request(url, { method, body: canonicalQuery(all), headers: { "content-type": "application/x-www-form-urlencoded" } });
  const form = new FormData();
  for (const [k, v] of all) form.append(k, v);
  for (const f of files) form.append(o.renameFiles?.[f.name] ?? f.name, new File([o.swapFiles?.[f.name] ?? bytes(f.content)], f.filename ?? "doc.json"));
  return new Request(url, { method, body: form });
}

export async function body(res: { json(): Promise<unknown> }): Promise<{ ok: boolean; data?: any; error?: any }> {
  return (await res.json()) as { ok: boolean; data?: any; error?: any };
}

export function doc(articles: unknown[], extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ format: "replyd/1", matter: "all", created_at: "2026-11-21T10:00:00.000Z", articles, ...extra });
}

export const article = (n: number, extra: Record<string, unknown> = {}) => ({
  id: `a${n}`,
  code: `c${n}`,
  tag: "news",
  title: `Article ${n}`,
  url: `https://example.com/${n}`,
  ...extra,
});

/** Captures a command's output for client tests. */
export function captureIO(env: Record<string, string | undefined> = {}, cwd = process.cwd()): IO & { stdout: string[]; stderr: string[] } {
  const stdout: string[] = [];
  const stderr: string[] = [];
  return {
    stdout,
    stderr,
    out: (t) => void stdout.push(t),
    raw: (bytes) => void stdout.push(new TextDecoder().decode(bytes)),
    err: (t) => void stderr.push(t),
    env,
    cwd,
    interactive: false,
    escapes: false,
    ask: async () => "",
    secret: async () => env.TEST_SECRET_INPUT ?? "",
    platform: "linux",
    home: env.HOME ?? cwd,
    fetch: globalThis.fetch,
    now: () => Date.now(),
  };
}

