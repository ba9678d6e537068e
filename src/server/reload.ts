/**
 * What a reload (`SIGHUP`, `replyd serve --reload`) may change, and what it would: the accounts
 * of the config file's [accounts] are added, changed and removed while the server runs; every
 * other setting is the server's (its port, its data folder, its limits) and needs a restart, so a
 * file that changes one is refused whole rather than half applied.
 */
import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { DeclaredAccount } from "../account/settings.ts";
import type { ServeOptions } from "./serve-options.ts";

export interface ReloadOutcome {
  ok: boolean;
  /** Why nothing changed (ok false). */
  error?: string;
  added: string[];
  changed: string[];
  removed: string[];
  unchanged: string[];
}

export const refusedReload = (error: string): ReloadOutcome => ({ ok: false, error, added: [], changed: [], removed: [], unchanged: [] });

/** The server's own settings: each read once at start. */
const RESTART_ONLY: [keyof ServeOptions, string][] = [
  ["dataDir", "data"],
  ["db", "db"],
  ["redis", "redis"],
  ["host", "host"],
  ["port", "port"],
  ["windowMs", "window"],
  ["keep", "keep"],
  ["maxUpload", "max-upload"],
  ["maxAuthFailures", "max-auth-failures"],
  ["trustProxy", "trust-proxy"],
  ["publicUrl", "public-url"],
  ["maxMedia", "max-media"],
  ["logDays", "log-days"],
  ["replyLimit", "reply-limit"],
];

/** Why `next` cannot be applied without a restart, or null. Values are never quoted: a URL may hold a password. */
export function restartNeeded(running: ServeOptions, next: ServeOptions): string | null {
  if (!running.accounts) return "this server declares no [accounts]: a reload changes accounts only; restart it to apply other settings";
  if (!next.accounts) return "the config file no longer declares [accounts]: restart the server to serve one account without them";
  const changed = RESTART_ONLY.filter(([k]) => running[k] !== next[k]).map(([, name]) => name);
  if (callbackBase(running) !== callbackBase(next)) changed.push("wx-path");
  if (changed.length) return `${changed.join(", ")} changed: ${changed.length > 1 ? "these are" : "this is"} the server's, read at start; restart it to apply`;
  return null;
}

const callbackBase = (o: ServeOptions) => o.wechat?.path ?? "";

/** What an account's settings are, compared: its callback, platform and model settings. */
const fingerprint = (a: DeclaredAccount) => JSON.stringify([a.wechat, a.ai ?? null]);

/** Which accounts a reload adds, changes, removes and leaves, by name. */
export function reloadPlan(current: readonly DeclaredAccount[], next: readonly DeclaredAccount[]) {
  const was = new Map(current.map((a) => [a.name, a]));
  const will = new Set(next.map((a) => a.name));
  const added = next.filter((a) => !was.has(a.name));
  const changed = next.filter((a) => was.has(a.name) && fingerprint(was.get(a.name) as DeclaredAccount) !== fingerprint(a));
  const unchanged = next.filter((a) => was.has(a.name) && fingerprint(was.get(a.name) as DeclaredAccount) === fingerprint(a));
  const removed = current.filter((a) => !will.has(a.name));
  return { added, changed, removed, unchanged };
}

/** Where the server writes its last reload's outcome, in its data folder, for `serve --reload` to read. */
export const RELOAD_FILE = "reload.json";

export interface WrittenOutcome extends ReloadOutcome {
  /** When the reload was asked for (ms): `serve --reload` waits for one asked after its signal. */
  asked: number;
  pid: number;
}

/** Written whole (a temporary file renamed), the owner's alone; a failure to write is no failure of the reload. */
export function writeReloadOutcome(dataDir: string, outcome: WrittenOutcome): void {
  const file = join(dataDir, RELOAD_FILE);
  try {
    writeFileSync(`${file}.tmp`, JSON.stringify(outcome) + "\n", { mode: 0o600 });
    renameSync(`${file}.tmp`, file);
  } catch {}
}

export function readReloadOutcome(dataDir: string): WrittenOutcome | null {
  try {
    return JSON.parse(readFileSync(join(dataDir, RELOAD_FILE), "utf8")) as WrittenOutcome;
  } catch {
    return null;
  }
}
