/**
 * The appkey a server takes from its environment, written in its data folder while it runs (never
 * the secret), so that `replyd keys ls` names it and `replyd keys rm` does not call it revoked.
 * Written once the folder's lock is held, removed when the server stops. A server killed with -9
 * leaves its file behind, naming a pid that is gone: it is ignored, and replaced at the next start.
 */
import { readFileSync, rmSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { atomicWrite } from "../../base/fsutil.ts";
import type { ServedFromEnvironment } from "../keys.ts";
import { processAlive } from "../pid.ts";

export const ENVIRONMENT_KEY_FILE = "environment-key.json";

/** The data folders this process serves with a key from its environment (tests run servers in-process). */
const recordedHere = new Set<string>();

/** Records this server's environment key in the folder it holds, or removes a record left behind. */
export function recordEnvironmentKey(dir: string, appkey: string | null): void {
  const path = join(dir, ENVIRONMENT_KEY_FILE);
  if (appkey === null) return rmSync(path, { force: true });
  atomicWrite(path, (w) => w(`${JSON.stringify({ appkey, pid: process.pid, since: new Date().toISOString() })}\n`));
  recordedHere.add(dir);
}

export function forgetEnvironmentKey(dir: string): void {
  recordedHere.delete(dir);
  rmSync(join(dir, ENVIRONMENT_KEY_FILE), { force: true });
}

/** The key the server running on this folder takes from its environment, if one does. */
export function environmentKeyOf(dir: string): ServedFromEnvironment | null {
  let raw: { appkey?: unknown; pid?: unknown };
  try {
    raw = JSON.parse(readFileSync(join(dir, ENVIRONMENT_KEY_FILE), "utf8")) as typeof raw;
  } catch {
    return null;
  }
  const { appkey, pid } = raw;
  if (typeof appkey !== "string" || typeof pid !== "number") return null;
  // Our own pid in a record this process did not make: a previous run that had it (a container's pid 1).
  const running = pid === process.pid ? recordedHere.has(dir) : processAlive(pid);
  return running ? { appkey, server: `the server with pid ${pid} on ${hostname()}` } : null;
}
